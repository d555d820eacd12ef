"""A debugger's variables pane as JetBrains' IDEs copy it, `password = {str} 'PW'` (the
twentieth sitting's held-out `classes-fresh93.txt`: 6 of its 45 secret lines leaked, all
of this form): the value's type in braces between the name's `=` and the value.

The law: a pane's line is redacted as the same line without the type is, for names of
credentials and of other things, values drawn or plain words; shown catching its reading
taken away."""

from __future__ import annotations

import importlib

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import drawn
from toolpipe.secrets import SecretPatternSet

S = SecretPatternSet.default_common()
NAMES = st.sampled_from(["password", "self.password", "db_password", "api_token",
                         "self._secret", "settings.SECRET_KEY", "token", "host", "user",
                         "retries", "self.name", "password_hint"])
TYPES = st.sampled_from(["{str}", "{unicode}", "{bytes}", "{SecretStr}"])


@settings(max_examples=200, deadline=None)
@given(NAMES, TYPES, st.one_of(st.integers(0, 2**32).map(lambda seed: drawn(seed, 14)),
                               st.sampled_from(["db.internal", "your first pet", "admin"])))
def test_a_pane_s_line_is_redacted_as_its_plain_form(name, kind, value):
    plain = f"{name} = '{value}'"
    pane = f"{name} = {kind} '{value}'"
    assert S.redact(pane) == S.redact(plain).replace(" = ", f" = {kind} ", 1), (pane, plain)


def test_the_law_catches_the_reading_taken_away(monkeypatch):
    pane = "password = {str} '7QxAbcdefgh0123'"
    assert "7QxAbcdefgh0123" not in SecretPatternSet().redact(pane)
    monkeypatch.setattr(importlib.import_module("toolpipe.secrets"), "pane_lines",
                        lambda text: [])
    assert "7QxAbcdefgh0123" in SecretPatternSet().redact(pane)
