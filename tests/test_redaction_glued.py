"""A run glued to a holder's escape is judged where the holder is read, not as written.

Found in the twelfth sitting by putting every corpus look-alike that is left alone (2,503)
in the places output puts a line, as the sweep had put every secret line: in a terminal's
colours 65 changed (`\\x1b[32mxpub661…` guessed at as `32mxpub661…`, `postgres:\\x1b[0m` read
as a value), inside a JSON string 98, JSON in JSON 115, a Kubernetes-style log 95, HTML
126 (a JWK's `\\"n\\":\\"…\\"`: its `"kty"` context is not there as written). A terminal's
escapes are read as blanks (`_escapes.uncoloured`); a run of 20 or more between a JSON
string's escaped quotes or HTML's quote entities is left by the entropy guess to the
reading of its holder, which marks its line (`_entropy._escaped_edge`, `GLUED_RUN`,
`GLUED_ENTITY_RUN`). After: 2, 20, 37, 17 and 54 of the 2,503."""

from __future__ import annotations

import html
import importlib
import json
import urllib.parse

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import load, tokens
from toolpipe.secrets import SecretPatternSet

PLACES = {
    "colours": lambda t: "\x1b[32m" + t + "\x1b[0m",
    "json": lambda t: json.dumps({"log": t}),
    "json-twice": lambda t: json.dumps({"m": json.dumps({"log": t})}),
    "html": lambda t: "<pre>" + html.escape(t) + "</pre>",
}


def _changed_per_place() -> dict[str, float]:
    """Of the look-alikes the redaction leaves alone (every eighth of the corpus's and the
    classes' file), the share changed in each place."""
    patterns = SecretPatternSet()
    lines = [line.text for name in ("corpus.txt", "classes.txt") for line in load(name)[::8]
             if not line.secrets and "\n" not in line.text]
    lines = [text for text in lines if patterns.redact(text) == text]
    assert len(lines) > 150
    return {place: sum(patterns.redact(wrap(text)) != wrap(text) for text in lines) / len(lines)
            for place, wrap in PLACES.items()}


def test_look_alikes_in_colours_json_and_html_change_rarely():
    """At most 3% each (the issue's bar for a held-out set is 2%: HTML's is about 2.2%
    on all 2,503, the rest 0.1–1.5%)."""
    rates = _changed_per_place()
    assert max(rates.values()) <= 0.03, rates


def test_the_places_catch_a_guess_at_glued_runs(monkeypatch):
    entropy = importlib.import_module("toolpipe.secrets._entropy")
    scan = importlib.import_module("toolpipe.secrets._scan")
    monkeypatch.setattr(entropy, "_escaped_edge", lambda buf, lo, hi: False)
    monkeypatch.setattr(scan, "uncoloured", lambda buf: buf)
    rates = _changed_per_place()
    assert rates["colours"] > 0.03 and rates["json"] > 0.03, rates


HELD = st.sampled_from([
    lambda v: json.dumps({"m": json.dumps({"data": v})}),
    lambda v: json.dumps({"log": json.dumps({"blob": v, "n": 1})}),
    lambda v: json.dumps({"m": json.dumps({"m": json.dumps({"data": v})})}),
    lambda v: "<pre>" + html.escape(json.dumps({"data": v})) + "</pre>",
    lambda v: "<td>" + html.escape(f"'{v}'", quote=True) + "</td>",
    lambda v: "\x1b[1m" + v + "\x1b[0m done",
    lambda v: "q=" + urllib.parse.quote(json.dumps({"data": v})),
])


@settings(max_examples=120, deadline=None)
@given(HELD, tokens(40, 60))
def test_a_random_token_held_so_is_still_guessed_at(hold, value):
    """What the guess leaves as written, the holder's reading guesses at: a token with no
    word to name it is still redacted inside JSON in JSON, HTML, colours or a query."""
    patterns = SecretPatternSet()
    if patterns.redact(value) == value:
        return  # (drawn too plain to be guessed at alone)
    out = patterns.redact(hold(value))
    assert value[3:15] not in out, out


def test_the_token_law_catches_holders_that_do_not_mark_glued_runs(monkeypatch):
    escapes = importlib.import_module("toolpipe.secrets._escapes")
    value = "7QxpLIix6MEOLeMa61EqJomTEI1JEzO3joOj37HyVaQXekW9"  # synthetic
    texts = [json.dumps({"m": json.dumps({"data": value})}),
             "<pre>" + html.escape(json.dumps({"data": value})) + "</pre>"]
    assert all(value not in SecretPatternSet().redact(text) for text in texts)
    never = escapes.compile_text("[^\\x00-\\x{10FFFF}]x")  # (no text matches)
    monkeypatch.setattr(escapes, "GLUED_RUN", never)
    monkeypatch.setattr(escapes, "GLUED_ENTITY_RUN", never)
    # (nor the lines with escaped quotes whatever their words, read since the thirteenth
    # sitting, the tags' reading beside it)
    package = importlib.import_module("toolpipe.secrets")
    monkeypatch.setattr(package, "json_held_lines", lambda text: [])
    monkeypatch.setattr(package, "tagged_lines", lambda text: [])
    assert all(value in SecretPatternSet().redact(text) for text in texts)


