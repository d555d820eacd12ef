"""What a line leaves to later calls besides files: a variable given a secret (a shell that
lasts from call to call still holds it, and a later call sends it by name), a patch
applied to the project (what it put in is as known as the patch is), and a tool's setting
written to the file the tool reads it from (`git config alias.st '!…'`: the project's
.git/config, which a later `git st` loads)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from toolpipe.layers._shield_projects import key
from toolpipe.layers._shield_unpacked import tar_archive
from toolpipe.shell import (
    ELSEWHERE,
    INDEX_VAR,
    Command,
    Script,
    classify,
    git_subcommand,
    option_values,
)


def patching(cmd: Command) -> bool:
    """Does ``cmd`` apply a patch to the project (``git apply|am``, ``patch``; not
    ``--check``, ``--stat`` or a dry run)?"""
    if cmd.name not in ("git", "patch"):
        return False
    texts = [a.text for a in cmd.args]
    if set(texts) & {"--check", "--stat", "--numstat", "--summary", "--dry-run", "-R"}:
        return False
    return cmd.name == "patch" or texts[:1] in (["apply"], ["am"])


def applied_patch(cmd: Command, workspace: str) -> str | None:
    """The patch file ``git apply|am FILE``, ``patch -i FILE`` or ``patch < FILE`` applies
    to the project (see ``patching``), by its key."""
    if not patching(cmd):
        return None
    texts = [a.text for a in cmd.args]
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


def index_exports(text: str) -> list[tuple[str, str]]:
    """(variable, address) for each package index a line exports that is not an
    ecosystem's own (`export PIP_INDEX_URL=https://…`): a shell that lasts from call to call
    still holds it, and every later install of that ecosystem fetches from there."""
    if "INDEX" not in text.upper() and "REGISTRY" not in text.upper() and (
            "PROXY" not in text.upper() and "MIRROR" not in text.upper()):
        return []  # (every line comes here)
    return [(name, value) for name, value in _EXPORTED.findall(text)
            if INDEX_VAR.search(name) and ELSEWHERE.match(value)]


_EXPORTED = re.compile(r"(?:^|[;&|(\s])(?:export|declare\s+-x|typeset\s+-x)\s+"
                       r"([A-Za-z_][A-Za-z0-9_]*)=[\"']?([^\s\"';&|]+)")


# which installers read an index variable, by its prefix (one without: any of them)
INDEX_READERS = {"PIP_": ("pip", "pip3", "pipx"), "UV_": ("uv", "uvx"),
                 "NPM_CONFIG_": ("npm", "npx", "pnpm", "yarn"), "YARN_": ("yarn",),
                 "GOPROXY": ("go",), "POETRY_": ("poetry",), "CARGO_": ("cargo",),
                 "BUNDLE_": ("bundle", "bundler"), "GEM_": ("gem",)}


def reads_index(variable: str, program: str) -> bool:
    """Does ``program`` read the package index variable ``variable``?"""
    readers = next((r for p, r in INDEX_READERS.items() if variable.startswith(p)), None)
    return readers is None or program in readers


_GIT_NOT_WRITING = frozenset({"--global", "--system", "--get", "--get-all", "--get-regexp",
                              "--list", "-l", "--unset", "--unset-all", "--remove-section",
                              "--rename-section", "-e", "--edit", "--show-origin"})


def setting_written(cmd: Command, workspace: str) -> tuple[str, str] | None:
    """The project's config file a tool's own setting command writes and the lines it
    adds there: `git config KEY VALUE` and `git remote add|set-url NAME URL` (the
    repository's .git/config, in git's INI form),
    `npm config set KEY VALUE --location project` (.npmrc; npm's user file, ~/.npmrc,
    without it). None for a read, a removal, or a file outside the project (--global)."""
    if cmd.name not in ("git", "npm") or not all(a.known for a in cmd.args):
        return None  # (every command of every line comes here: the name first)
    texts = [a.text for a in cmd.args]
    if cmd.name == "git":
        folder = next(iter(option_values(texts, "-C")), ".")
        rest = [a.text for a in git_subcommand(cmd.args)[1]]
        words = [t for t in rest if not t.startswith("-")]
        if words[:2] in (["remote", "add"], ["remote", "set-url"]) and len(words) >= 4:
            # (a remote named or pointed elsewhere: where a later `git push NAME` goes)
            return key(f"{folder}/.git/config", cmd.cwd, workspace), (
                f'[remote "{words[2]}"]\n\turl = {words[3]}\n')
        if rest[:1] != ["config"] or set(texts) & _GIT_NOT_WRITING:
            return None
        operands = [t for t in rest[1:] if not t.startswith("-")]
        if len(operands) != 2 or "." not in operands[0]:
            return None
        section, _, name = operands[0].rpartition(".")
        head, dot, sub_name = section.partition(".")
        header = f'[{head} "{sub_name}"]' if dot else f"[{head}]"
        return key(f"{folder}/.git/config", cmd.cwd, workspace), (
            f"{header}\n\t{name} = {operands[1]}\n")
    if cmd.name == "npm" and texts[:2] == ["config", "set"]:
        pairs = [t for t in texts[2:] if not t.startswith("-")]
        where = next(iter(option_values(texts, "--location") + option_values(texts, "-L")),
                     "user")
        if where == "global" or not pairs or "global" in texts or "-g" in texts:
            return None
        line = pairs[0] if "=" in pairs[0] else f"{pairs[0]}={' '.join(pairs[1:2])}"
        path = ".npmrc" if where == "project" else "~/.npmrc"
        return key(path, cmd.cwd, workspace), line + "\n"
    return None


_WHOLE = frozenset({".", "./", "*", "./*"})
_PACKERS = frozenset({"git", "tar", "gtar", "bsdtar", "zip"})


def packed_project(cmd: Command, workspace: str) -> str | None:
    """The file a command packs the whole project into (its key): `git bundle create F
    --all`, `git archive -o F HEAD`, `tar -czf F .`, `zip -r F .`; None for anything less
    (a folder of it, a dry run, its output)."""
    named = _packed(cmd)
    return key(named, cmd.cwd, workspace) if named and named != "-" else None


def packs_to_output(cmd: Command) -> bool:
    """Does a command pack the whole project onto its output (`tar cz .`, `zip -r - .`,
    `git archive HEAD`, `git bundle create - --all`)?"""
    return _packed(cmd) == "-"


def _packed(cmd: Command) -> str | None:
    """Where a command packs the whole project: a file's name, ``-`` (its output), or
    None (it does not)."""
    if cmd.name not in _PACKERS or not all(a.known for a in cmd.args):
        return None  # (every command of every line comes here: the name first)
    texts = [a.text for a in cmd.args]
    if cmd.name == "git":
        rest = [a.text for a in git_subcommand(cmd.args)[1]]
        if rest[:2] == ["bundle", "create"] and len(rest) > 2 and set(rest[3:]) & {
                "--all", "--branches", "HEAD"}:
            return rest[2]
        operands = [t for t in rest[1:] if not t.startswith("-")]
        if rest[:1] == ["archive"] and "--list" not in rest and "-l" not in rest and (
                len(operands) <= 1 or option_values(rest, "-o") + option_values(
                    rest, "--output")):  # (a tree and paths under it: a part of it)
            return next(iter(option_values(rest, "-o") + option_values(rest, "--output")),
                        "-")
        return None
    if not set(texts) & _WHOLE:
        return None
    if cmd.name == "zip":
        operands = [t for t in texts if not t.startswith("-") or t == "-"]
        return operands[0] if operands and operands[0] not in _WHOLE else None
    named = tar_archive(texts)
    creates = any(t == "--create" or (not t.startswith("--") and "c" in t.lstrip("-"))
                  for t in texts[:1] + [t for t in texts if t.startswith("-")])
    return named if named is not None else ("-" if creates else None)


_REMOTE = re.compile(r'\[remote "([^"\n]+)"\]\n\turl = ')


def pushed_to_named(script: Script, held: Callable[[str], str | None], workspace: str
                    ) -> list[Command]:
    """Pushes to a remote an earlier call named or pointed elsewhere (`git remote set-url
    origin URL`, then `git push`): what a remote's name stands for changed on the way, as
    ``repointed`` reads it on one line. ``held``: what the session knows a file (by its
    key) to hold."""
    out: list[Command] = []
    for cmd in script.commands:
        if cmd.name != "git" or not all(a.known for a in cmd.args):
            continue
        folder = next(iter(option_values([a.text for a in cmd.args], "-C")), ".")
        rest = [a.text for a in git_subcommand(cmd.args)[1] if not a.text.startswith("-")]
        if rest[:1] != ["push"]:
            continue
        config = held(key(f"{folder}/.git/config", cmd.cwd, workspace))
        if config and (rest[1] if len(rest) > 1 else "origin") in _REMOTE.findall(config):
            out.append(cmd)
    return out


def links_out(cmd: Command, src: str, dst: str, workspace: str) -> bool:
    """Does ``ln`` make a link out of the workspace (a symbolic one's text read from the
    link's own folder)?"""
    if cmd.name != "ln":
        return False
    symbolic = any(a.text == "--symbolic" or (a.text[:1] == "-" and a.text[1:2] != "-" and (
        "s" in a.text)) for a in cmd.args)
    if symbolic and not src.startswith(("/", "~")):
        src = posixpath.join(posixpath.dirname(dst) or ".", src)
    return classify(src, cmd.cwd, workspace).kind not in ("workspace", "workspace-root")
