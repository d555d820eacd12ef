"""A line held inside another is read as the line it holds: a shell's quoting (`echo '…'`,
as `shlex.quote` writes it), a Python repr, an SQL string (its quotes doubled), a CSV cell
(its quotes doubled), XML's CDATA, a tab-separated field before it. Found in the
eleventh sitting by putting every secret line of the corpus in each: 359 of 2,727 leaked
in an SQL string, 356 in an `echo`'s quoting, 473 in a CSV cell, 243 in a repr, 230 in
CDATA, 187 after a tab-separated label; the forms a line's start anchors, and values
whose quotes the holder escapes (`PASSWORD ''pw''`), were not read."""

from __future__ import annotations

import importlib
import re
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import tokens
from toolpipe.secrets import SecretPatternSet

HOLDERS = {
    "shell": lambda line: "echo " + shlex.quote(line),
    "repr": lambda line: "out = " + repr(line),
    "sql": lambda line: "INSERT INTO logs VALUES (7, '" + line.replace("'", "''") + "');",
    "csv": lambda line: 'id,line\n1,"' + line.replace('"', '""') + '"',
    "cdata": lambda line: "<log><![CDATA[" + line + "]]></log>",
    "tab": lambda line: "message\t" + line,
}
# lines whose secret is found when they stand alone (asserted below), each a form a
# line's start anchors or whose value is quoted
FORMS = st.sampled_from([
    "rootpw {v}", "requirepass {v}", "| password | {v} |", "| **API token** | `{v}` |",
    "ALTER USER app WITH PASSWORD '{v}';", "CREATE USER 'app'@'%' IDENTIFIED BY '{v}';",
    "export PGPASSWORD='{v}'", 'MYSQL_ROOT_PASSWORD="{v}"', "sshpass -p '{v}' ssh host",
    "enable secret 0 {v}", "rocommunity {v}", 'password: "{v}"',
    "echo '{v}' | docker login ghcr.io -u bot --password-stdin"])




@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(HOLDERS)), FORMS, tokens())
def test_a_line_held_in_another_is_read_as_the_line_it_holds(holder, form, value):
    line = form.format(v=value)
    assert value[:12] not in SecretPatternSet().redact(line)  # (found alone)
    text = HOLDERS[holder](line)
    out = SecretPatternSet().redact(text)
    assert value[:12] not in out, text
    assert SecretPatternSet().redact(out) == out


# (lines with no credential's word, held where the holder escapes their quotes: a CSV
# cell's doubled `""`, an SQL string's `''`, a shell's `'"'"'`; the doubling marks the
# line, whatever its words)
WORDLESS = {
    "csv": st.sampled_from([
        'curl -sS --user "deploy:{v}" https://ci.example.com/job',
        'conn = pymysql.connect("db.internal", "root", "{v}", "shop")',
        'ConvertTo-SecureString "{v}" -AsPlainText -Force']),
    "sql": st.sampled_from(["redis-cli -a '{v}' ping", "mysql -uroot -p'{v}' shop",
                            "curl -u 'bot:{v}' https://ci.example.com"]),
    "shell": st.sampled_from(["redis-cli -a '{v}' ping", "mysql -uroot -p'{v}' shop",
                              "curl -u 'bot:{v}' https://ci.example.com"]),
}


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(WORDLESS)), st.data(), tokens())
def test_a_wordless_line_in_a_holder_that_escapes_its_quotes_is_read(holder, data, value):
    line = data.draw(WORDLESS[holder]).format(v=value)
    assert value[:12] not in SecretPatternSet().redact(line)  # (found alone)
    text = HOLDERS[holder](line)
    out = SecretPatternSet().redact(text)
    assert value[:12] not in out, text
    assert SecretPatternSet().redact(out) == out


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(HOLDERS)), st.sampled_from([
    "password reset link sent to ada@example.com", "rootpw is set", "token expired at 10:00",
    "the build took 42 s", "requirepass yes", "| password | (unset) |",
    "ALTER USER app WITH PASSWORD NULL;", "key rotation done: 3 keys",
    'said "hi" to "you" at 10:00', "it's ada's 'build' now"]))
def test_an_ordinary_line_held_in_another_is_left(holder, line):
    text = HOLDERS[holder](line)
    assert SecretPatternSet().redact(text) == text


def test_strings_side_by_side_and_values_alone_keep_their_context():
    """A value read alone has lost the key that judged it: a pagination token, a public
    key, an empty attribute stay as they are (each changed once by a first version that
    read every string as a line)."""
    for text in [
        '"NextToken": "7ZcSooOv2pEhdXEdkNM3sy3EqGjR4H90Kbki6jSanfvv"',
        '"publicKey": "9VkJ5yQwjELle2sJRGMotvsCWxm3uzdPVl5xvROdCIS="',
        '<input type="password" name="pw" value="">', "<p>requirepass yes</p>",
        '{"kty": "RSA", "e": "AQAB", "kid": "key-1", "n": "9Bv-XerfIsm-9eyqOxcq6xrZG6gkhW_N'
        'a3RsrQM6AQ1Adgcfgsg_WKL4gygPy4fSYCkpMoM30QvFoIBOk0eeaTW1D"}']:
        assert SecretPatternSet().redact(text) == text


