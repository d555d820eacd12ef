"""The bytes a trigger's shape can start with, so that the automaton's reading asks re2
only where one stands after the literal (each anchored re2 call costs about 1.5 µs from
Python: `path` in a 2 KB text of words made 48 of them, 85 µs, for no start).

A superset, read from the shape's parse by Python's own regex parser: a literal, a class,
the first of a sequence (and the next while what comes before may be empty), every
branch's, a repeat's; anything the reading does not know (a look-around, a back
reference, a syntax only re2 has) gives None, as a shape that may match nothing does: no
filter. Classes are re2's on bytes: ``\\w`` is ``[0-9A-Za-z_]``, ``\\s`` ``[\\t\\n\\f\\r
]``, ``(?i)`` folds ASCII letters only (measured: ``(?i:é)`` does not match ``É``)."""

from __future__ import annotations

import re
import re._constants as C  # type: ignore[import-not-found]  # (no stub: private since 3.11)
import re._parser as P  # type: ignore[import-not-found]
from typing import Any

_ALL = frozenset(range(256))
_DIGIT = frozenset(range(48, 58))
_WORD = _DIGIT | frozenset(range(65, 91)) | frozenset(range(97, 123)) | {95}
_SPACE = frozenset({9, 10, 12, 13, 32})
_CATEGORIES = {C.CATEGORY_DIGIT: _DIGIT, C.CATEGORY_NOT_DIGIT: _ALL - _DIGIT,
               C.CATEGORY_WORD: _WORD, C.CATEGORY_NOT_WORD: _ALL - _WORD,
               C.CATEGORY_SPACE: _SPACE | {11}, C.CATEGORY_NOT_SPACE: _ALL - _SPACE}
_EXACT = {C.CATEGORY_DIGIT: _DIGIT, C.CATEGORY_WORD: _WORD, C.CATEGORY_SPACE: _SPACE}


class _Unknown(Exception):
    pass


PREFIX = 4  # (how many of a shape's first bytes are looked up)


def first_bytes(shape: bytes) -> tuple[bytes, ...] | None:
    r"""Tables of 256, one for each of the shape's first bytes while its bytes are one a
    place (`[A-Za-z0-9]{14}\.`: four of letters and digits), 1 where that byte may stand;
    at least the first's; or None (see above)."""
    try:
        parsed = P.parse(shape)
        fold = bool(parsed.state.flags & C.SRE_FLAG_IGNORECASE)
        firsts, empty = _sequence(list(parsed), fold)
        places = _places(list(parsed), fold)
    except (_Unknown, re.error, RecursionError, TypeError, ValueError):
        return None
    if empty:
        return None
    return tuple(bytes(1 if b in place else 0 for b in range(256))
                 for place in [firsts, *places[1:PREFIX]])


def _places(items: list[Any], fold: bool) -> list[set[int]]:
    """The byte each of the sequence's first places may hold, while each item takes one
    byte (a literal, a class) or a fixed count of one (`[0-9]{4}`), a varying repeat's
    least count at most (what follows it is not known)."""
    out: list[set[int]] = []
    for op, av in items:
        if len(out) >= PREFIX:
            break
        if op in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN):
            out.append(_item((op, av), fold)[0])
            continue
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT) and len(av[2]) == 1 and (
                av[2][0][0] in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN)):
            out += [_item(av[2][0], fold)[0]] * min(av[0], PREFIX - len(out))
            if av[0] != av[1]:
                break
            continue
        break
    return out


def _folded(values: set[int], fold: bool) -> set[int]:
    if fold:
        values |= {v ^ 0x20 for v in values if 65 <= v <= 90 or 97 <= v <= 122}
    return values


def _sequence(items: list[Any], fold: bool) -> tuple[set[int], bool]:
    out: set[int] = set()
    for item in items:
        firsts, empty = _item(item, fold)
        out |= firsts
        if not empty:
            return out, False
    return out, True


def _item(item: Any, fold: bool) -> tuple[set[int], bool]:
    op, av = item
    if op is C.LITERAL:
        return _folded({av}, fold), False
    if op is C.NOT_LITERAL:
        return set(_ALL - _folded({av}, fold)), False
    if op is C.ANY:
        return set(_ALL), False
    if op is C.IN:
        return _class(av, fold), False
    if op is C.SUBPATTERN:
        _group, add, remove, pattern = av
        inner = (fold or bool(add & C.SRE_FLAG_IGNORECASE)) and not (
            remove & C.SRE_FLAG_IGNORECASE)
        return _sequence(list(pattern), inner)
    if op is C.BRANCH:
        out: set[int] = set()
        empty = False
        for alternative in av[1]:
            firsts, nothing = _sequence(list(alternative), fold)
            out |= firsts
            empty = empty or nothing
        return out, empty
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        least, _most, pattern = av
        firsts, empty = _sequence(list(pattern), fold)
        return firsts, empty or least == 0
    if op is C.AT:  # (an anchor or a boundary: it takes no byte)
        return set(), True
    raise _Unknown(op)


def _class(items: list[Any], fold: bool) -> set[int]:
    negated = bool(items) and items[0][0] is C.NEGATE
    out: set[int] = set()
    for op, av in items[1:] if negated else items:
        if op is C.LITERAL:
            out |= _folded({av}, fold)
        elif op is C.RANGE:
            out |= _folded(set(range(av[0], av[1] + 1)), fold)
        elif op is C.CATEGORY and not negated:
            out |= _CATEGORIES[av]
        elif op is C.CATEGORY and av in _EXACT:  # ([^\s…]: the exact class, taken away)
            out |= _EXACT[av]
        else:
            raise _Unknown(op)
    return set(_ALL - out) if negated else out
