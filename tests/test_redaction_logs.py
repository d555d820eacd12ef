"""Two classes classes-fresh63.txt (the tenth sitting) found in what tools log: a pair whose
separator and quotes are percent-encoded (a form's body, a query's value, a logged URL:
`%22password%22%3A%22…%22`) and a command substitution that prints a literal in a
credential's place (`TOKEN=$(echo …)`, read as a placeholder before); and one that
classes-fresh64.txt found in settings' syntaxes: a value with an escaped separator in it
(Java properties' `abc\\:def`), cut there before. Each as a grid with its look-alikes,
and shown catching a redactor without its reading."""

from __future__ import annotations

import importlib
import urllib.parse

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import leaked, load, tokens
from toolpipe.secrets import SecretPatternSet

KEYS = st.sampled_from(["password", "db_password", "token", "api_key", "apiKey",
                        "client_secret", "access_token", "passwd", "secret"])




ENCODED = st.sampled_from([
    "%22{k}%22%3A%22{v}%22", "%7B%22{k}%22%3A%22{v}%22%7D", "data=%7B%22{k}%22%3A%22{v}%22%7D",
    "{{%22{k}%22:%22{v}%22}}", "%27{k}%27%3A%20%27{v}%27", "next=%2Fcb%3Fstate%3Dx%26{k}%3D{v}",
    "body=user%3Dapp%26{k}%3D{v}", "{k}%3D{v}", "GET /login?redirect=%2Fhome%3F{k}%3D{v} 302"])


@settings(max_examples=150, deadline=None)
@given(ENCODED, KEYS, tokens(13, 30))
def test_a_pair_percent_encoded_is_redacted(form, key, value):
    text = form.format(k=key, v=value)
    assert value[:12] not in SecretPatternSet().redact(text), text


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([
    "redirect_uri=https%3A%2F%2Fapp.example%2Fcb&token_type=bearer",
    "q=key%3Dvalue", "%22password_changed%22%3Atrue", "filter=%22token%22%3A%22%22",
    "next=%2Fsettings%3Ftab%3Dsecrets", "%22api_key%22%3A%22%24%7BAPI_KEY%7D%22"]))
def test_encoded_text_without_a_secret_is_left(text):
    assert SecretPatternSet().redact(text) == text


PRINTED = st.sampled_from([
    "{k}=$(echo {v})", "{k}=$(echo -n {v})", "export {k}=\"$(printf %s {v})\"",
    "{k}=$(printf '%s' '{v}')", "{k}=\"$(echo \"{v}\")\"", "export {k}=$( echo {v} )",
    "{k}: $(echo {v})"])


@settings(max_examples=200, deadline=None)
@given(PRINTED, st.sampled_from(["TOKEN", "API_KEY", "DB_PASSWORD", "GITHUB_TOKEN",
                                 "CLIENT_SECRET", "password"]), tokens(13, 30))
def test_a_literal_a_substitution_prints_in_a_credentials_place(form, key, value):
    text = form.format(k=key, v=value)
    assert value[:12] not in SecretPatternSet().redact(text), text


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([
    "VERSION=$(echo 1.2.3-rc1abc)", "TOKEN=$(cat token.txt)", "TOKEN=$(echo $OTHER)",
    "TOKEN=$(vault read -field=token secret/ci)", "NAME=$(echo Zq1xK9w2abcd)",
    "TOKEN=$(echo none)", "echo $(printf '%s' 7QxAbcdefgh0123)"]))
def test_what_a_substitution_prints_elsewhere_is_left(text):
    assert SecretPatternSet().redact(text) == text


