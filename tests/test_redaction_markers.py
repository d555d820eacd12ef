"""Values under a traceback's variable markers (the twenty-second sitting's held-out
`classes-fresh100.txt`: loguru's and better-exceptions' `│     └ '…'` lines leaked, 3 of
its 36 secret lines): the name is the word on the code line above at the marker's
column, and a credential's name there marks the value.

The law, shown catching its reading taken away: under a credential's name the value is
redacted, under any other name it is left, wherever the names sit on the line."""

from __future__ import annotations

import importlib

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import drawn
from toolpipe.secrets import SecretPatternSet

S = SecretPatternSet.default_common()
CREDENTIALS = st.sampled_from(["password", "api_key", "token", "db_secret", "self.passwd",
                               "auth_header"])
OTHERS = st.sampled_from(["user", "retries", "host", "path", "self.name", "url"])


def traced(names: list[str], values: list[str], call: str = "client.login") -> str:
    """A call on its code line, then a marker line per argument, the last first."""
    code = f"    {call}(" + ", ".join(names) + ")"
    columns, at = [], len(f"    {call}(")
    for name in names:
        columns.append(at)
        at += len(name) + 2
    lines = [code]
    for k in range(len(names) - 1, -1, -1):
        row = [" "] * columns[k]
        for j in range(k):
            row[columns[j]] = "│"
        lines.append("".join(row) + f"└ '{values[k]}'")
    return "\n".join(lines)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(CREDENTIALS, OTHERS), min_size=1, max_size=4, unique=True),
       st.integers(0, 2**32))
def test_a_value_under_a_credential_s_name_is_redacted_and_no_other(names, seed):
    values = [drawn(seed + i, 14) for i in range(len(names))]
    out = S.redact(traced(names, values))
    for name, value in zip(names, values, strict=True):
        secret = any(w in name for w in ("pass", "key", "token", "secret", "auth"))
        assert (value not in out) == secret, (name, out)


def test_the_law_catches_the_markers_reading_taken_away(monkeypatch):
    several = importlib.import_module("toolpipe.secrets._several")
    text = traced(["user", "password"], ["admin", "7QxAbcdefgh01234"])
    assert "7QxAbcdefgh0" not in SecretPatternSet().redact(text)
    monkeypatch.setitem(several.SEVERAL, "marked", lambda buf, start, found, floor: (
        [], found.end()))
    assert "7QxAbcdefgh0" in SecretPatternSet().redact(text)
