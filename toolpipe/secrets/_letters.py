"""Is a run of letters a name (``getSecretFromVault``, ``HTTPClient``) or random letters
(``QFICiwnxJsHpda``, ``MIIEowIBAAKCAQEA``)? Names stand where values could (a config line's
value, a table's cell) and are no secrets; random letters there are."""

from __future__ import annotations

import re

_VOWELS = frozenset(b"aeiouy")
DIGIT = re.compile(rb"[0-9]")  # (any digit: one C search, also _values' token_shaped)
_WORD = re.compile(rb"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|_+")
# The 250 pairs of letters most common inside the words of names (counted over the words of
# Python's standard library, split at their capitals: 96.5% of all pairs). Random letters
# meet one of them less than half the time; names, nearly always.
_COMMON_PAIRS = frozenset(p.encode() for p in (
    "ab ac ad ag ai ak al am an ap ar as at au av ax ay ba be bi bj bl bo br bs bu by ca "
    "ce ch ci ck cl co cr ct cu da dd de di dl do dr ds du ea ec ed ee ef eg el em en eo "
    "ep eq er es et ev ew ex ey fa fe ff fi fl fo fr fs ft fu ge gi gl gn gr gs gu ha he "
    "hi ho hr ht ia ib ic id ie if ig il im in io ip ir is it iv ix iz je ke ki ks la ld "
    "le lf li ll lo ls lt lu ly ma mb me mi mm mo mp ms mu na nc nd ne nf ng ni nk nl nn "
    "no np ns nt nu nv oa ob oc od of og oi ok ol om on oo op or os ot ou ov ow pa pe pi "
    "pl po pp pr pt pu py qu ra rc rd re rg ri rk rm rn ro rr rs rt ru ry sa sc se sh si "
    "sl so sp ss st su sy ta tc td te tf th ti tl tm to tp tr ts tt tu tw ty ub uc ue uf "
    "ui ul um un up ur us ut va ve vi wa we wh wi wo wr xc xi xp xt yp ys yt ze zi "
).split())


def _random_letters(words: list[bytes]) -> bool:
    """Letters that make no words: at least 40% of the pairs inside the pieces are pairs
    names seldom hold (QFICiwnxJsHpda: qf, iw, nx, js, hp, pd…), over at least 8 pairs (a
    short run of letters may be a word of some language, or a code)."""
    pairs = [w[i:i + 2].lower() for w in words for i in range(len(w) - 1)]
    rare = sum(p not in _COMMON_PAIRS for p in pairs)
    return len(pairs) >= 8 and rare * 5 >= len(pairs) * 2


def wordy(value: bytes) -> bool:
    """Made of words, as names are (getSecretFromVault, AutoTokenizer, db_password,
    HTTPClient), not of random letters (MIIEowIBAAKCAQEA): no digits, and every piece a
    lower-case or capitalised word, an acronym of at most four letters, or underscores."""
    if DIGIT.search(value) is not None:
        return False
    words = [w for w in _WORD.findall(value) if not w.startswith(b"_")]
    if sum(len(w) <= 2 for w in words[1:]) > 1:
        return False  # ONiYiEBDfBBeWi: too many scraps of one or two letters for words
    if any(len(w) >= 4 and w[:1].isupper() and not w.isupper() and _VOWELS.isdisjoint(
            w.lower()) for w in words):
        return False  # BaqKzspKSwgRDI: "Kzsp" is no word of a name (Str, Ctx are: short)
    return all(len(w) <= 4 or not w.isupper() for w in words) and not _random_letters(words)