def test_the_grids_catch_a_redactor_without_these_readings(monkeypatch):
    package = importlib.import_module("toolpipe.secrets")
    code = importlib.import_module("toolpipe.secrets._code")
    encoded = "%22password%22%3A%227QxAbcdefgh0123%22"
    printed = "TOKEN=$(echo 7QxAbcdefgh0123)"
    assert "7QxAbcdefgh0" not in SecretPatternSet().redact(encoded)
    assert "7QxAbcdefgh0" not in SecretPatternSet().redact(printed)
    # (not read as a line percent-encoded, the one reading of percent escapes)
    monkeypatch.setattr(package, "percent_encoded_lines", lambda text: [])
    monkeypatch.setitem(code.VALUE_CHECKS, "printed_value", lambda *args: None)
    assert "7QxAbcdefgh0" in SecretPatternSet().redact(encoded)
    assert "7QxAbcdefgh0" in SecretPatternSet().redact(printed)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["db.password=", "password = ", "api.key: ", "export TOKEN="]),
       tokens(13, 30), st.sampled_from(["\\:", "\\=", "\\ ", "\\#", "\\!"]),
       st.integers(4, 15))
def test_a_value_goes_on_past_an_escaped_separator(key, value, escape, at):
    text = key + value[:at] + escape + value[at:]
    out = SecretPatternSet().redact(text)
    for piece in (value[:at], value[at:at + 12]):
        assert len(piece) < 6 or piece not in out, text


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["url=jdbc\\:mysql\\://db/x", "path=C\\:\\\\Users\\\\app",
                        "greeting=Hello\\ world", "key.separator=\\="]))
def test_an_escaped_separator_in_an_ordinary_value_is_left(text):
    assert SecretPatternSet().redact(text) == text


def test_the_escape_law_catches_a_redactor_that_stops_at_the_escape(monkeypatch):
    continued = importlib.import_module("toolpipe.secrets._continued")
    text = "db.password=7QxAbcde\\:fgh0123456789"
    assert "fgh012345678" not in SecretPatternSet().redact(text)
    monkeypatch.setattr(continued, "_ESCAPED_ON", __import__("re").compile(rb"(?!)"))
    assert "fgh012345678" in SecretPatternSet().redact(text)


def test_past_the_marks_budget_an_encoded_pair_still_never_leaks(monkeypatch):
    """Past MARKS_BUDGET keys before encoded separators, every line with an encoded
    separator is read again: the escapes' own budget then fails closed."""
    escapes = importlib.import_module("toolpipe.secrets._escapes")
    monkeypatch.setattr(escapes, "MARKS_BUDGET", 8)
    text = "token%3Dn\n" * 20 + "q=%22password%22%3A%227QxAbcdefgh0123%22\n"
    assert "7QxAbcdefgh0" not in SecretPatternSet().redact(text)


# A line percent-encoded whole (the eleventh sitting's sweep: every corpus secret line put
# in a query, `q=` and `urllib.parse.quote`, leaked 1,377 of 2,727; 551 after, most of them
# forms with no credential's word, which mark no line): its blanks, quotes and separators
# encoded, the line read decoded, and what the parameter holds read as a line of its own.
# Since the twelfth sitting every line with a percent escape is read so, whatever its
# words (a URL's user-info, a `.pgpass` row, `curl -u`: 551 of the sweep's lines leaked
# when only a credential's word marked a line, 40 after), as a form encodes it too (`+` a
# blank), and a query's own `?` and `&` end its parts.
WHOLE = st.sampled_from([
    "db_password = \"{v}\"", "rootpw {v}", "Authorization: Bearer {v}",
    "export PGPASSWORD='{v}'", "ALTER USER app WITH PASSWORD '{v}';", "requirepass {v}",
    "{{\"api_key\": \"{v}\"}}", "sshpass -p '{v}' ssh host",
    "mysql://root:{v}@127.0.0.1:3306/shop", "db.internal:5432:appdb:appuser:{v}",
    "curl -u admin:{v} https://api.example.com/v1/status", "密码：{v}",
    "curl -sS --user \"deploy:{v}\" -X POST https://ci.example.com/job"])
