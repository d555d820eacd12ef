"""A secret found once is a secret wherever the text repeats it: a value a rule found by
its context (``password=…``, a table's password column, ``… is the new admin password``)
is redacted too where the same text stands with nothing around it to say so (a test's
assertion that prints it again, a log's message, a URL that carries it, a diff's other
side).

Any value a rule found counts (a provider's shape and the entropy guess would find every
copy of their own anyway), of 8 characters or more and one a password could be (not a
plain word or a name made of words: ``password=postgres`` does not make every
``postgres`` a secret). A copy must stand as a whole word: no letter, digit, ``_`` or
``-`` on either side (``x=VALUE&`` and ``/VALUE/`` are copies, ``xVALUEy`` is another
token).

Each value is looked for with one C search per copy (``bytes.find``), in the text's
order, within budgets that keep any text linear: ``SCAN_BUDGET`` bytes searched in all (so
fewer values are looked for in a longer text: 256 in 64 KB, 16 in 1 MB, 1 in 10 MB) and
``MAX_FINDS`` places found. (One re2 search for an alternation of the values was tried
first: on a text of one value repeated, each search ran on to the text's end, 15 ms a
copy in 80 KB.) Redacting twice changes nothing: the second reading finds no value to
look for, each one found before being a label now."""

from __future__ import annotations

from toolpipe.secrets._rule import CONTEXT, Span
from toolpipe.secrets._values import credential_like, plain_word

MIN_LENGTH = 8
MAX_VALUES = 256  # distinct values looked for again in one text (the first found)
SCAN_BUDGET = 16 << 20  # bytes searched for copies in one text, at most
MAX_FINDS = 256  # places looked at in one text, at most (copies, or the value itself)
_TOKEN = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def copies(buf: bytes, found: list[Span]) -> list[Span]:
    """The other places each value of ``found`` (spans into ``buf``) stands, as spans."""
    size = len(buf)
    limit = max(1, min(MAX_VALUES, SCAN_BUDGET // max(size, 1)))
    kinds: dict[bytes, str] = {}
    seen: set[bytes] = set()
    for lo, hi, kind, _ in found[:4 * limit + 64]:  # (in the text's order, up to a limit)
        if len(kinds) >= limit:
            break
        value = buf[lo:hi]
        if hi - lo < MIN_LENGTH or kind == "dense" or value in seen:
            continue
        seen.add(value)
        if b"\n" not in value and b"[REDACTED:" not in value and not plain_word(value) and (
                credential_like(value)):
            kinds[value] = kind
    taken = {(lo, hi) for lo, hi, _, _ in found} if kinds else set()
    out: list[Span] = []
    left = MAX_FINDS
    for value, kind in kinds.items():
        pos = 0
        while left > 0:
            left -= 1
            lo = buf.find(value, pos)
            if lo < 0:
                break
            hi = pos = lo + len(value)
            if (lo, hi) in taken or (lo and buf[lo - 1] in _TOKEN) or (
                    hi < size and buf[hi] in _TOKEN):
                continue
            out.append((lo, hi, kind, CONTEXT))
    return out
