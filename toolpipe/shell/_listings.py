"""What names a listing prints: ``ls``, ``find``, ``fd``, ``du -a``, ``tree -f``, ``git
ls-files`` and ``git diff --name-only``, through the programs that only pick or reorder
its lines; each name as well as the text allows (under the listing's root, ``ROOT/{}``, or
as find's tests leave it). ``_items`` hands them to what runs on each; ``_expand`` and
``_hooks`` to the substitutions, loops and arrays that read them.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from toolpipe.shell._options import short_flags
from toolpipe.shell._words import UNKNOWN, Word, dot_parent, glob_part, literal

if TYPE_CHECKING:
    from toolpipe.shell._model import Command


def lister(feed: Sequence[object]) -> Command | None:
    """The listing whose lines a pipeline (``feed``: one pipeline's commands, in order) ends by
    printing: its last command, or the one before programs that only pick some of its lines
    or reorder them (``ls -d build/* | sort | head -3``: head, tail, sort, uniq, tac, shuf,
    a grep of standard input that prints whole lines), or ``du``'s before ``cut -f2`` (its
    names, after their sizes); None for anything else (``listed_root`` says whether it
    is a listing)."""
    from toolpipe.shell._model import Command  # (at run time: a cycle)

    cmds = [c for c in feed if isinstance(c, Command)]
    while cmds and _selects_lines(cmds[-1]):
        cmds.pop()
    if len(cmds) >= 2 and cmds[-1].name == "cut" and cmds[-2].name == "du" and [
            a.text for a in cmds[-1].args] in (["-f2"], ["-f", "2"], ["-f2-"], ["--fields=2"]):
        cmds.pop()  # (du's line: its size, a tab, its name)
    return cmds[-1] if cmds else None


def listed_item(cmd: Command | None) -> Word | None:
    """Each name a listing prints (``cmd``, see ``listed_root``): a name under its root,
    or under find's root as its name test leaves it (``find . -name '*.tmp'``:
    ``./{}.tmp``); None for a command that is no listing."""
    if cmd is not None and cmd.name == "find":  # a test that rules the root out
        _, item, _ = find_item(cmd.args)
        if item.known:
            return Word(item.text, "<names from find>", tame=True)
    base = listed_root(cmd)
    if base is None or cmd is None:
        return None
    return Word(base + UNKNOWN, f"<names from {cmd.name}>", tame=True)


# programs that print some of their input's lines, whole, or all of them in another order:
# the options of each that take a value (no operand is allowed: a file would be read
# instead of the input), and the options that make it print something else (a line's
# part: `find /tmp/x | head -c 1` prints `/`)
_SELECTORS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "head": (frozenset({"-n", "--lines"}), frozenset({"-c", "--bytes"})),
    "tail": (frozenset({"-n", "--lines", "-s", "--sleep-interval", "--pid"}),
             frozenset({"-c", "--bytes"})),
    "sort": (frozenset({"-k", "--key", "-t", "--field-separator", "-S", "--buffer-size",
                        "-T", "--temporary-directory", "--parallel", "--batch-size"}),
             frozenset({"--compress-program", "--files0-from"})),
    "uniq": (frozenset({"-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars"}),
             frozenset({"-c", "--count"})),
    "tac": (frozenset(), frozenset({"-s", "--separator", "-r", "--regex"})),
    "shuf": (frozenset({"-n", "--head-count", "--random-source"}),
             frozenset({"-e", "--echo", "-i", "--input-range"})),
    "grep": (frozenset({"-e", "--regexp", "-f", "--file", "-m", "--max-count", "-A", "-B",
                        "-C", "--after-context", "--before-context", "--context"}),
             frozenset({"-o", "--only-matching", "-r", "-R", "--recursive",
                        "--dereference-recursive", "--label"})),
}
_SELECTORS["egrep"] = _SELECTORS["fgrep"] = _SELECTORS["grep"]


def _selects_lines(cmd: Command) -> bool:
    """Does ``cmd`` print only lines of its input, whole (see ``_SELECTORS``)?"""
    row = _SELECTORS.get(cmd.name)
    if row is None or cmd.redirects or not all(a.known for a in cmd.args):
        return False
    valued, other = row
    texts = [a.text for a in cmd.args]
    operands = []
    skip = False
    for i, t in enumerate(texts):
        if skip:
            skip = False
        elif t.split("=", 1)[0] in other or (t.startswith("-") and not t.startswith("--")
                                               and any(f"-{c}" in other for c in t[1:])):
            return False
        elif t in valued:
            skip = True
        elif t == "-" or not t.startswith("-"):
            operands.append(i)
    # (grep's first operand is its pattern, unless -e or -f gave one)
    if cmd.name.endswith("grep") and not any(t in ("-e", "--regexp", "-f", "--file") or
                                             t.startswith(("--regexp=", "--file="))
                                             for t in texts):
        operands = operands[1:]
    return not operands


# git ls-files' options that take the next word as their value
_LS_FILES_VALUED = frozenset({"-x", "--exclude", "-X", "--exclude-from", "--with-tree",
                              "--format", "--exclude-per-directory", "--abbrev"})


def listed_root(cmd: object) -> str | None:
    """``ROOT/``: the folder under which every name a listing prints lies (``find ROOT``,
    ``ls ROOT``, ``fd PATTERN ROOT``; ``git ls-files [PATHSPEC]``, whose names are the
    repository's under the pathspec or here); None for another command or a root not
    known. (``ls DIR`` prints names relative to DIR: read as under it, the stricter.)"""
    from toolpipe.shell._model import Command

    if not isinstance(cmd, Command):
        return None
    texts = [a.text for a in cmd.args]
    if cmd.name == "git" and (texts[:1] == ["ls-files"] or (
            texts[:1] == ["diff"] and "--name-only" in texts)):
        if any(t.startswith(_GIT_PRINTS_MORE) for t in texts):
            return None  # (a name's line given a prefix, a diff of two places anywhere)
        if texts[0] == "diff":  # (names relative to the top, no `..`: pathspecs after --)
            operands = list(cmd.args[texts.index("--") + 1:]) if "--" in texts else []
        else:
            operands = [a for i, a in enumerate(cmd.args[1:], 1) if not a.text.startswith(
                "-") and texts[i - 1] not in _LS_FILES_VALUED]
        if not all(a.known for a in operands) or len(operands) > 1:
            return None
        root = operands[0].text if operands else "."
    elif cmd.name in ("du", "tree"):  # du -a ROOT (its sizes are names here, a number's
        # harmless), tree -f ROOT (each name with its path; its report's words too)
        flags = short_flags(texts)
        valued = _TREE_VALUED if cmd.name == "tree" else _DU_VALUED
        operands = [a for i, a in enumerate(cmd.args) if not a.text.startswith("-") and (
            i == 0 or texts[i - 1] not in valued)]
        if (cmd.name == "tree" and "f" not in flags) or len(operands) > 1 or (
                operands and not operands[0].known) or any(t.startswith(
                    ("--files0-from", "--fromfile")) or t == "-0" for t in texts):
            return None
        root = operands[0].text if operands else "."
    elif cmd.name == "find":  # (after its -H, -L, -P, -O and -D options, its roots)
        at = 0
        while at < len(texts) and (texts[at] in ("-H", "-L", "-P") or texts[at].startswith(
                "-O")):
            at += 1
        if at < len(texts) and texts[at] == "-D":
            at += 2
        roots = find_roots(cmd.args[at:])
        if len(roots) > 1 or (roots and not roots[0].known):
            return None
        root = roots[0].text if roots else "."
    elif cmd.name in ("ls", "fd", "fdfind"):
        valued = _FD_VALUED if cmd.name != "ls" else _LS_VALUED
        operands = [a for i, a in enumerate(cmd.args) if not a.text.startswith("-") and (
            i == 0 or texts[i - 1] not in valued)]
        if cmd.name != "ls":  # (fd's first operand is its pattern; --search-path a root)
            operands = operands[1:] + [cmd.args[i + 1] for i, t in enumerate(texts[:-1])
                                       if t == "--search-path"]
        if len(operands) > 1 or (operands and not operands[0].known):
            return None
        short = short_flags(texts)
        if cmd.name == "ls" and "d" not in short and ("--all" in texts or _ALL & short):
            return "../"  # (`ls -a DIR` prints `..` too, bare: the folder above this one)
        root = operands[0].text if operands else "."
    elif cmd.name in ("grep", "egrep", "fgrep", "rg") and _names_only(texts):
        # `grep -rl PATTERN DIR`, `rg -l PATTERN DIR`, `rg --files DIR`: names under DIR
        operands = [a for i, a in enumerate(cmd.args) if not a.text.startswith("-") and (
            i == 0 or texts[i - 1] not in _SEARCH_VALUED)]
        if not {"-e", "-f", "--regexp", "--file", "--files"} & {*texts}:
            operands = operands[1:]  # (the first is the pattern)
        recursive = cmd.name == "rg" or any(t in ("--recursive", "--dereference-recursive") or (
            t[:1] == "-" and t[1:2] != "-" and {*"rR"} & {*t}) for t in texts)
        if len(operands) > 1 or (operands and not operands[0].known) or not (
                operands or recursive):
            return None
        root = operands[0].text if operands else "."
    else:
        return None
    root = _glob_root(root) if any(a.glob and a.text == root for a in cmd.args) else root
    return root if root.endswith("/") else root + "/"


def _names_only(texts: list[str]) -> bool:
    """Does a search print only the names of the files it searched (``-l``, ``-L``,
    ``rg --files``), one a line, and nothing else (no count, no JSON)?"""
    short = short_flags(texts)
    return bool({"--files-with-matches", "--files-without-match", "--files"} & {*texts} or (
        {*"lL"} & short)) and not ({"--count", "--json", "--count-matches"} & {*texts} or (
            "c" in short))


# grep's and rg's options that take a value (rg's --pre runs a program: read elsewhere)
_SEARCH_VALUED = frozenset({"-e", "-f", "-m", "-A", "-B", "-C", "-d", "-D", "-g", "-t", "-T",
                            "-j", "-M", "-E", "--regexp", "--file", "--max-count", "--glob",
                            "--iglob", "--type", "--type-not", "--max-depth", "--threads",
                            "--encoding", "--sort", "--sortr", "--pre", "--pre-glob",
                            "--ignore-file", "--context", "--after-context",
                            "--before-context", "--devices", "--directories", "--label"})


def _glob_root(pattern: str) -> str:
    """The folder that holds every place a pattern given to a listing may match: the one
    its first pattern part is in (`ls -d build*`: here, the workspace), or that folder's
    parent when the part may match `..` (`ls -d .*`, `build/.*`: ``dot_parent``)."""
    parent = dot_parent(pattern)
    if parent is not None:
        return parent.split(UNKNOWN, 1)[0].rstrip("/") + "/"
    span = glob_part(pattern)
    return pattern[:span[0] if span else len(pattern)] or "./"


# git's options that print a name with more than its path, or names of any two places
_GIT_PRINTS_MORE = ("--format", "--line-prefix", "--no-index", "--src-prefix", "--dst-prefix",
                    "--output-indicator")
_DU_VALUED = frozenset({"-B", "--block-size", "-d", "--max-depth", "-t", "--threshold",
                        "-X", "--exclude-from", "--exclude", "--time-style"})
_TREE_VALUED = frozenset({"-L", "-P", "-I", "-o", "-H", "-T", "--charset", "--filelimit",
                          "--timefmt", "--sort", "--hintro", "--houtro"})
_ALL = frozenset("af")  # ls's options that show `.` and `..` (-f: unsorted, all)
_LS_VALUED = frozenset({"-I", "--ignore", "--hide", "-w", "--width", "-T", "--tabsize",
                        "--format", "--sort", "--time", "--time-style", "--block-size"})


_FIND_NAMES = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
                         "-regex", "-iregex", "-lname", "-ilname"})


def _matches_root(test: str, pattern: str, root: str) -> bool:
    """Could ``find``'s own root pass this name test (it is tested like any entry)?"""
    if test in ("-regex", "-iregex"):
        return True  # another regex dialect: assume it may
    subject = root if test.endswith(("path", "wholename")) else (
        posixpath.basename(root.rstrip("/")) or "/")
    if test.startswith("-i"):
        subject, pattern = subject.lower(), pattern.lower()
    return fnmatch.fnmatchcase(subject, pattern)


_EXTENSION = re.compile(r"\*\.[A-Za-z0-9]{1,12}")


def find_roots(args: Sequence[Word]) -> list[Word]:
    """``find``'s starting points: its words before the first test, option or bracket."""
    roots: list[Word] = []
    for a in args:
        if a.text.startswith(("-", "(", "!")):
            break
        roots.append(a)
    return roots


def find_item(args: Sequence[Word]) -> tuple[list[Word], Word, Word]:
    """``find``'s roots, what ``{}`` stands for, and the text put in place of ``{}`` inside
    a code string.

    Without a test that rules the root out, ``{}`` may be the root itself (``find / -exec
    rm -rf {} +`` removes ``/``). A name test the root fails (``-name '*.pyc'``), ``-type
    f`` or ``-mindepth 1`` leaves only entries under it: ``{}`` is ``ROOT/{}``, or
    ``ROOT/NAME`` for a literal ``-name NAME``.
    """
    roots = find_roots(args)
    root_word = roots[0] if roots else literal(".")
    root = root_word.text if root_word.known else UNKNOWN
    texts = [a.text for a in args]
    below, narrowed, name = False, False, None
    for i, t in enumerate(texts[:-1]):
        value = texts[i + 1]
        if t in _FIND_NAMES and UNKNOWN not in value and UNKNOWN not in root:
            if not _matches_root(t, value, root):
                below = narrowed = True
                if t in ("-name", "-iname") and not any(c in value for c in "*?[\\"):
                    name = value
                elif t in ("-name", "-iname") and _EXTENSION.fullmatch(value):
                    name = "{}" + value[1:]  # -name '*.pem': names that end .pem
        elif (t == "-type" and value in ("f", "l", "s", "p")) or (
                t == "-mindepth" and value.isdigit() and int(value) >= 1):
            below = True
    if len(roots) > 1:
        below, name = False, None  # several roots: keep it simple, any of them
    base = root.rstrip("/") + "/" if root != "/" else "/"
    if below:  # (with no name test, every entry of this folder: any name here)
        item = Word(base + UNKNOWN, "{}", tame=True) if _every_entry_here(
            root, narrowed) else Word(base + (name or "{}"), "{}", tame=True)
        return roots, item, item
    item = Word(base + UNKNOWN, "{}", tame=UNKNOWN not in root)
    return roots, item, Word(root, root_word.raw, tame=root_word.tame)


def _every_entry_here(root: str, narrowed: bool) -> bool:
    return not narrowed and posixpath.normpath(root) == "."


_FD_VALUED = frozenset({"-t", "--type", "-e", "--extension", "-d", "--max-depth",
                        "--min-depth", "--exact-depth", "-E", "--exclude", "-S", "--size",
                        "--changed-within", "--changed-before", "-o", "--owner", "-j",
                        "--threads", "--max-results", "--base-directory", "--search-path",
                        "--ignore-file", "-c", "--color", "--format", "--batch-size"})
