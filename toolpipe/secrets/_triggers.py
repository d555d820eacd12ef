"""Where the rules may fire: each trigger (a literal, or a case-sensitive fragment)
followed by its rule's shape, found in time linear in the text.

The literals are found in one pass of an Aho-Corasick automaton (ahocorasick_rs, Apache-2.0) over
the text folded as re2's ``(?i)`` folds it (ASCII's letters), each one's shape by re2
anchored where it ends. One re2 union of every trigger and its shape
(``union``) says what the answer is: the scan starts where it starts, the law of
``tests/test_secrets_union.py``, and it reads the rest of a text that holds more literals
than ``HIT_BUDGET``.
"""

from __future__ import annotations

import functools
import heapq
import re
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import ahocorasick_rs

from toolpipe.secrets._first import first_bytes
from toolpipe.secrets._re2 import ANCHOR_START, UNANCHORED, Compiled, compile_bytes, escape
from toolpipe.secrets._rule import Rule

# re2's `(?i)` on Latin-1 bytes: ASCII's letters only (`(?i:é)` does not match `É`, nor
# the bytes of `ñ` those of `Ñ`), each with its small letter
FOLD = bytes(b + 32 if 65 <= b <= 90 else b for b in range(256))
_ALNUM = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
# Literals read one by one (a few microseconds each) before the union reads the rest: four
# times the scanner's TRIGGER_BUDGET, as ordinary text holds two or three literals for each
# trigger whose shape follows (so the scanner goes dense first)
HIT_BUDGET = 20_000
CHUNK = 1 << 16  # bytes of text the automaton reads at a time
# Bytes a shape with no bound (`[^\s/]*…`) may read past its literal, in all, before the
# union reads the rest: each check reads at most to its line's end (no such shape crosses
# a line but over blanks), and a line of a megabyte made of literals (`a://b:` repeated)
# had each one read it to its end, 17 s where the union's one pass is linear
WORK_FACTOR, WORK_FLOOR = 64, 1 << 20
_CLASS = re.compile(rb"\[(?:\\.|[^\]\\])*\]")
_UNBOUNDED = re.compile(rb"(?<!\\)[*+]|\{[0-9]+,\}")


def unbounded(shape: bytes) -> bool:
    """Can the shape read on without a bound (a `*`, a `+`, `{n,}` outside a class)?"""
    return _UNBOUNDED.search(_CLASS.sub(b"", shape)) is not None


def _bounded(rule: Rule, literal: str) -> bool:
    """Must the literal not follow a letter or digit (the union's ``(?:^|[^A-Za-z0-9])``)?
    Both readings ask here, so that the automaton's and the union's agree."""
    return rule.bounded and literal[0].isalnum()


