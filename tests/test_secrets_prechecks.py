"""The C-speed prechecks before a pass of re2 never skip a text the pass would find
something in: a run long enough for the entropy guess, two lines of wrapped base64. Each
law is shown catching a precheck that forgets a character of the run."""

from __future__ import annotations

import importlib

from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolpipe.secrets._re2 import UNANCHORED, has_run, run_table

entropy = importlib.import_module("toolpipe.secrets._entropy")
dumps = importlib.import_module("toolpipe.secrets._dumps")

RUN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+_-/"
TEXTS = st.text(alphabet=RUN_CHARS + " .=\n:\"'~", max_size=400).map(str.encode)
LINES = st.lists(st.text(alphabet=RUN_CHARS + "=", min_size=60, max_size=80),
                 min_size=1, max_size=4).map(lambda ls: ("\n".join(ls) + "\n").encode())


def _runs_found(buf: bytes, table: bytes) -> bool:
    """The entropy pass's regex finds a run, and the precheck with ``table`` says none."""
    found = entropy._runs(20).Match(UNANCHORED, buf, 0, len(buf))[0][0] >= 0
    return found and not has_run(buf, table, 20)


@settings(max_examples=300, deadline=None)
@given(TEXTS)
@example(b"x" * 19 + b"-" + b"y")
def test_no_run_the_regex_finds_is_skipped(buf):
    assert not _runs_found(buf, entropy._RUN_TABLE)


@settings(max_examples=200, deadline=None)
@given(LINES)
def test_no_wrapped_block_is_skipped(buf):
    found = dumps._TWO_LINES.Match(UNANCHORED, buf, 0, len(buf))[0][0] >= 0
    assert not found or has_run(buf, dumps._B64_TABLE, 64)


def test_the_law_catches_a_precheck_that_forgets_a_character():
    broken = run_table(RUN_CHARS.replace("-", "").encode())
    assert _runs_found(b"Zq8rT-" * 5, broken)
    assert not _runs_found(b"Zq8rT-" * 5, entropy._RUN_TABLE)
