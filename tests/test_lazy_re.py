"""A pattern compiled when first used answers as ``re.compile`` would, from its first
call on, through a method bound before it was compiled too."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from toolpipe._lazy_re import LazyPattern


@given(st.text(alphabet="ab-=1 ", max_size=20))
def test_it_answers_as_re_does(text):
    lazy, made = LazyPattern(r"a+(?P<n>[0-9])?"), re.compile(r"a+(?P<n>[0-9])?")
    search = lazy.search  # bound before it is compiled
    for _ in range(2):
        assert _spans(search(text)) == _spans(made.search(text))
        assert _spans(lazy.match(text)) == _spans(made.match(text))
        assert _spans(lazy.fullmatch(text)) == _spans(made.fullmatch(text))
        assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in made.finditer(text)]
    assert lazy.search.__self__ is lazy.compiled()  # the compiled pattern's own method now


def test_equal_by_pattern_and_flags():
    assert LazyPattern("a") == LazyPattern("a") and hash(LazyPattern("a")) == hash(
        LazyPattern("a"))
    assert LazyPattern("a") != LazyPattern("a", re.I) and LazyPattern("a") != "a"


def _spans(m: re.Match[str] | None) -> tuple[int, int] | None:
    return None if m is None else m.span()
