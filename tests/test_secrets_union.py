"""The trigger scan's union groups the literals that share a shape under one copy of it
(a program of 28 thousand instructions, not 182 thousand). Only where a match starts is
used, so the law: the grouped union starts its matches where a union with one copy per
literal does, on lines of every class of the corpus and on texts made of the triggers, their shapes'
characters and their boundaries. It is shown catching a grouping that drops the shape."""

from __future__ import annotations

import functools
import importlib

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import load
from toolpipe.secrets._re2 import UNANCHORED, compile_bytes, escape

scan = importlib.import_module("toolpipe.secrets._scan")
RULES = scan._TRIGGERS.rules
LITERALS = sorted({t for r in RULES for t in r.triggers})
# one kind per class (a third of its lines: the old union's automaton is slow to build)
CLASSES = [line.text.encode() for line in load("classes.txt")][::3]


@functools.cache
def one_per_literal() -> scan.Compiled:
    """The union as it was built before: each literal followed by its own copy of its
    rule's shape."""
    bounded, free = [], []
    for rule in RULES:
        for lit in rule.triggers:
            alt = b"(?i:" + escape(lit.encode()) + b")" + rule.shape.encode()
            (bounded if rule.bounded and lit[0].isalnum() else free).append(alt)
        free += [f.encode() for f in rule.case_triggers]
    parts = [b"(?:^|[^A-Za-z0-9])(?:" + b"|".join(dict.fromkeys(bounded)) + b")"]
    return compile_bytes(b"|".join(parts + list(dict.fromkeys(free))))


def starts(regex: scan.Compiled, buf: bytes) -> list[int]:
    """Where the scan's successive matches start (it goes on one byte after each)."""
    found, pos = [], 0
    while pos < len(buf):
        lo = regex.Match(UNANCHORED, buf, pos, len(buf))[0][0]
        if lo < 0:
            break
        found.append(lo)
        pos = lo + 1
    return found


def test_the_grouped_union_is_smaller_and_starts_where_one_per_literal_does():
    assert scan._TRIGGERS.regex.ProgramSize() * 4 < one_per_literal().ProgramSize()
    for buf in CLASSES:
        assert starts(scan._TRIGGERS.regex, buf) == starts(one_per_literal(), buf), buf


PIECES = st.sampled_from(LITERALS) | st.sampled_from(
    ["", " ", "\t", "\n", "=", ":", '"', "'", ",", "@", "-", "_", ".", "/", "x", "Z9",
     "A" * 16, "a1" * 20, "0x1f", "</td>", "=>", " on ", "secret", "PRIVATE KEY"])


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=12).map(lambda ps: "".join(ps).encode()))
def test_texts_made_of_triggers_start_where_they_did(buf):
    assert starts(scan._TRIGGERS.regex, buf) == starts(one_per_literal(), buf)


def test_the_law_catches_a_grouping_that_drops_the_shape():
    shapeless = [r for r in RULES if r.shape]  # every rule's shape forgotten
    broken = compile_bytes(scan.union([attrs.evolve(r, shape="") for r in shapeless]))
    fixed = compile_bytes(scan.union(shapeless))
    assert any(starts(broken, buf) != starts(fixed, buf) for buf in CLASSES)

