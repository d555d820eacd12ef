"""Credentials in code by their place (the eighteenth sitting's held-out
`classes-fresh83.txt`: `client.auth("alice", "…")` leaked, a value a formatter wrapped in
parentheses under its name leaked, and one whose trailing comment names it; and
`NetworkCredential(user, password, domain)` had `domain` redacted, a call's arguments
read as a CSV row).

The laws: a call named for signing in or for credentials, given a user and a password
literal, has the password redacted, unless it repeats the user (a default pair); a string
wrapped in parentheses under a credential's name is redacted; a line's one token-shaped
literal, whose trailing comment names a credential, is redacted; a call's arguments are
never read as a table's cells. Each shown catching the reading taken away."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import drawn
from toolpipe.secrets import SecretPatternSet

S = SecretPatternSet.default_common()
CALLS = st.sampled_from(["client.auth", "api.authenticate", "session.logon", "svc.signin",
                         "conn.setCredentials", "builder.withCredentials", "x.sign_in",
                         "server.login", "aiohttp.BasicAuth"])
QUOTES = st.sampled_from(['"', "'"])


@settings(max_examples=100, deadline=None)
@given(CALLS, QUOTES, st.sampled_from(["alice", "deploy@example.com", "svc-ci"]),
       st.integers(0, 2**32))
def test_a_password_given_to_a_sign_in_call_is_redacted(call, q, user, seed):
    value = drawn(seed, 14)
    text = f"{call}({q}{user}{q}, {q}{value}{q})"
    assert value not in S.redact(text), text
    same = f"{call}({q}{user}{q}, {q}{user}{q})"  # (a default pair: the user again)
    assert S.redact(same) == same


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["PDO->__construct({d}, {u}, {v})", "PDO::__construct({d}, {u}, {v})",
                        "mysqli->__construct({h}, {u}, {v})", "new mysqli({h}, {u}, {v}, 'app')",
                        "$m->real_connect({h}, {u}, {v})",
                        "mysqli_real_connect($link, {h}, {u}, {v}, 'app')",
                        "new PDO({d}, {u}, {v})"]), QUOTES, st.integers(0, 2**32))
def test_a_database_client_s_password_is_redacted_where_a_stack_trace_shows_it(shape, q,
                                                                               seed):
    """The twenty-first sitting's classes-fresh99.txt: a PHP stack trace's constructor
    (`#0 db.php(12): PDO->__construct('dsn', 'root', '…')`) leaked; and mysqli's
    `mysqli_real_connect`, whose password is the fourth argument, had been read as the
    third's (its user)."""
    value = drawn(seed, 14)
    text = "#0 /var/www/app/db.php(12): " + shape.format(
        d=f"{q}mysql:host=db;dbname=app{q}", h=f"{q}db{q}", u=f"{q}root{q}", v=f"{q}{value}{q}")
    out = S.redact(text)
    assert value not in out, text
    assert f"{q}root{q}" in out, out
    other = f"#1 Cache->__construct({q}db{q}, {q}root{q}, {q}{value}{q})"  # (another
    assert S.redact(other) == other  # class's third argument is no password)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["API_KEY", "api_key", "client_secret", "db_password", "token"]),
       st.sampled_from(["", "    ", "\t"]), st.integers(0, 2**32))
def test_a_value_wrapped_in_parentheses_under_its_name_is_redacted(name, indent, seed):
    value = drawn(seed, 21)
    text = f'{indent}{name} = (\n{indent}    "{value}"\n{indent})\n'
    assert value not in S.redact(text), text
    text = f'Client(\n    {name}=(\n        "{value}"\n    ),\n)'
    assert value not in S.redact(text), text


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["#", "//", "--"]),
       st.sampled_from(["the API token", "prod password", "service secret", "api key"]),
       st.integers(0, 2**32))
@example("#", "the API token", 203)  # (its first token holds `…XpwPg`: no key inside a word)
def test_a_literal_whose_trailing_comment_names_it_is_redacted(mark, label, seed):
    value = drawn(seed, 21)
    text = f'headers = {{"X-Custom": "{value}"}}  {mark} {label}'
    assert value not in S.redact(text), text
    # (two literals: which one the comment names is not said; both stay)
    two = f'f("{value}", "{drawn(seed + 1, 21)}")  {mark} {label}'
    assert S.redact(two) == two


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["NetworkCredential", "new Login", "hash", "connectWith"]),
       st.sampled_from(["domain", "salt", "options", "realm", "callback"]))
def test_a_call_s_arguments_are_no_table_row(call, after):
    text = f"var x = {call}(user, password, {after});"
    assert S.redact(text) == text


def test_the_laws_catch_the_readings_taken_away(monkeypatch):
    import importlib
    import re

    said = importlib.import_module("toolpipe.secrets._said")
    tabular = importlib.import_module("toolpipe.secrets._tabular")
    commented = 'headers = {"X-Custom": "7QxAbcdefgh0123456789x"}  # the API token'
    assert "7QxAbcdefgh0" not in SecretPatternSet().redact(commented)
    monkeypatch.setattr(said, "_commented", lambda buf, start: [])
    assert "7QxAbcdefgh0" in SecretPatternSet().redact(commented)
    values = importlib.import_module("toolpipe.secrets._values")
    call = 'client.auth("alice", "7QxAbcdefgh01234")'
    assert "7QxAbcdefgh0" not in SecretPatternSet().redact(call)
    monkeypatch.setitem(values.CHECKS, "call_password", lambda *args: None)
    assert "7QxAbcdefgh0" in SecretPatternSet().redact(call)
    row = "var x = NetworkCredential(user, password, domain);"
    monkeypatch.setattr(tabular, "_CALL_ARGUMENTS", re.compile(rb"(?!)"))
    assert SecretPatternSet().redact(row) != row


# --- a Windows path's backslashes part folders (the eighteenth sitting's classes-fresh86:
# `schtasks … /tr C:\jobs\run.bat … /rp PW` leaked, `\r` read as an escape that broke the
# command line before the password's flag)

WINDOWS_PATHS = st.sampled_from(["C:\\jobs\\run.bat", "C:\\new\\task.cmd", "D:\\tools\\t.exe",
                                 "\\\\files\\new\\run.bat", "c:\\Users\\r\\n.ps1"])


@settings(max_examples=80, deadline=None)
@given(WINDOWS_PATHS, st.sampled_from(["schtasks /create /tn x /tr {p} /ru svc /rp {v}",
                                       "psexec -u alice -p {v} {p}",
                                       "{p} --password {v}"]), st.integers(0, 2**32))
def test_a_windows_path_s_backslashes_escape_nothing(path, form, seed):
    value = drawn(seed, 14)
    text = form.format(p=path, v=value)
    assert value not in S.redact(text), text
    # (an escape outside a path is one still: JSON's `\n` before a key)
    escaped = f'{{"msg": "{path.replace(chr(92), chr(92) * 2)} done\\npassword={value}"}}'
    assert value not in S.redact(escaped), escaped


def test_the_windows_path_law_catches_paths_read_as_escapes(monkeypatch):
    import importlib
    import re

    escapes = importlib.import_module("toolpipe.secrets._escapes")
    text = "schtasks /create /tn x /tr C:\\jobs\\run.bat /ru svc /rp 7QxAbcdefgh01234"
    assert "7QxAbcdefgh0" not in SecretPatternSet().redact(text)
    monkeypatch.setattr(escapes, "_WINDOWS_PATH", re.compile(rb"(?!)"))
    assert "7QxAbcdefgh0" in SecretPatternSet().redact(text)
