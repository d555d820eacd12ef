"""What runs on each item of a list: ``find -exec``, ``xargs``, ``parallel``, ``fd -x``.

The items are named as well as the text allows: what a plain ``echo`` feeds, the entries
under a ``find`` or ``ls`` root (``ROOT/{}``), else something unknown (which the rules count
as outside the workspace). ``peel`` (``_wrappers``) builds the commands these run.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from toolpipe.shell._listings import _FD_VALUED, find_item, find_roots, listed_item, lister
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


def execdir_folder(args: Sequence[Word]) -> Word | None:
    """Where ``-execdir`` and ``-okdir`` run their command: in each entry's own folder,
    which is under find's root (`find ~ -execdir rm -rf .ssh \\;` deletes the home's);
    several roots that differ: not known. None without them (``-exec``: from here)."""
    if not any(a.text in ("-execdir", "-okdir") for a in args):
        return None
    roots = find_roots(args) or [literal(".")]
    return roots[0] if all(r.text == roots[0].text for r in roots) else unknown("find")


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
