"""A command's words split as most programs' option parsers split them (getopt's way):
the shared reading of the effect handlers and of the wrappers a table row does not
describe (``start-stop-daemon``)."""

from __future__ import annotations

from collections.abc import Sequence

from toolpipe.shell._words import Word


def split(args: Sequence[Word], valued: str = "", long_valued: Sequence[str] = ()
           ) -> tuple[set[str], dict[str, Word], list[Word]]:
    """Options (short letters, clustered or not, and long names), the values of those in
    ``valued`` (a letter's attached or the next word; a long name's after `=` or the next
    word), and the operands (every word after ``--`` among them)."""
    flags: set[str] = set()
    values: dict[str, Word] = {}
    operands: list[Word] = []
    i = 0
    while i < len(args):
        a = args[i]
        t = a.text
        if t == "--":
            operands += args[i + 1:]
            break
        if t.startswith("--") and len(t) > 2:
            name, eq, value = t.partition("=")
            flags.add(name)
            if name in long_valued:
                if eq:
                    values[name] = Word(value, a.raw, a.glob, a.tame, a.sources)
                elif i + 1 < len(args):
                    i += 1
                    values[name] = args[i]
        elif t.startswith("-") and len(t) > 1 and t != "-":
            for j, c in enumerate(t[1:]):
                flags.add(c)
                if c in valued:
                    rest = t[j + 2:]
                    if rest:
                        values[c] = Word(rest, a.raw, False, a.tame, a.sources)
                    elif i + 1 < len(args):
                        i += 1
                        values[c] = args[i]
                    break
        else:
            operands.append(a)
        i += 1
    return flags, values, operands


def short_flags(texts: Sequence[str]) -> frozenset[str]:
    """The one-character flags a command's words give, clustered or not (`-la` is `l` and
    `a`, `-1a` is `1` and `a`; a value glued to its letter, `-w80`, gives its digits too,
    harmless); a word with other characters is no flags (`-g*.lua`, `-o/tmp/x`)."""
    return frozenset(c for t in texts if t[:1] == "-" and t[1:2] != "-" and t[1:].isalnum()
                     for c in t[1:])