class _Literals:
    """The literals as one automaton over folded text: for each, its length in bytes and
    its owners, ``(bounded, shape, endless, first)`` (``None``: the literal alone is the
    trigger; ``first``: the bytes the shape may start with, ``_first``);
    the case-sensitive fragments as one re2 union."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        shapes: dict[bytes, Compiled | None] = {}
        owners: dict[bytes, set[tuple[bool, bytes]]] = {}
        for rule in rules:
            shape = rule.shape.encode()
            if shape not in shapes:
                shapes[shape] = compile_bytes(shape) if shape else None
            for lit in rule.triggers:
                key = lit.encode().translate(FOLD)
                owners.setdefault(key, set()).add((_bounded(rule, lit), shape))
        keys = sorted(owners)
        firsts = {shape: first_bytes(shape) if shape else None for shape in shapes}
        self.owners = [(len(key), tuple((bounded, shapes[shape], unbounded(shape),
                                         firsts[shape])
                                        for bounded, shape in sorted(owners[key])))
                       for key in keys]
        # (its DFA: built in 40 ms, then twice as fast as the other forms, 0.3 ms a 32 KB)
        self.automaton = ahocorasick_rs.BytesAhoCorasick(
            keys, implementation=ahocorasick_rs.Implementation.DFA) if keys else None
        self.longest = max(map(len, keys), default=0) + 1  # (and a boundary's byte)
        fragments = list(dict.fromkeys(f.encode() for r in rules for f in r.case_triggers))
        self._fragments = compile_bytes(b"|".join(fragments)) if fragments else None

    def found(self, buf: bytes) -> Iterator[tuple[int, int, tuple[Any, ...]]]:
        """Each literal in ``buf``: where it ends (its last byte), its length and owners,
        by where they end; found a chunk at a time (a text made of literals never holds
        them all at once)."""
        if self.automaton is None:
            return
        folded = memoryview(buf.translate(FOLD))
        find, owners = self.automaton.find_matches_as_indexes, self.owners
        for base in range(0, len(buf), CHUNK):  # (a literal that starts in a chunk ends in
            # its window, which runs a literal's length on)
            for key, start, end in find(folded[base:base + CHUNK + self.longest],
                                        overlapping=True):
                if start < CHUNK:
                    length, own = owners[key]
                    yield base + end - 1, length, own

    def fragment(self, buf: bytes, pos: int) -> int:
        """Where the first fragment at or after ``pos`` starts (none: ``sys.maxsize``)."""
        if self._fragments is None or pos > len(buf):
            return sys.maxsize
        at: int = self._fragments.Match(UNANCHORED, buf, pos, len(buf))[0][0]
        return at if at >= 0 else sys.maxsize


def _may_start(tables: tuple[bytes, ...] | None, buf: bytes, at: int, size: int) -> bool:
    """May a shape whose first bytes' tables these are (``_first``) match at ``at``? (Each
    anchored re2 call costs about 2 µs from Python: most literals a text of words holds
    are followed by what no shape of theirs starts with.)"""
    if tables is None:
        return True
    if at + len(tables) > size:  # (too near the end: re2 says)
        return at < size
    for i, table in enumerate(tables):
        if not table[buf[at + i]]:
            return False
    return True


def _union_starts(regex: Compiled, buf: bytes, pos: int) -> Iterator[int]:
    size = len(buf)
    while pos < size:
        lo: int = regex.Match(UNANCHORED, buf, pos, size)[0][0]
        if lo < 0:
            return
        yield lo
        pos = lo + 1


_END = 256  # (no byte: a trie node's key for the literal that ends there)


class Triggers:
    """Where each rule may fire: a trigger followed by its rule's shape (``ghp_`` then 36
    letters or digits), and for each literal the rules whose trigger it starts with
    (``sk-ant-`` also starts ``sk-``). A trigger that begins with a letter or digit must
    not follow one (``xAKIA…`` is no AWS key). ``starts`` finds them: the literals in one
    Aho-Corasick pass, each one's shape by re2 where it ends; ``regex``, one re2 union of
    every trigger and its shape, is what it answers as, and what it hands over to past
    ``HIT_BUDGET`` literals (so a run of ``AKIAAKIA…`` or ``ghp_ghp_…`` never leaves C)."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules = tuple(rules)
        literals = sorted({t for r in rules for t in r.triggers}, key=len, reverse=True)
        # each literal's rules: those with a trigger the literal starts with, in the rules'
        # order (looked up by the literal's prefixes: a scan of every rule for every
        # literal took 190 ms of each start)
        owners: dict[str, list[int]] = {}
        for i, r in enumerate(rules):
            for t in r.triggers:
                owners.setdefault(t, []).append(i)
        self.by_literal: dict[bytes, tuple[Rule, ...]] = {}
        for lit in literals:
            found = {i for k in range(1, len(lit) + 1) for i in owners.get(lit[:k], ())}
            self.by_literal[lit.encode()] = tuple(rules[i] for i in sorted(found))
        # the literals as a trie of bytes (a node's _END key: the literal ending there), so
        # the longest one at a place is found in one walk, not tried one by one (55 start
        # with `pa`)
        self.trie: dict[int, Any] = {}
        for lit in literals:
            node = self.trie
            for byte in lit.encode():
                node = node.setdefault(byte, {})
            node[_END] = lit.encode()
        # case-sensitive triggers: the plain words looked up by what stands at the place,
        # the patterns matched one by one
        self.exact: dict[bytes, list[tuple[bytes, Rule]]] = {}
        self.fragments = []
        for r in rules:
            for f in r.case_triggers:
                if re.escape(f) == f or re.escape(f).replace("\\", "") == f:
                    self.exact.setdefault(f.encode()[:2], []).append((f.encode(), r))
                else:
                    self.fragments.append((re.compile(f.encode()), r))
        self.longest = max((len(t) for t in literals), default=1)
        # any trigger (a literal or a fragment), for a cluster: triggers each within 64 bytes
        # of the last, across line breaks too (a file of `rootpw x` lines is one cluster)
        any_trigger = b"(?:(?i:" + b"|".join(escape(t.encode()) for t in literals) + b")"
        any_trigger += b"".join(b"|" + f.encode() for r in rules for f in r.case_triggers)
        self._any_trigger = any_trigger + b")"

    # (compiled when first needed: the union past the budget, which most processes never
    # reach, and the dense reading's regexes, 85 thousand instructions, 40 ms of an import)
    @functools.cached_property
    def regex(self) -> Compiled:
        """Every trigger followed by its shape, as one re2 pattern (``union``)."""
        return compile_bytes(union(self.rules))

    @functools.cached_property
    def _literals(self) -> _Literals:
        return _Literals(self.rules)

    def starts(self, buf: bytes) -> Iterator[int]:
        """Where ``regex``'s successive matches start (from 0, then one byte after each),
        in order and as they are needed: each literal the automaton finds in the folded
        text, at a boundary if its rule asks for one, followed by its shape (re2, anchored
        where the literal ends), and each case-sensitive fragment. A start is sure once the
        automaton has passed its place by the longest literal. Past ``HIT_BUDGET``
        literals, or ``WORK_FACTOR`` times the text's bytes read by shapes with no bound,
        ``regex`` finds the rest: a text made of literals whose shapes fail costs a C pass,
        not Python per literal or a line read again per literal. (The union alone cost 10
        to 100 ms on each new 32 KB of mixed text, its lazy automaton's states built as the
        text visits them; this, 2 ms.)"""
        lits = self._literals
        size = len(buf)
        pending: list[int] = []  # (a heap) starts found, not yet sure
        found: set[int] = set()
        fragment = lits.fragment(buf, 0)

        def settle(sure: int) -> Iterator[int]:
            nonlocal fragment
            while fragment < sure:
                if fragment not in found:
                    found.add(fragment)
                    heapq.heappush(pending, fragment)
                fragment = lits.fragment(buf, fragment + 1)
            while pending and pending[0] < sure:
                yield heapq.heappop(pending)

        left, work, line_end = HIT_BUDGET, WORK_FACTOR * size + WORK_FLOOR, -1
        for end, length, owners in lits.found(buf):
            sure = end - lits.longest  # a later literal's trigger starts here or after
            if fragment < sure or (pending and pending[0] < sure):
                yield from settle(sure)
            left -= 1
            if left < 0 or work < 0:  # the rest by the union, from where nothing is sure
                yield from _union_starts(self.regex, buf, max(sure, 0))
                return
            start = end - length + 1
            for bounded, shape, endless, first in owners:
                at = start
                if bounded and start:  # (at 0, the union's `^`)
                    if buf[start - 1] in _ALNUM:
                        continue
                    at = start - 1  # the union's match starts at the boundary
                if at in found:
                    continue
                if endless:  # (what it may read: to its line's end)
                    if line_end <= end:
                        line_end = buf.find(b"\n", end + 1) % (size + 1)
                    work -= line_end - end
                if shape is None or (_may_start(first, buf, end + 1, size) and shape.Match(
                        ANCHOR_START, buf, end + 1, size)[0][0] >= 0):
                    found.add(at)
                    heapq.heappush(pending, at)
        yield from settle(size + 1)

    @functools.cached_property
    def any(self) -> Compiled:
        """One trigger: where a cluster starts."""
        return compile_bytes(self._any_trigger)

    @functools.cached_property
    def cluster(self) -> Compiled:
        return compile_bytes(self._any_trigger + b"(?:(?s:.){0,64}?" + self._any_trigger
                             + b")*")

    def rules_at(self, buf: bytes, lo: int) -> tuple[int, tuple[Rule, ...]]:
        """Where the trigger found at ``lo`` starts (after its boundary character, if
        any), and the rules to try there."""
        chunk = buf[lo:lo + self.longest + 1].lower()
        for skip in (0, 1):
            lit = None  # the longest literal at skip
            node = self.trie
            for byte in chunk[skip:]:
                child = node.get(byte)
                if child is None:
                    break
                node = child
                lit = node.get(_END, lit)
            if lit is not None:
                # and the case-sensitive words at the same place (`AUTH ` where the
                # literal `auth ` is another rule's)
                exact = self.exact.get(buf[lo + skip:lo + skip + 2])
                if exact is None:  # (the common case: no tuple built on the hot path)
                    return lo + skip, self.by_literal[lit]
                also = tuple(rule for word, rule in exact
                             if buf.startswith(word, lo + skip))
                return lo + skip, self.by_literal[lit] + also
        exact = self.exact.get(buf[lo:lo + 2])
        if exact is not None:
            found = tuple(rule for word, rule in exact if buf.startswith(word, lo))
            if found:
                return lo, found
        return lo, tuple(rule for fragment, rule in self.fragments
                         if fragment.match(buf, lo))


