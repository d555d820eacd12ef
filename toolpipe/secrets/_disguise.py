"""Credential words in disguise: a zero-width character inside them (``pass\u200bword``),
a letter of another script that looks like a Latin one (``pаssword``, its ``а``
Cyrillic), or a terminal's escapes between a key and its value (colours: ``\x1b[1m
password\x1b[0m: …``; a link: ``\x1b]8;;…\x1b\\``), as a program's coloured output has.
Such a line is judged again as it reads plain (the zero-width characters and escapes
dropped, each look-alike letter read as the Latin one), and what is found there is
redacted where it stands, as ``redact`` does for a line of escapes. Ordinary text in
Cyrillic or Greek is not read so: only a word that mixes a look-alike with Latin letters,
which no language writes."""

from __future__ import annotations

import re
from collections.abc import Iterator

_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"
# Cyrillic's and Greek's letters that look like Latin ones, and those Latin ones
_LOOKALIKE = ("аеорсухіјѕԁһԛԝАВЕКМНОРСТХУІЈЅαορικνυτΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
              "aeopcyxijsdhqwABEKMHOPCTXYIJSaopikvutABEZHIKMNOPTYX")
_LATIN = str.maketrans(*_LOOKALIKE)
_ODD = re.compile(f"[{_INVISIBLE}{_LOOKALIKE[0]}\x1b]")  # where to look (C's speed)
# a terminal's control sequence (CSI: colours, cursor) or operating system command (OSC)
_ESCAPE = r"\x1b\[[0-9;:?<=>]{0,32}[ -/]{0,4}[@-~]|\x1b\][^\x07\x1b\n]{0,512}(?:\x07|\x1b\\)?"
# an invisible character, or a look-alike beside a Latin letter in one word (a word that
# mixes the scripts has such a pair wherever they meet)
_PAIR = re.compile(f"[{_INVISIBLE}]|[A-Za-z][{_LOOKALIKE[0]}]|[{_LOOKALIKE[0]}][A-Za-z]"
                   r"|\x1b[\[\]]")


def _marks(text: str) -> Iterator[int]:
    """A place in each line that has an invisible character or a mixed word: each line
    with a look-alike letter is looked at once (a Russian or Greek text, its words all of
    their own script, costs a regex pass per line, not a step per letter)."""
    at = 0
    while True:
        odd = _ODD.search(text, at)
        if odd is None:
            return
        lo = text.rfind("\n", 0, odd.start()) + 1
        hi = text.find("\n", odd.start())
        hi = len(text) if hi < 0 else hi
        pair = _PAIR.search(text, lo, hi)
        if pair is not None:
            yield pair.start()
        at = hi + 1


def odd(text: str) -> bool:
    """Does a line of ``text`` hold a word in disguise (an invisible character, a word that
    mixes a look-alike letter with Latin ones, a terminal's escape: what ``disguises``
    marks; a word all in another script is not one)?"""
    return _ODD.search(text) is not None and next(_marks(text), None) is not None


def disguises(text: str) -> list[int]:
    """A place in each line with a word in disguise (``redact``'s escape machinery reads
    the line it is in)."""
    return list(_marks(text))


_INVISIBLES = re.compile(f"[{_INVISIBLE}]|{_ESCAPE}")


def undisguised(line: str, limit: int) -> tuple[str, list[int], int] | None:
    """The line as it reads plain, where in the line each of its characters came from,
    and what reading it cost (its invisible and look-alike characters: ``redact`` budgets
    them as escapes); None past ``limit``."""
    cost = len(_ODD.findall(line))
    if cost > limit:
        return None
    origin: list[int] = []
    at = 0
    for m in _INVISIBLES.finditer(line):
        origin.extend(range(at, m.start()))
        at = m.end()
    origin.extend(range(at, len(line)))
    return _INVISIBLES.sub("", line).translate(_LATIN), origin, cost
