"""What runs on each item of a list: ``find -exec``, ``xargs``, ``parallel``, ``fd -x``.

The items are named as well as the text allows: what a plain ``echo`` feeds, the entries
under a ``find`` or ``ls`` root (``ROOT/{}``), else something unknown (which the rules count
as outside the workspace). ``peel`` (``_wrappers``) builds the commands these run.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from toolpipe.shell._words import UNKNOWN, Word, dot_parent, glob_part, literal, unknown

if TYPE_CHECKING:
    from toolpipe.shell._model import Command


def _echoed_items(upstream: Sequence[object]) -> tuple[Word, ...]:
    """``echo a b | xargs rm``: the items, when a plain echo or printf is all that feeds
    xargs (else none)."""
    from toolpipe.shell._model import Command
    from toolpipe.shell._printed import _echoed

    feed = [c for c in upstream if isinstance(c, Command)]
    if len(feed) == 1 and feed[0].name == "printf" and not feed[0].redirects and len(
            feed[0].args) > 1 and _ONE_PER_ITEM.fullmatch(feed[0].args[0].text) and all(
            a.known for a in feed[0].args):
        # `printf '%s\0' build dist | xargs -0 rm -rf`: the format again for each word
        return tuple(feed[0].args[1:])
    if len(feed) == 1 and feed[0].name == "echo" and not feed[0].redirects and any(
            a.glob for a in feed[0].args) and all(
            a.known and not a.text.startswith("-") for a in feed[0].args):
        return tuple(feed[0].args)  # `echo .* | xargs rm -rf`: the places each pattern names
    if len(feed) == 1 and feed[0].name == "stat" and not feed[0].redirects and [
            a.text for a in feed[0].args[:2]] in _NAME_ONLY and len(feed[0].args) > 2:
        # `stat -c %n build/* | xargs rm -rf`: the names it is given, one a line
        return tuple(feed[0].args[2:])
    text = _echoed(feed[-1:]) if len(feed) == 1 else None
    return tuple(literal(t) for t in text.split()) if text else ()


_NAME_ONLY = (["-c", "%n"], ["--format", "%n"], ["--printf", "%n\\n"])  # stat's format
_ONE_PER_ITEM = re.compile(r"%s(?:\\[0nt]| )?")  # printf's format of one word and its end


def _items(upstream: Sequence[object]) -> Word:
    """What ``xargs`` appends: names under the roots of a ``find``/``ls`` upstream, else
    something unknown."""
    from toolpipe.shell._model import Command

    item = listed_item(lister(upstream))
    if item is not None:
        return item
    names = tuple(c.name for c in upstream if isinstance(c, Command) and c.name)
    return Word(UNKNOWN, "<names read by xargs>", tame=False, sources=names)


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
        flags = "".join(t[1:] for t in texts if t.startswith("-") and not t.startswith("--"))
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
        root = operands[0].text if operands else "."
    else:
        return None
    root = _glob_root(root) if any(a.glob and a.text == root for a in cmd.args) else root
    return root if root.endswith("/") else root + "/"


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


def execdir_folder(args: Sequence[Word]) -> Word | None:
    """Where ``-execdir`` and ``-okdir`` run their command: in each entry's own folder,
    which is under find's root (`find ~ -execdir rm -rf .ssh \\;` deletes the home's);
    several roots that differ: not known. None without them (``-exec``: from here)."""
    if not any(a.text in ("-execdir", "-okdir") for a in args):
        return None
    roots = find_roots(args) or [literal(".")]
    return roots[0] if all(r.text == roots[0].text for r in roots) else unknown("find")


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
    below, name = False, None
    for i, t in enumerate(texts[:-1]):
        value = texts[i + 1]
        if t in _FIND_NAMES and UNKNOWN not in value and UNKNOWN not in root:
            if not _matches_root(t, value, root):
                below = True
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
    if below:
        text = base + (name or "{}")
        item = Word(text, "{}", tame=True)
        return roots, item, item
    item = Word(base + UNKNOWN, "{}", tame=UNKNOWN not in root)
    return roots, item, Word(root, root_word.raw, tame=root_word.tame)


def _find_exec(args: Sequence[Word]) -> tuple[tuple[str, tuple[Word, ...]], ...]:
    _, item, in_code = find_item(args)
    subs: list[tuple[str, tuple[Word, ...]]] = []
    i = 0
    while i < len(args):
        if args[i].text in ("-exec", "-execdir", "-ok", "-okdir"):
            label = "find " + args[i].text
            j = i + 1
            inner: list[Word] = []
            while j < len(args) and args[j].text not in (";", "+"):
                w = args[j]
                inner.append(item if w.text == "{}" else (
                    Word(w.text.replace("{}", in_code.text), w.raw, w.glob,
                         in_code.tame and w.tame) if "{}" in w.text else w))
                j += 1
            subs.append((label, tuple(inner)))
            i = j
        i += 1
    return tuple(subs)


# parallel's options that take a value (the rest are flags): skipped before its command
_PARALLEL_VALUED = frozenset({"-j", "--jobs", "-S", "--sshlogin", "-P", "--max-procs", "-N",
                              "-n", "--max-args", "--delay", "--timeout", "--results",
                              "--joblog", "-d", "--delimiter", "-a", "--arg-file", "-I",
                              "--replace", "--tag-string", "--retries", "--memfree"})


def _parallel_words(args: Sequence[Word]) -> list[Word]:
    """The words of parallel's command (and what follows): its options skipped."""
    i = 0
    while i < len(args) and args[i].text.startswith("-") and args[i].text != "-":
        i += 2 if args[i].text in _PARALLEL_VALUED else 1
    return list(args[i:])


