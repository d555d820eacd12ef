"""Name suggestion, for "did you mean…?": the spec's similarity of two names (longest
common subsequence and common prefix, on lower-cased names) and the best candidate.
Kernel helpers: the engine and the unknown_tool layer both use them."""

from __future__ import annotations

import functools

from rapidfuzz.distance import LCSseq
from rapidfuzz.process import extract, extractOne

DEFAULT_THRESHOLD = 0.4
BOUND = 1.1
"""A score is at most this times lcs/longest (the prefix term adds at most a tenth)."""
CUTOFF_MARGIN = 1e-4
"""rapidfuzz turns a similarity cutoff into a distance bound with some rounding: a
candidate exactly at the bound (``0.2/1.1`` for 2 of 11 characters) was dropped with a
margin of 1e-9. The exact test below still decides; the margin only scores a few more."""


def _prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _score(a: str, b: str, lcs: int) -> float:
    """The formula on lower-cased names ``a``, ``b`` whose LCS length is ``lcs``."""
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    longest = max(len(a), len(b))
    return min(1.0, max(0.0, lcs / longest + 0.1 * _prefix(a, b) / longest))


def similarity(a: str, b: str) -> float:
    """``lcs/max_len + 0.1·prefix/max_len`` on lower-cased names, clamped to [0, 1]."""
    a, b = a.lower(), b.lower()
    return _score(a, b, LCSseq.similarity(a, b))


@functools.lru_cache(maxsize=8)
def _lowered(candidates: tuple[str, ...]) -> list[str]:
    return [c.lower() for c in candidates]


def best_match(name: str, candidates: tuple[str, ...], floor: float = 0.0
               ) -> tuple[str, float] | None:
    """The most similar candidate; ties go to the alphabetically first name. With a
    ``floor``, candidates that cannot reach it are not scored (None if none does)."""
    if not candidates:
        return None
    query = name.lower()
    lowered = _lowered(candidates)
    # The score is lcs/longest plus 0.1·prefix/longest, and the common prefix is a common
    # subsequence: a score lies between lcs/longest and 1.1 times it. Two C passes: the
    # best lcs/longest (``top``), then every candidate whose lcs/longest could still beat
    # ``top``'s score (at least top/1.1), best first; the formula runs only on those, and
    # only while a candidate could still win.
    floor_cut = max(0.0, floor / BOUND - CUTOFF_MARGIN) if floor > 0 else None
    top = extractOne(query, lowered, scorer=LCSseq.normalized_similarity, processor=None,
                     score_cutoff=floor_cut)
    if top is None:
        return None
    hits = extract(query, lowered, scorer=LCSseq.normalized_similarity, limit=None,
                   processor=None,
                   score_cutoff=max(0.0, max(floor, top[1]) / BOUND - CUTOFF_MARGIN))
    best: tuple[float, str] | None = None
    for _, normalised, index in hits:
        if BOUND * normalised < max(floor, best[0] if best else 0.0) - 1e-9:
            break
        cand = candidates[index]
        score = _score(query, lowered[index], LCSseq.similarity(query, lowered[index]))
        if best is None or score > best[0] or (score == best[0] and cand < best[1]):
            best = (score, cand)
    if best is None:
        return None
    return best[1], best[0]


def closest(name: str, candidates: tuple[str, ...],
            threshold: float = DEFAULT_THRESHOLD) -> str | None:
    """The best match when its similarity reaches ``threshold`` (inclusive), else None."""
    match = best_match(name, candidates, threshold)
    if match is None or match[1] < threshold:
        return None
    return match[0]


def did_you_mean(name: str, candidates: tuple[str, ...],
                 threshold: float = DEFAULT_THRESHOLD) -> str:
    """``. Did you mean '{best}'?`` when a candidate is close enough, else ``""``."""
    best = closest(name, candidates, threshold)
    return "" if best is None else f". Did you mean '{best}'?"