def union(rules: Sequence[Rule]) -> bytes:
    """Every trigger followed by its rule's shape, as one re2 pattern. Only where a match
    starts is used, so the literals that share a shape share one copy of it: ``(?i:a|b)S``
    is the language of ``(?i:a)S|(?i:b)S``, and the same place starts its first match.
    (One copy per literal made a program of 181,618 instructions, 494 key words in many
    languages each followed by the same 250: each state of re2's lazy DFA walked them, and
    a new process's first 800 KB of varied text took 2.8 s to build them, 0.1 s after.)"""
    bounded: dict[bytes, list[bytes]] = {}
    free: dict[bytes, list[bytes]] = {}
    others: list[bytes] = []  # the case-sensitive fragments, each as written
    for rule in rules:
        for lit in rule.triggers:
            into = bounded if _bounded(rule, lit) else free
            into.setdefault(rule.shape.encode(), []).append(escape(lit.encode()))
        others += [f.encode() for f in rule.case_triggers]

    def grouped(by_shape: dict[bytes, list[bytes]]) -> list[bytes]:
        return [b"(?i:" + b"|".join(dict.fromkeys(lits)) + b")" + shape
                for shape, lits in by_shape.items()]

    parts = []
    if bounded:
        parts.append(b"(?:^|[^A-Za-z0-9])(?:" + b"|".join(grouped(bounded)) + b")")
    parts += grouped(free) + list(dict.fromkeys(others))
    return b"|".join(parts)


