"""Credential words in disguise: a zero-width character inside them (``pass\u200bword``),
or a letter of another script that looks like a Latin one (``pаssword``, its ``а``
Cyrillic). Such a line is judged again as it reads plain (the zero-width characters
dropped, each look-alike letter read as the Latin one), and what is found there is
redacted where it stands, as ``redact`` does for a line of escapes. Ordinary text in
Cyrillic or Greek is not read so: only a word that mixes a look-alike with Latin letters,
which no language writes."""

from __future__ import annotations

import re

_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"
# Cyrillic's and Greek's letters that look like Latin ones, and those Latin ones
_LOOKALIKE = ("аеорсухіјѕԁһԛԝАВЕКМНОРСТХУІЈЅαορικνυτΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
              "aeopcyxijsdhqwABEKMHOPCTXYIJSaopikvutABEZHIKMNOPTYX")
_LATIN = str.maketrans(*_LOOKALIKE)
_MIXED = re.compile(rf"[{_INVISIBLE}]|[A-Za-z][^\W\d_]*[{_LOOKALIKE[0]}]"
                    rf"|[{_LOOKALIKE[0]}][^\W\d_]*[A-Za-z]")


def disguises(text: str) -> list[int]:
    """Where each invisible character or mixed word starts (any in a line will do)."""
    return [m.start() for m in _MIXED.finditer(text)]


def undisguised(line: str, limit: int) -> tuple[str, list[int]] | None:
    """The line as it reads plain, and where in the line each of its characters came
    from; None past ``limit`` invisible characters."""
    out: list[str] = []
    origin: list[int] = []
    for i, c in enumerate(line):
        if c in _INVISIBLE:
            limit -= 1
            if limit < 0:
                return None
            continue
        out.append(c)
        origin.append(i)
    return "".join(out).translate(_LATIN), origin
