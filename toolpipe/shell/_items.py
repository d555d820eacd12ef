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

from toolpipe.shell._words import UNKNOWN, Word, literal, unknown


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
        return tuple(literal(a.text) for a in feed[0].args[1:])
    text = _echoed(feed[-1:]) if len(feed) == 1 else None
    return tuple(literal(t) for t in text.split()) if text else ()


_ONE_PER_ITEM = re.compile(r"%s(?:\\[0nt]| )?")  # printf's format of one word and its end


def _items(upstream: Sequence[object]) -> Word:
    """What ``xargs`` appends: names under the roots of a ``find``/``ls`` upstream, else
    something unknown."""
    from toolpipe.shell._model import Command

    for cmd in reversed(upstream):
        if not isinstance(cmd, Command):
            continue
        if cmd.name == "find":  # a test that rules the root out: names under it
            _, item, _ = find_item(cmd.args)
            if item.known:
                return Word(item.text, "<names from find>", tame=True)
        base = listed_root(cmd)
        if base is not None:
            return Word(base + UNKNOWN, f"<names from {cmd.name}>", tame=True)
        break
    names = tuple(c.name for c in upstream if isinstance(c, Command) and c.name)
    return Word(UNKNOWN, "<names read by xargs>", tame=False, sources=names)


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
    if cmd.name == "git" and texts[:1] == ["ls-files"]:
        operands = [a for i, a in enumerate(cmd.args[1:], 1) if not a.text.startswith("-")
                    and texts[i - 1] not in _LS_FILES_VALUED]
        if not all(a.known for a in operands) or len(operands) > 1:
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
    return root if root.endswith("/") else root + "/"


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
