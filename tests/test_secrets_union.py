"""Where the rules may fire. The scanner finds its triggers with an Aho-Corasick automaton
over the folded text and each literal's shape by re2 where it ends
(``Triggers.starts``); one re2 union of every trigger and its shape says what the answer
is. The laws: ``starts`` starts where the union's successive matches do (on every line of
every corpus file, folded or not, and on texts made of the triggers, their shapes'
characters, their boundaries and Latin-1's letters in either case), whatever the budget
after which the union reads the rest; and the union, which groups the literals that share
a shape under one copy of it (a program of 28 thousand instructions, not 182 thousand),
starts where a union with one copy per literal does. Each is shown catching a broken
version."""

from __future__ import annotations

import functools
import importlib

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import DATA, load
from toolpipe.secrets._re2 import UNANCHORED, compile_bytes, escape

scan = importlib.import_module("toolpipe.secrets._scan")
triggers = importlib.import_module("toolpipe.secrets._triggers")
RULES = scan._TRIGGERS.rules
LITERALS = sorted({t for r in RULES for t in r.triggers})
# one kind per class (a third of its lines: the old union's automaton is slow to build)
CLASSES = [line.text.encode() for line in load("classes.txt")][::3]
EVERY_LINE = sorted({line.text.encode() for path in sorted(DATA.glob("*.txt"))
                     for line in load(path.name)})
# Latin-1's letters folded, each way (what re2's `(?i)` leaves as they are: a literal's
# UTF-8 bytes read as Latin-1 letters, `ñ`'s c3 b1, must not meet e3 b1)
LOWER = bytes(b + 32 if 65 <= b <= 90 or (0xC0 <= b <= 0xDE and b != 0xD7) else b
              for b in range(256))
UPPER = bytes(b - 32 if 97 <= b <= 122 or (0xE0 <= b <= 0xFE and b != 0xF7) else b
              for b in range(256))


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
    broken = compile_bytes(triggers.union([attrs.evolve(r, shape="") for r in shapeless]))
    fixed = compile_bytes(triggers.union(shapeless))
    assert any(starts(broken, buf) != starts(fixed, buf) for buf in CLASSES)



# --- the automaton's starts are the union's -------------------------------------------------

BUDGETS = [0, 3, triggers.HIT_BUDGET]  # the union reads the rest at once, soon, or never


def found(finder: object, buf: bytes, budget: int) -> list[int]:
    kept = triggers.HIT_BUDGET
    triggers.HIT_BUDGET = budget
    try:
        return list(finder.starts(buf))  # type: ignore[attr-defined]
    finally:
        triggers.HIT_BUDGET = kept


def test_the_automaton_starts_where_the_union_does_on_every_line():
    union = scan._TRIGGERS.regex
    for buf in EVERY_LINE:
        assert found(scan._TRIGGERS, buf, triggers.HIT_BUDGET) == starts(union, buf), buf


@pytest.mark.parametrize("chunk", [61, triggers.CHUNK])  # (61: literals cut at its edges)
@pytest.mark.parametrize("budget", BUDGETS)
def test_and_on_every_class_in_either_case_whatever_the_budget(budget, chunk, monkeypatch):
    monkeypatch.setattr(triggers, "CHUNK", chunk)
    union = scan._TRIGGERS.regex
    for buf in CLASSES:
        for text in (buf, buf.translate(LOWER), buf.translate(UPPER)):
            assert found(scan._TRIGGERS, text, budget) == starts(union, text), text


@pytest.mark.parametrize("budget", [200, triggers.HIT_BUDGET])
def test_and_on_a_long_text_read_chunk_by_chunk(budget):
    # every line of the corpus files, one after another: 940 KB, fifteen of the automaton's
    # chunks (so literals cut at a chunk's edge), 33 thousand literals
    text = b"\n".join(EVERY_LINE)
    assert found(scan._TRIGGERS, text, budget) == starts(scan._TRIGGERS.regex, text)


CASED = st.sampled_from(["", "fold", "upper"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(PIECES, CASED), max_size=12), st.sampled_from(BUDGETS))
def test_texts_made_of_triggers_start_where_the_union_does(pieces, budget):
    tables = {"": None, "fold": LOWER, "upper": UPPER}
    buf = b"".join(p.encode().translate(tables[c]) if c else p.encode() for p, c in pieces)
    assert found(scan._TRIGGERS, buf, budget) == starts(scan._TRIGGERS.regex, buf)


def differs(finder: object) -> bool:
    union = scan._TRIGGERS.regex
    texts = [t for buf in CLASSES for t in (buf, buf.translate(LOWER), buf.translate(UPPER))]
    return any(found(finder, t, triggers.HIT_BUDGET) != starts(union, t) for t in texts)


def test_the_law_catches_an_automaton_that_folds_latin_1_letters(monkeypatch):
    monkeypatch.setattr(triggers, "FOLD", LOWER)
    assert differs(triggers.Triggers(RULES))


def test_the_law_catches_an_automaton_that_folds_no_letter(monkeypatch):
    monkeypatch.setattr(triggers, "FOLD", bytes(range(256)))
    assert differs(triggers.Triggers(RULES))


