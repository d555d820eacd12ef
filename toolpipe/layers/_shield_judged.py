"""How a file a call runs or loads is judged (which files: ``_shield_runs``): by where it
came from (a download, a decoding, a link out of the workspace, a patch) and by what it
holds, read as the language it is run as; a file any program may load (``project``) only
for what would be blocked, or for naming code in a folder anyone may write."""

from __future__ import annotations

import re
from collections.abc import Callable

from toolpipe.layers._shield_flow import BLOCKED, FileFact
from toolpipe.layers._shield_projects import code_of, language_of
from toolpipe.shell import classify, config_commands

Judge = Callable[[str, str], tuple[float, str]]  # (text, language) → (score, reason)


def judged(path: str, fact: FileFact, how: str, judge: Judge,
           by: str = "by an earlier call") -> tuple[float, str] | None:
    """``by``: who made the file, as the reason says it (``earlier on this line``)."""
    if fact.origin == "copy":  # (the project's own file, under another name)
        return None
    if fact.origin == "link":  # (what it leads to is not known: as a write of unknown text)
        return 0.6, f"runs {path}, a link made {by} to {fact.content}, out of the workspace"
    if fact.origin == "download":
        return 1.0, f"runs {path}, downloaded {by}"
    if fact.origin == "decoded":
        return 0.9, f"runs {path}, decoded {by}"
    if fact.origin == "patched":
        return 0.6, f"runs the project after {path}, downloaded, changed it {by}"
    if how == "project":
        return _holds_blocked(path, fact, judge, by)
    if fact.origin == "edit":  # the project's own file: what the edit put in is judged
        score, reason = judge(fact.commands, how) if fact.commands else (0.0, "")
        return (score, f"{reason}, put into {path} {by}") if score > 0 else None
    if how.startswith("as "):  # a program's settings file named by its option (tmux -f F)
        if fact.content is None:
            return 0.6, f"loads {path} as settings, written {by} with text it cannot read"
        score, reason = judge(config_commands(how[3:], fact.content), "file")
        return (score, f"{reason}, in {path} written {by}") if score > 0 else None
    if how == "settings":  # loaded for certain: what its commands would do, asked or blocked
        score, reason = judge(fact.commands, how) if fact.commands else (0.0, "")
        return (score, f"{reason}, in {path} written {by}") if score > 0 else None
    if fact.content is None:
        return 0.6, f"runs {path}, written {by} with text it cannot read"
    language = language_of(path, how, fact.content)
    if language == "json":  # data a program reads: asked about for what it holds
        return _holds_blocked(path, fact, judge, by)
    code = code_of(fact.content, language)
    if code.startswith("\x00"):
        return 0.6, f"runs {path}, written {by} and not readable as {how}"
    score, reason = judge(code, how)
    if score <= 0:
        # read as its language it does nothing the wing knows (nox's `session.run("rm",
        # "-rf", …)` is a call of a library's): the commands it holds, as a project file's
        return _holds_blocked(path, fact, judge, by)
    return score, f"{reason}, in {path} written {by}"


_SOURCED = re.compile(r"(?m)^source '?([^\s']+)'?$")  # (a file a settings file names)


def _holds_blocked(path: str, fact: FileFact, judge: Judge, by: str
                   ) -> tuple[float, str] | None:
    """A file a program may load, or runs in a way the wing does not read: asked about,
    and only for what would be blocked (a script that asks about one command must not make
    every later call ask)."""
    if not fact.commands:
        return None
    scratch = next((m.group(1) for m in _SOURCED.finditer(fact.commands)
                    if classify(m.group(1)).kind in ("scratch", "device")), None)
    # (/dev/shm is a device's folder as a place, and one anyone may write, as /tmp is)
    if scratch is not None:  # (code a settings file names in a folder anyone may write:
        # `yarnPath: /tmp/y.cjs`; what it holds no call read)
        return (0.6, f"may load {path}, written {by}, which names code in a folder anyone "
                     f"may write: {scratch}")
    score, reason = judge(fact.commands, "project")
    return (0.6, f"may load {path}, written {by}, which holds what is "
                 f"blocked: {reason}") if score >= BLOCKED else None
