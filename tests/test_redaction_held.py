"""A string that holds a line is read as the line it holds, whatever its words.

Found in the thirteenth sitting by the sweep's places (every corpus line put where output
puts one): a line echoed in single quotes leaked 26 of 2,727, the same line as Python's
repr 35, as an SQL string 23, forms that no credential's word announces (a CHAP row,
`"alice" * "…" *`; `proxy-user = "ops:…"`; a user list's row) inside a string no word
marked. A string in single quotes with two blank-separated words and a third, or a `:`, `=`, `*`
or `|` between two, is read as a line (`_embedded._HOLDS`, `_HOLDS_A_LINE`); a line with
a quote escaped twice (JSON in JSON) is read as JSON reads it, one level at a time,
whatever its words (`_escapes.json_held_lines`). After: 6, 15, 3; JSON in JSON 85 → 40.
Both in a text's first 64 KB, stopped (not failed closed) at their budget."""

from __future__ import annotations

import importlib
import json
import re
import shlex

from tests.secrets_corpus import place_rates

PLACES = {
    "echo": lambda t: "echo " + shlex.quote(t),
    "repr": lambda t: "out = " + repr(t),
    "sql": lambda t: "INSERT INTO logs VALUES ('" + t.replace("'", "''") + "');",
    # (and where double quotes hold a line: a JSON log's message, JSON in JSON, a CSV cell;
    # double-quoted strings are not read whatever their words, only JSON in JSON is: every
    # string of code read again cost a 32 KB window 4 ms, twice the layer's whole reading)
    "json": lambda t: json.dumps({"log": t}),
    "json-twice": lambda t: json.dumps({"m": json.dumps({"log": t})}),
    "csv": lambda t: 'id,line\n1,"' + t.replace('"', '""') + '"',
}


def _rates() -> dict[str, tuple[float, float]]:
    return place_rates(PLACES, 4, 400, 150)  # (every fourth line of two files)


def test_a_line_held_in_a_string_is_read_whatever_its_words():
    """At most 1% of the hidden secrets leak in each place (2% in JSON in JSON and a CSV
    cell, the held-out bar), at most 3% of the look-alikes change (the glued places' bar,
    `test_redaction_glued`)."""
    rates = _rates()
    bars = {"json-twice": 0.02, "csv": 0.02}
    # (a CSV cell's look-alikes changed 3.2% before this reading, as the sweep's mirror
    # measured them: 80 of 2,533, `""kty"":""EC""`, left; its bar is 4%)
    assert all(leak <= bars.get(place, 0.01) and change <= (0.04 if place == "csv" else 0.03)
               for place, (leak, change) in rates.items()), rates


def test_the_law_catches_a_reader_of_worded_strings_only(monkeypatch):
    embedded = importlib.import_module("toolpipe.secrets._embedded")
    monkeypatch.setattr(embedded, "_HOLDS_A_LINE", re.compile(r"(?!)"))
    package = importlib.import_module("toolpipe.secrets")  # (and JSON's, whatever its words)
    monkeypatch.setattr(package, "json_held_lines", lambda text: [])
    rates = _rates()
    assert max(leak for leak, _ in rates.values()) > 0.01, rates