def test_the_law_catches_an_automaton_that_forgets_the_boundary(monkeypatch):
    monkeypatch.setattr(triggers, "_ALNUM", frozenset())
    assert differs(triggers.Triggers(RULES))


def test_the_law_catches_an_automaton_that_forgets_the_shapes():
    broken = triggers.Triggers(RULES)
    broken.__dict__["_literals"] = triggers._Literals(
        [attrs.evolve(r, shape="") for r in RULES])
    assert differs(broken)


# --- a line of literals whose shapes read to its end ----------------------------------------

def automaton_against_union(text: bytes) -> tuple[float, float]:
    import gc
    import time

    # (the union first: its lazy automaton built for the text; the process's CPU time, not
    # the wall clock's: beside `yes`, one run read 0.92 s against 0.009) (and both warmed
    # on a tenth of it first: the automaton's first use in a process builds its literals
    # and its shapes' re2 states, 0.1 to 0.2 s, which had been timed when no test before
    # it in its worker had used it), and the garbage collected first (the broken automatons
    # the laws before it made, freed by a collection the timed reading set off: 0.1 s)
    starts(scan._TRIGGERS.regex, text[: len(text) // 10])
    list(scan._TRIGGERS.starts(text[: len(text) // 10]))
    gc.collect()
    start = time.process_time()
    union = starts(scan._TRIGGERS.regex, text)
    took_union = time.process_time() - start
    start = time.process_time()
    found = list(scan._TRIGGERS.starts(text))
    took = time.process_time() - start
    assert found == union
    return took, took_union


LINE_OF_LITERALS = b"a://b:" * 43_000  # (258 KB on one line: each `://` a literal)


def test_a_line_of_literals_costs_what_the_union_s_one_pass_does():
    """A shape with no bound (`[^\\s/]*…`) read from every literal of a long line read the
    line again per literal (a megabyte of `a://b:` took 17 s): past ``WORK_FACTOR`` times
    the text's bytes so read, the union reads the rest. Timed against the union's own
    pass in the same process, not in seconds."""
    took, took_union = automaton_against_union(LINE_OF_LITERALS)
    assert took < 10 * took_union + 0.1, (took, took_union)


def test_the_law_catches_an_automaton_that_reads_every_line_again(monkeypatch):
    monkeypatch.setattr(triggers, "WORK_FACTOR", 10**9)
    monkeypatch.setattr(triggers, "HIT_BUDGET", 4_000)  # (so that it ends within a second)
    took, took_union = automaton_against_union(LINE_OF_LITERALS)
    assert took >= 10 * took_union + 0.1, (took, took_union)


# --- a shape's first bytes, looked up before re2 is asked ------------------------------------

first = importlib.import_module("toolpipe.secrets._first")


def _python_shapes() -> list[bytes]:
    import re

    out = []
    for shape in sorted({r.shape.encode() for r in RULES if r.shape}):
        try:
            re.compile(shape)
        except re.error:
            continue
        out.append(shape)
    return out


SHAPES = _python_shapes()


def refused(shape: bytes, text: bytes) -> bool:
    """Do the shape's tables refuse a text the shape matches from its start?"""
    tables = first.first_bytes(shape)
    return not triggers._may_start(tables, text, 0, len(text))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_shape_s_first_bytes_never_refuse_what_it_matches(data):
    """What each shape matches whole (drawn by hypothesis from the shape, in Python's
    reading of it, whose classes on bytes are re2's or wider), its tables let through."""
    shape = data.draw(st.sampled_from(SHAPES))
    text = data.draw(st.from_regex(shape, fullmatch=True))
    assert not refused(shape, text), (shape, text)


def test_most_shapes_have_tables_and_they_cut_the_calls():
    tables = [first.first_bytes(s) for s in SHAPES]
    assert sum(t is not None for t in tables) >= 0.9 * len(tables)
    # (`path` in a text of words: the key's and the service token's shapes after `pat`
    # start with neither `h` nor `h ` and a letter: no re2 call)
    key = next(r.shape for r in RULES if r.kind == "api_key_kv" and "pat" in r.triggers)
    token = next(r.shape for r in RULES if r.kind == "service_token" and "pat" in r.triggers)
    assert refused(key.encode(), b"h value") and refused(token.encode(), b"h build")
    assert not refused(token.encode(), b"h1234567890abc.x")


def test_the_law_catches_tables_that_forget_the_case(monkeypatch):
    shape = next(s for s in SHAPES if s.startswith(b"(?i:[-_]?value)?"))
    text = b"Value = 'abcdefgh1'"
    assert not refused(shape, text)
    monkeypatch.setattr(first, "_folded", lambda values, fold: values)
    assert refused(shape, text)
    assert differs(triggers.Triggers(RULES))  # (and the automaton's law sees it)


def test_the_law_catches_tables_that_read_a_class_as_its_first_member(monkeypatch):
    real = first._class
    monkeypatch.setattr(first, "_class", lambda items, fold: set(list(real(items, fold))[:1]))
    assert differs(triggers.Triggers(RULES))