def _with_items(command: tuple[Word, ...], items: Sequence[Word]) -> tuple[Word, ...]:
    """A command given the items: in place of ``{}``, else after it (xargs' way)."""
    if any(w.text == "{}" for w in command):
        return tuple(items[0] if w.text == "{}" and items else w for w in command)
    return (*command, *items)


def _fd_exec(args: Sequence[Word]) -> tuple[tuple[str, tuple[Word, ...]], ...]:
    """``fd PATTERN PATH -x CMD``: CMD runs on each entry found under PATH (``{}``), or
    on all of them at once (``-X``). An entry may be anything under the path."""
    texts = [a.text for a in args]
    at = next((i for i, t in enumerate(texts) if t in ("-x", "--exec", "-X",
                                                        "--exec-batch")), None)
    if at is None or at + 1 >= len(args):
        return ()
    positional: list[Word] = []
    searched: list[Word] = []  # (--search-path DIR: a root, as a positional path is)
    i = 0
    while i < at:
        t = texts[i]
        if t.startswith("-"):
            if t == "--search-path" and i + 1 < at:
                searched.append(args[i + 1])
            i += 2 if t in _FD_VALUED else 1
            continue
        positional.append(args[i])
        i += 1
    roots = positional[1:] + searched or [literal(".")]
    end = next((i for i in range(at + 1, len(args)) if texts[i] == ";"), len(args))
    command = tuple(args[at + 1:end])
    items = [Word(posixpath.join(r.text, "{}") if r.known else UNKNOWN, r.raw, r.glob,
                  r.tame, r.sources) for r in roots]
    return tuple((f"fd {texts[at]}", _with_items(command, [item])) for item in items)


def fd_folder(args: Sequence[Word]) -> Word | None:
    """fd's ``--base-directory DIR``: where it searches and runs its command from."""
    for i, a in enumerate(args):
        if a.text == "--base-directory" and i + 1 < len(args):
            return args[i + 1]
        if a.text.startswith("--base-directory="):
            return Word(a.text.split("=", 1)[1], a.raw, a.glob, a.tame, a.sources)
    return None


_FD_VALUED = frozenset({"-t", "--type", "-e", "--extension", "-d", "--max-depth",
                        "--min-depth", "--exact-depth", "-E", "--exclude", "-S", "--size",
                        "--changed-within", "--changed-before", "-o", "--owner", "-j",
                        "--threads", "--max-results", "--base-directory", "--search-path",
                        "--ignore-file", "-c", "--color", "--format", "--batch-size"})