def test_the_holders_close_is_kept():
    out = SecretPatternSet().redact("INSERT INTO logs VALUES (7, 'rootpw 7QxAbcdefgh0123');")
    assert out == "INSERT INTO logs VALUES (7, 'rootpw [REDACTED:password]');"


def test_the_law_catches_a_redactor_that_reads_no_held_line(monkeypatch):
    package = importlib.import_module("toolpipe.secrets")
    texts = [HOLDERS[h](f.format(v="7QxAbcdefgh0123")) for h, f in [
        ("sql", "ALTER USER app WITH PASSWORD '{v}';"), ("cdata", "rootpw {v}"),
        ("shell", "export PGPASSWORD='{v}'"), ("csv", 'MYSQL_ROOT_PASSWORD="{v}"')]]
    assert all("7QxAbcdefgh0" not in SecretPatternSet().redact(t) for t in texts)
    monkeypatch.setattr(package, "embedded_lines", lambda text: [])
    monkeypatch.setattr(package, "held_lines", lambda text: [])  # (whatever their words:
    monkeypatch.setattr(package, "json_held_lines", lambda text: [])  # the thirteenth's)
    assert all("7QxAbcdefgh0" in SecretPatternSet().redact(t) for t in texts)


# classes-fresh65.txt (written before its rules) found three more: a command line in an
# XML element (a Windows event's `<Data Name="CommandLine">`), a name and its value as
# quoted CSV cells ending the text, and a Helm chart's `existingSecret=` (a name) taken
# for a value.

@settings(max_examples=100, deadline=None)
@given(st.sampled_from([
    '<Data Name="CommandLine">net use \\\\fs01\\share /user:corp\\kilo {v}</Data>',
    '<Data Name="CommandLine">net use Z: \\\\fs01\\share {v} /user:kilo</Data>',
    "<cmd>rabbitmqctl change_password kilo {v}</cmd>", "<td>net user kilo {v}</td>"]),
       tokens())
def test_a_command_line_in_an_element_ends_at_its_close(form, value):
    text = form.format(v=value)
    out = SecretPatternSet().redact(text)
    assert value[:12] not in out and out.endswith(text[text.rindex("<"):]), text


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["DB_PASSWORD", "api_token", "CLIENT_SECRET"]), tokens(),
       st.sampled_from(["", "\n", '\n"TZ","UTC","all"']))
def test_a_name_and_its_value_as_quoted_cells(name, value, after):
    text = f'"{name}","{value}","production"{after}'
    assert value[:12] not in SecretPatternSet().redact(text), text


def test_a_secrets_name_and_quoted_words_are_left():
    for text in ['"DB_PASSWORD","(unset)","production"', '"id","login","api_token"',
                 "helm upgrade db bitnami/postgresql --set auth.existingSecret=db-credentials",
                 "existing_secret: prod-db", "<td>net user kilo *</td>",
                 # (a dotfile's name: the shield's own `writes … a secret: .env (cp)` was
                 # redacted, found by sequences-fresh27.txt's run)
                 "writes, in the workspace, a secret: .env (cp)", "token file: .npmrc",
                 "secret: .env.production",
                 # (a template's `{{plain}}`, Dovecot's scheme's spelling: tldr's ceph page)
                 "ceph pg dump --format {{plain}}"]:
        assert SecretPatternSet().redact(text) == text


@pytest.mark.parametrize(("check", "text"), [
    ("_EXISTING", "--set auth.existingSecret=db-credentials"),  # (a Secret's name)
    ("_DOTFILE", "a secret: .env")])  # (a dotfile's name)
def test_the_look_alike_laws_catch_a_redactor_that_reads_the_name_as_a_value(
        monkeypatch, check, text):
    values = importlib.import_module("toolpipe.secrets._values")
    assert SecretPatternSet().redact(text) == text
    monkeypatch.setattr(values, check, re.compile(rb"(?!)"))
    assert SecretPatternSet().redact(text) != text


def test_the_wordless_law_catches_a_redactor_that_reads_only_lines_with_a_word(monkeypatch):
    embedded = importlib.import_module("toolpipe.secrets._embedded")
    text = HOLDERS["csv"]('curl -sS --user "deploy:7QxAbcdefgh0123" https://ci.example.com')
    assert "7QxAbcdefgh0" not in SecretPatternSet().redact(text)
    monkeypatch.setattr(embedded, "_MARK", embedded.compile_text(
        rf"(?m:{embedded._OPENER}|{embedded._HEADED})[^\n]*{embedded._WORDS}", ignore_case=True))
    package = importlib.import_module("toolpipe.secrets")  # (nor the strings that hold a
    monkeypatch.setattr(package, "held_lines", lambda text: [])  # line whatever their words)
    assert "7QxAbcdefgh0" in SecretPatternSet().redact(text)
