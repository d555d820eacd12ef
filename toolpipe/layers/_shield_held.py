"""What a line leaves to later calls besides files: a variable given a secret (a shell that
lasts from call to call still holds it, and a later call sends it by name), and a patch
applied to the project (what it put in is as known as the patch is)."""

from __future__ import annotations

import re
from collections.abc import Callable

from toolpipe.layers._shield_projects import key
from toolpipe.shell import Command, Script, option_values


def applied_patch(cmd: Command, workspace: str) -> str | None:
    """The patch file ``git apply|am FILE``, ``patch -i FILE`` or ``patch < FILE`` applies
    to the project (not ``--check``, ``--stat`` or a dry run), by its key."""
    if cmd.name not in ("git", "patch"):
        return None
    texts = [a.text for a in cmd.args]
    if set(texts) & {"--check", "--stat", "--numstat", "--summary", "--dry-run", "-R"}:
        return None
    named: str | None = None
    if cmd.name == "git" and texts[:1] in (["apply"], ["am"]):
        named = next((t for t in texts[1:] if not t.startswith("-")), None)
    elif cmd.name == "patch":
        named = next(iter(option_values(texts, "-i") + option_values(texts, "--input")),
                     None) or next((r.target.text for r in cmd.redirects if r.reads
                                    and r.target is not None and r.target.known), None)
    return key(named, cmd.cwd, workspace) if named else None


EXPANDED = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
# a variable given a command's output (`export K="$(cat ~/.ssh/id_rsa)"`, `T=$(gh auth token)`)
_ASSIGNED = re.compile(r"(?:^|[;&|(\s])(?:export\s+|declare\s+-x\s+|readonly\s+|local\s+)?"
                       r"([A-Za-z_][A-Za-z0-9_]*)=[\"']?\$\(")


def secret_variables(script: Script, cmd: Command, reads_secret: Callable[[Command], bool]
                     ) -> list[str]:
    """The variables this line gives a secret, read by ``cmd`` inside ``$(…)``: in a shell
    that lasts from call to call, a later call sends it by name (`curl -d "$K"`)."""
    if not any("$(" in w for w in cmd.where) or not reads_secret(cmd):
        return []
    return _ASSIGNED.findall(script.text)