PARAMETERS = st.sampled_from(["q=", "GET /search?q=", "body=a%3D1&cmd=", "redirect=", ""])


def encodings(line: str) -> list[str]:
    """A line as a query's value: `quote` (a blank `%20`), a form's `quote_plus` (a blank
    `+`) among other parameters, `quote` with `/` encoded too, and encoded twice."""
    return [urllib.parse.quote(line),
            "https://x.example/search?q=" + urllib.parse.quote_plus(line) + "&page=2",
            "https://x.example/search?q=" + urllib.parse.quote(line, safe="") + "&page=2",
            "next=" + urllib.parse.quote(urllib.parse.quote(line))]


@settings(max_examples=150, deadline=None)
@given(WHOLE, PARAMETERS, tokens(13, 30), st.integers(0, 3))
def test_a_line_percent_encoded_whole_is_read_decoded(form, parameter, value, encoding):
    line = form.format(v=value)
    assert value[:12] not in SecretPatternSet().redact(line)  # (found alone)
    text = parameter + encodings(line)[encoding]
    out = SecretPatternSet().redact(text)
    assert value[:12] not in out, text
    assert SecretPatternSet().redact(out) == out


def _percent_encoded_rates() -> tuple[float, float]:
    """Of the corpus's lines the redaction judges right as they are (every third), put in
    a query each of the four ways: the share of secret lines whose secret survives, and
    of look-alikes changed."""
    patterns = SecretPatternSet()
    leaks = secrets = changed = alikes = 0
    for line in load("corpus.txt")[::3]:
        out = patterns.redact(line.text)
        if (line.secrets and any(leaked(secret, out) for secret in line.secrets)) or (
                not line.secrets and out != line.text) or "\n" in line.text:
            continue
        for text in encodings(line.text):
            out = patterns.redact(text)
            if line.secrets:
                secrets += 1
                leaks += any(leaked(secret, out) for secret in line.secrets)
            else:
                alikes += 1
                changed += out != text
    return leaks / secrets, changed / alikes


def test_the_corpus_percent_encoded_is_judged_as_it_is_plain():
    """The issue's bar for a held-out set (2% of lines leak, 2% of look-alikes change),
    for the corpus percent-encoded. A run glued to an escape (`%2B7z0M…`, a public key's
    middle) is left to the decoded reading, which knows its context: before, 17% of the
    look-alikes so encoded changed."""
    leaking, changing = _percent_encoded_rates()
    assert leaking <= 0.02 and changing <= 0.02, (leaking, changing)


def test_the_encoded_rates_catch_a_guess_at_runs_glued_to_escapes(monkeypatch):
    entropy = importlib.import_module("toolpipe.secrets._entropy")
    monkeypatch.setattr(entropy, "_escaped_edge", lambda buf, lo, hi: False)
    assert _percent_encoded_rates()[1] > 0.02


@settings(max_examples=60, deadline=None)
@given(PARAMETERS, st.sampled_from([
    "password reset link sent", "rootpw is set", "token expired at 10:00",
    "Authorization: Bearer <token>", "key rotation done: 3 keys"]))
def test_an_ordinary_line_percent_encoded_is_left(parameter, line):
    text = parameter + urllib.parse.quote(line)
    assert SecretPatternSet().redact(text) == text


def test_the_whole_line_law_catches_a_redactor_that_reads_it_as_written(monkeypatch):
    package = importlib.import_module("toolpipe.secrets")
    texts = ["q=" + urllib.parse.quote(f.format(v="7QxAbcdefgh0123")) for f in [
        'db_password = "{v}"', "rootpw {v}", "ALTER USER app WITH PASSWORD '{v}';"]]
    assert all("7QxAbcdefgh0" not in SecretPatternSet().redact(t) for t in texts)
    monkeypatch.setattr(package, "percent_encoded_lines", lambda text: [])
    assert all("7QxAbcdefgh0" in SecretPatternSet().redact(t) for t in texts)