# A holder's reading composed with the others (the twelfth sitting's sweep): a word in
# disguise inside a JSON string or a query (`pass\u200bword` escaped, `pass%E2%80%8Bword`,
# colours percent-encoded) is read plain after its escapes, and a tab escaped in a JSON
# string is a tab in the line it holds (`"bob\tpptpd\tPW\t*"`, a CHAP secrets row).
DISGUISED = st.sampled_from(["pass\u200bword", "pаssword", "\x1b[1mpassword\x1b[0m",
                             "to\u200bken", "api\u00adkey"])
HOLDING = st.sampled_from([
    lambda line: json.dumps({"log": line}),
    lambda line: json.dumps({"m": json.dumps({"log": line})}),
    lambda line: "q=" + urllib.parse.quote(line),
    lambda line: "https://x.example/?q=" + urllib.parse.quote_plus(line) + "&page=2",
])


@settings(max_examples=120, deadline=None)
@given(DISGUISED, HOLDING, tokens(13, 24))
def test_a_word_in_disguise_inside_a_holder_is_read_plain(word, hold, value):
    line = f"{word}: {value}"
    assert value[:12] not in SecretPatternSet().redact(line)  # (found alone)
    text = hold(line)
    assert value[:12] not in SecretPatternSet().redact(text), text


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["bob\tpptpd\t{v}\t10.0.0.0/24", "db_pass\t{v}",
                        "alice\t*\t{v}\t*"]), tokens(13, 24))
def test_a_row_of_tabs_held_in_a_json_string_is_its_fields(row, value):
    line = row.format(v=value)
    assert value[:12] not in SecretPatternSet().redact(line)
    text = json.dumps({"log": line})
    assert value[:12] not in SecretPatternSet().redact(text), text


def test_the_holders_laws_catch_readings_that_do_not_compose(monkeypatch):
    package = importlib.import_module("toolpipe.secrets")
    embedded = importlib.import_module("toolpipe.secrets._embedded")
    value = "7QxAbcdefgh0123"
    disguised = json.dumps({"log": f"pass\u200bword: {value}"})
    row = json.dumps({"log": f"bob\tpptpd\t{value}\t10.0.0.0/24"})
    assert all(value not in SecretPatternSet().redact(t) for t in (disguised, row))
    monkeypatch.setattr(package, "odd", lambda text: False)
    monkeypatch.setattr(embedded, "_CONTROLS", {})
    assert all(value in SecretPatternSet().redact(t) for t in (disguised, row))


# A JSON string that escapes text not ASCII (`json.dumps`'s default) is read as the text it
# spells, whatever its words (the twelfth sitting's sweep: labels in other scripts mixed
# with letters or blanks, a box's borders, an emoji's surrogate pair, prose).
NOT_ASCII = st.sampled_from(["пароль = {v}", "Нууц үг: {v}", "┃ DB_PASSWORD ┃ {v} ┃",
                             "🔐: {v}", "Contraseña: {v}", "密码：{v}", "パスワード: {v}"])


@settings(max_examples=100, deadline=None)
@given(NOT_ASCII, st.integers(1, 2), tokens(13, 24))
def test_text_not_ascii_escaped_in_a_json_string_is_read_as_it_spells(form, depth, value):
    line = form.format(v=value)
    assert value[:12] not in SecretPatternSet().redact(line)  # (found alone)
    text = line
    for _ in range(depth):
        text = json.dumps({"msg": text})
    assert value[:12] not in SecretPatternSet().redact(text), text


def test_the_not_ascii_law_catches_a_reading_of_labels_alone(monkeypatch):
    escapes = importlib.import_module("toolpipe.secrets._escapes")
    text = json.dumps({"msg": "Hasło jest 7QxAbcdefgh0123"})
    assert "7QxAbcdefgh0" not in SecretPatternSet().redact(text)
    # (the eleventh sitting's mark: a label all in escapes, then its separator)
    monkeypatch.setattr(escapes, "_NOT_ASCII_LINE", escapes.compile_text(
        r"(?:\\+u(?:[1-9a-fA-F][0-9a-fA-F]{3}|0[1-9a-fA-F][0-9a-fA-F]{2}"
        r"|00[89a-fA-F][0-9a-fA-F])){1,8}(?:\\+uff1[adAD]|[ \t]*[:=])"))
    assert "7QxAbcdefgh0" in SecretPatternSet().redact(text)
