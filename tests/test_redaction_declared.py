"""Credentials given where something is declared, printed on request, or written
Oracle's way with no client before them (the fifteenth sitting's held-out file,
`classes-fresh71.txt`: 48 of its 153 secret lines leaked and 1 of its 27 look-alikes
changed at its first run).

- An option's or a property's default, where the declaration names a credential: by
  keyword (`default=`, `defaultValue =`, `Default =`, `default_value =`, `default:`), as
  .NET's `[DefaultValue("…")]` above the property, or by position (commander's third
  argument, pflag's `StringP(NAME, SHORT, DEFAULT, USAGE)`); a field a serializer's
  annotation names (`@SerializedName("api_key") String key = "…"`). Its mirror: the same
  declarations for names that are no credential's, or defaults that are none (a path, a
  locale, nothing, the environment's), are left; and a literal that is itself a
  credential's name (`flag.String("api-key", …)`) is a name.
- A value a command was asked for by a credential's name, alone on the next line (`jq -r
  '.password'`, `echo "$API_KEY"`, `cat /run/secrets/db_password`); a name that ends in
  another word (`$TOKEN_URL`) asks for something else.
- Oracle's `user/password@service` as SQL*Plus' `CONNECT` at a line's start and as the
  value of a key named for a connection; ruby's `||=`, C#'s `??=`, perl's `//=`.
- The elements of a list under a key named for credentials (a JSON, Python or Ruby array,
  a YAML sequence), and a printf placeholder only in its own form (`%(name)s`, `%s`).
  These two, and getters by name (`dotenv get`, `terraform output`), came from the same
  sitting's second file, `classes-fresh72.txt`, and from `classes-fresh71.txt`'s values
  drawn again.

Each law is a grid drawn by hypothesis, and is shown catching the reading taken away."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import tokens
from toolpipe.secrets import SecretPatternSet
from toolpipe.secrets._several import SEVERAL
from toolpipe.secrets._values import CHECKS

S = SecretPatternSet.default_common()
TOKENS = tokens(14, 22)  # (random letters and digits after `7Qx`, as generators draw)
CREDENTIALS = st.sampled_from(["password", "db-password", "token", "api-key", "apikey",
                               "secret", "client-secret", "access_token", "passphrase"])
OTHERS = st.sampled_from(["output", "region", "format", "name", "locale", "host"])
DECLARATIONS = st.sampled_from([
    '@click.option("--{n}", default="{v}")', "parser.add_argument('--{n}', default='{v}')",
    '@Option(names = "--{n}", defaultValue = "{v}")', '[Option("{n}", Default = "{v}")]',
    "yargs.option('{n}', {{ type: 'string', default: '{v}' }})",
    '@ConfigProperty(name = "app.{n}", defaultValue = "{v}")',
    '#[arg(long, default_value = "{v}")]\n    {u}: String,',
    '[DefaultValue("{v}")]\npublic string {c} {{ get; set; }}',
    "program.option('--{n} <value>', 'the value', '{v}')",
    'cmd.Flags().StringP("{n}", "x", "{v}", "usage text")',
    'flag.StringVar(&v, "{n}", "{v}", "usage text")',
    '@SerializedName("{u}") String value = "{v}";',
    '@click.option(\n    "--{n}",\n    default="{v}",\n)'])


def fill(form: str, name: str, value: str) -> str:
    return form.format(n=name, v=value, u=name.replace("-", "_"),
                       c="".join(p.title() for p in name.replace("_", "-").split("-")))


@settings(max_examples=250, deadline=None)
@given(DECLARATIONS, CREDENTIALS, TOKENS)
def test_a_credential_s_default_is_redacted(form, name, token):
    text = fill(form, name, token)
    assert token[:12] not in S.redact(text), text


NOT_SECRETS = st.sampled_from(["~/.config/app/token", "en-US", "https://auth.example.com",
                               "changeme", "localhost:8080"])


@settings(max_examples=250, deadline=None)
@given(DECLARATIONS, OTHERS, TOKENS)
def test_another_option_s_default_is_left(form, name, token):
    text = fill(form, name, token)
    assert S.redact(text) == text, text


@settings(max_examples=250, deadline=None)
@given(DECLARATIONS, CREDENTIALS, NOT_SECRETS)
def test_a_credential_s_default_that_is_none_is_left(form, name, value):
    """The mirror: a path, a locale, an address, a word or a host is no credential."""
    text = fill(form, name, value)
    assert S.redact(text) == text, text


ASKED = st.sampled_from([
    "$ jq -r '.{p}' creds.json", "$ jq -r .auth.{p} ~/.config/app.json",
    "$ yq '.data.{p}' secret.yaml", '$ echo "${v}"', "$ echo ${{{v}}}",
    "$ cat /run/secrets/{f}", "$ head -1 ~/.config/app/{f}", "$ dotenv get {v}",
    "$ terraform output -raw {f}", "$ aws configure get aws_{p}", "$ fly secrets get {v}"])
VALUES = st.from_regex(r"(?:kilo|lima|tango|zulu)-(?:alpha|bravo|delta)-[0-9]{4}",
                       fullmatch=True) | TOKENS
PATHS = st.sampled_from(["password", "token", "api_key", "secret", "client_secret"])


@settings(max_examples=250, deadline=None)
@given(ASKED, PATHS, VALUES)
def test_a_value_asked_for_by_a_credential_s_name_is_redacted(asked, path, value):
    text = asked.format(p=path, v=f"DB_{path.upper()}", f=f"db_{path}") + "\n" + value
    assert value not in S.redact(text), text


@pytest.mark.parametrize("text", [
    "$ jq -r '.name' package.json\ntoolpipe-7639", "$ echo $TOKEN_URL\nauth-example-7639",
    "$ echo \"$PATH\"\n/usr/local/bin:/usr/bin", "$ jq '.token_type' r.json\nBearer",
    "$ vault kv get -field=username secret/db\napp", "cat <<EOF > ~/.pgpass\nhello\nEOF",
    "$ echo ${TOKEN_URL}\nhttps://auth.example.com/token"])
def test_a_value_asked_for_by_another_name_is_left(text):
    assert S.redact(text) == text


@pytest.mark.parametrize("text", [
    "connect app/{v}@db.example.net:1521/ORCL", "SQL> conn system/{v}", "CONNECT scott/{v}",
    "DB_CONNECT=app/{v}@db:1521/ORCL", 'export ORACLE_CONN="scott/{v}@prod"',
    'TNS_CONNECT="app/{v}@prod"', 'dsn = "app/{v}@orcl"',
    'token ||= "{v}"', 'token ??= "{v}";', "$token //= '{v}';"])
def test_a_connect_string_and_a_kept_assignment_are_redacted(text):
    token = "7QxAbc123def456Ghi"
    assert token not in S.redact(text.format(v=token)), text


@pytest.mark.parametrize("text", [
    "connect client/server architecture", "Connect app/db to the network",
    "conn_rate = bytes/seconds", "CONNECT_TIMEOUT=30/60", "token ??= null;",
    'password ||= ENV["DB_PASSWORD"]', "x //= 2", "expdp system@orcl directory=dp"])
def test_their_look_alikes_are_left(text):
    assert S.redact(text) == text


LISTS = st.sampled_from([
    '"{k}": ["{a}", "{b}"]', '"{k}": [\n  "{a}",\n  "{b}"\n]', "{k} = ['{a}', '{b}']",
    "{k}:\n  - {a}\n  - {b}\n", "{k}: ['{a}', '{b}']", ":{k} => [\"{a}\", \"{b}\"]"])
LIST_KEYS = st.sampled_from(["tokens", "api_keys", "passwords", "secrets", "credentials",
                             "API_KEYS", "secret-keys", "access_keys"])


@settings(max_examples=200, deadline=None)
@given(LISTS, LIST_KEYS, TOKENS, TOKENS)
def test_every_token_of_a_list_under_a_credential_s_key_is_redacted(form, name, a, b):
    text = form.format(k=name, a=a, b=b)
    out = S.redact(text)
    assert a[:12] not in out and b[:12] not in out, text


@settings(max_examples=120, deadline=None)
@given(LISTS, LIST_KEYS | st.sampled_from(["scopes", "tags", "hosts"]),
       st.sampled_from([("read", "write"), ("~/.aws/credentials", "/etc/ssl/k.pem"),
                        ("repo:status", "user:email"), ("admin-role", "viewer-role")]))
def test_a_list_of_words_paths_or_scopes_is_left(form, name, pair):
    text = form.format(k=name, a=pair[0], b=pair[1])
    assert S.redact(text) == text, text


@pytest.mark.parametrize(("text", "left"), [
    ("mysql --password %xwYyTIAuRFVE0Ws shop", False), ('password = "%(db_password)s"', True),
    ('password: "%s"', True), ("password = '%-12s'", True)])
def test_a_printf_placeholder_needs_its_form(text, left):
    """`%(name)s` names a value; `%xwYy…s` (a value that starts with `%` and ends with
    `s`) had been read as one (the fifteenth sitting)."""
    assert (S.redact(text) == text) == left, text


@pytest.mark.parametrize("broken", ["declared", "answered", "connect_line",
                                    "named_connection", "listed"])
def test_the_laws_catch_a_reading_taken_away(monkeypatch, broken):
    if broken == "listed":
        monkeypatch.setitem(SEVERAL, broken, lambda buf, start, found, floor: ([], found.end()))
    else:
        monkeypatch.setitem(CHECKS, broken, lambda *a: None)
    redactor = SecretPatternSet.default_common()
    token = "7QxAbc123def456Ghi"
    text = {"declared": f'@click.option("--token", default="{token}")',
            "answered": f"$ jq -r '.password' creds.json\n{token}",
            "connect_line": f"SQL> connect app/{token}",
            "named_connection": f"DB_CONNECT=app/{token}@db:1521/ORCL",
            "listed": f'"tokens": ["7QxZzz999yyy888Xxx", "{token}"]'}[broken]
    assert token in redactor.redact(text), text
