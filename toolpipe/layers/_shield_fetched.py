"""What git brings into the project from a repository that is not the project's own.

`git fetch https://…` (or from a remote a session's call added) makes FETCH_HEAD and the
refs it names a stranger's; a later `git checkout FETCH_HEAD -- Makefile` puts a
stranger's file in the project (downloaded, as if by curl), and `git merge FETCH_HEAD`,
`git reset --hard`, `git pull https://…` change the project as a downloaded patch does (a
program that runs the project then asks). Refs are kept in the session's facts under
``git:`` names, a remote added under ``git-remote:``. And what a clone or a checkout
downloaded, for a file under it (``downloaded_under``)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Container, Iterable, Mapping
from typing import TypeVar

from toolpipe.layers._shield_projects import key
from toolpipe.shell import Command, git_subcommand

REF = "git:"  # a ref a stranger's repository gave, in the facts (origin "download")
REMOTE = "git-remote:"  # a remote a call of the session added (origin "download")

# an address of a repository: a URL, scp's user@host:path, a bundle or another folder
_ADDRESS = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|[^/\s:@]+@[^/\s:]+:|/|\.\.?/|~)",
                      re.IGNORECASE)
# what writes the working tree from a commit it names
_TREE_WRITERS = frozenset({"checkout", "restore", "reset", "merge", "rebase", "cherry-pick",
                           "switch", "read-tree", "revert", "am"})


Fact = TypeVar("Fact")


def downloaded_under(path: str, files: Mapping[str, Fact], downloaded: Container[str]
                     ) -> Fact | None:
    """The fact of a folder a clone or a checkout downloaded, for a file under it; or of
    what a checkout made at ``path`` itself (its write is ``path/{}``, what it makes there:
    `svn export URL/x.sh /tmp/x.sh` makes a file)."""
    if path + "/{}" in downloaded:
        return files.get(path + "/{}")
    parent = posixpath.dirname(path)
    for _ in range(16):
        if not parent or parent in (".", "/"):
            return None
        for made in (parent, parent + "/{}"):
            if made in downloaded:
                return files.get(made)
        if parent in files:  # (a nearer folder's own fact: a clone's .git)
            return None
        parent = posixpath.dirname(parent)
    return None


# a written .gitmodules' sections: each submodule's folder
_SUBMODULE_PATH = re.compile(r"(?m)^[ \t]*path[ \t]*=[ \t]*(\S+)[ \t]*$")


def cloned(cmd: Command, gitmodules: str | None) -> list[str]:
    """The folders a git command fills from another repository, each a download (its
    `.git` git's own): a clone's (`git clone URL [DIR]`), a submodule added (`git submodule
    add URL [PATH]`), and a submodule a written `.gitmodules` names (``gitmodules``: what
    the session wrote there, None when it wrote none), on `git submodule update`."""
    if cmd.name != "git" or not cmd.args or not all(a.known for a in cmd.args):
        return []
    texts = [a.text for a in git_subcommand(cmd.args)[1]]
    sub = texts[0] if texts else ""
    operands = [t for t in texts[1:] if not t.startswith("-")]
    if sub == "clone" and operands:
        return [operands[1] if len(operands) > 1 else
                posixpath.basename(operands[0].rstrip("/")).removesuffix(".git")]
    if sub == "submodule" and texts[1:2] == ["add"] and len(operands) >= 2:
        return [operands[2] if len(operands) > 2 else
                posixpath.basename(operands[1].rstrip("/")).removesuffix(".git")]
    if sub == "submodule" and texts[1:2] == ["update"] and gitmodules:
        return _SUBMODULE_PATH.findall(gitmodules)
    return []


def _stranger(source: str, facts: Container[str]) -> bool:
    return bool(_ADDRESS.match(source)) or f"{REMOTE}{source}" in facts


def fetched(cmd: Command, facts: Container[str]) -> list[str]:
    """The facts' names this git command makes a stranger's: a remote it adds with an
    address, the refs a fetch or a pull from an address (or such a remote) brings."""
    if cmd.name != "git" or not all(a.known for a in cmd.args):
        return []
    rest = [a.text for a in git_subcommand(cmd.args)[1]]
    operands = [t for t in rest[1:] if not t.startswith("-")]
    if rest[:2] == ["remote", "add"] and len(operands) >= 3 and _ADDRESS.match(operands[2]):
        return [f"{REMOTE}{operands[1]}"]
    if rest[:1] not in (["fetch"], ["pull"]) or not operands or not _stranger(
            operands[0], facts):
        return []
    refs = [f"{REF}FETCH_HEAD"]
    if not _ADDRESS.match(operands[0]):
        refs.append(f"{REF}{operands[0]}/")  # the remote's branches, `evil/main`
    for spec in operands[1:]:
        _, colon, into = spec.lstrip("+").partition(":")
        if colon and into:
            refs.append(f"{REF}{into.removeprefix('refs/heads/')}")
    return refs


def _strangers(words: Iterable[str], facts: Container[str]) -> bool:
    for word in words:
        ref = word.split("=", 1)[-1] if word.startswith("--source=") else word
        ref = re.split(r"[~^@:]", ref, maxsplit=1)[0]
        remote = ref.split("/", 1)[0]
        if ref and (f"{REF}{ref}" in facts or ("/" in ref and f"{REF}{remote}/" in facts)):
            return True
    return False


def checked_out(cmd: Command, workspace: str, facts: Container[str]
                ) -> dict[str, str]:
    """What a git command puts in the working tree from a stranger's commit: each file it
    names, as downloaded ("download"), or the whole project ("patched", under the ref's
    name) when it names none. A pull from an address is a fetch and a merge."""
    if cmd.name != "git" or not all(a.known for a in cmd.args):
        return {}
    rest = [a.text for a in git_subcommand(cmd.args)[1]]
    if rest[:1] == ["pull"]:
        operands = [t for t in rest[1:] if not t.startswith("-")]
        if operands and _stranger(operands[0], facts):
            return {f"{REF}FETCH_HEAD": "patched"}
        return {}
    if rest[:1] == [] or rest[0] not in _TREE_WRITERS:
        return {}
    words = rest[1:]
    paths: list[str] = []
    if "--" in words:
        at = words.index("--")
        words, paths = words[:at], words[at + 1:]
    valued = {i + 1 for i, w in enumerate(words) if w in ("-s", "--source")}
    named = [w for i, w in enumerate(words) if not w.startswith("-") and i not in valued]
    given = [words[i] for i in sorted(valued) if i < len(words)] + [
        w for w in words if w.startswith("--source=")]  # restore's commit
    if not _strangers(named + given, facts):
        return {}
    if not paths and rest[0] in ("checkout", "restore"):
        # `git checkout FETCH_HEAD Makefile`: the words after the commit are its paths;
        # restore's commit is its --source, every other word a path
        paths = named[1:] if rest[0] == "checkout" else named
    if paths:
        return {key(p, cmd.cwd, workspace): "download" for p in paths}
    return {f"{REF}FETCH_HEAD": "patched"}
