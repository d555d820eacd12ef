"""Credentials a schema declares, a general store prints, or a list of records holds (the
sixteenth sitting's held-out file, `classes-fresh73.txt`: 12 of its 114 secret lines
leaked and 2 of its 15 look-alikes changed at its first run).

- A schema member's default or example, where the member is named for a credential: JSON
  Schema's and OpenAPI's `"password": {"type": "string", "default": "…"}` (on one line or
  over lines, `examples: ["…"]` too), OpenAPI's YAML, CloudFormation's `DBPassword:⏎
  Type: String⏎ Default: …`, HCL's `variable "db_password" { default = "…" }`, an
  action's `inputs:`. The member's name is its holder's key (the key before the `{`, or
  the YAML line above indented less), never a sibling's.
- A general store's read (consul's and etcd's keys, SSM's parameters, a jsonpath) prints
  what it was asked for: a credential when the name asked for is one's, or when the
  parameter is decrypted; `consul kv get shop/db/host` printed a host that had been
  redacted as a password.
- `creds`, a credentials' list by its short name, and its records' tokens.
- A login's file printed whole (a user's line, then a password's: OpenVPN's
  `auth-user-pass`), from the same sitting's `classes-fresh75.txt`.

Each law is a grid drawn by hypothesis, and is shown catching the reading taken away."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import tokens
from toolpipe.secrets import SecretPatternSet
from toolpipe.secrets._values import CHECKS

S = SecretPatternSet.default_common()
VALUES = st.from_regex(r"(?:kilo|lima|tango|zulu)-(?:alpha|bravo|delta)-[0-9]{4}",
                       fullmatch=True) | tokens(14, 22)
SCHEMAS = st.sampled_from([
    '{{"properties": {{"{n}": {{"type": "string", "default": "{v}"}}}}}}',
    '"{n}": {{\n  "type": "string",\n  "default": "{v}"\n}}',
    '"{n}": {{ "type": "string", "examples": ["{v}"] }}',
    "components:\n  schemas:\n    Login:\n      properties:\n        {n}:\n"
    "          type: string\n          example: {v}",
    "Parameters:\n  {c}:\n    Type: String\n    NoEcho: true\n    Default: {v}",
    'variable "{n}" {{\n  type    = string\n  default = "{v}"\n}}',
    "inputs:\n  {n}:\n    description: 'the value'\n    default: '{v}'"])
NAMES = st.sampled_from(["password", "db_password", "api_token", "client_secret", "apiKey",
                         "secret_key", "passphrase"])
OTHERS = st.sampled_from(["region", "db_host", "image_tag", "bucket", "cluster_name"])


def fill(form: str, name: str, value: str) -> str:
    camel = "".join(p[:1].upper() + p[1:] for p in name.split("_"))
    return form.format(n=name, v=value, c=camel)


@settings(max_examples=200, deadline=None)
@given(SCHEMAS, NAMES, VALUES)
def test_a_schema_member_s_default_is_redacted_where_it_is_named_for_a_credential(
        form, name, value):
    text = fill(form, name, value)
    assert value not in S.redact(text), text


@settings(max_examples=150, deadline=None)
@given(SCHEMAS, OTHERS, VALUES)
def test_another_member_s_default_is_left(form, name, value):
    text = fill(form, name, value)
    assert S.redact(text) == text, text


@pytest.mark.parametrize("text", [
    "properties:\n  password:\n    type: string\n  region:\n    default: eu-central-1a7",
    "properties:\n  password:\n    type: string\n  region:\n    default: kilo-alpha-7731",
    '{"password": {"type": "string"}, "region": {"default": "kilo-alpha-7731"}}',
    '"password": {"type": "string", "default": ""}', "password:\n  default: ${DB_PASSWORD}",
    "DBPassword:\n  Default: '{{resolve:secretsmanager:prod/db:SecretString:password}}'"])
def test_a_sibling_s_name_or_a_reference_is_no_credential_s_default(text):
    assert S.redact(text) == text, text


READS = st.sampled_from([
    "$ consul kv get shop/{k}", "$ etcdctl get /config/{k} --print-value-only",
    "$ aws ssm get-parameter --name /prod/{k} --query Parameter.Value --output text",
    "$ kubectl get configmap app -o jsonpath='{{.data.{k}}}'"])
KEYS = st.sampled_from(["db/password", "db_password", "api_token", "secret_key"])
PLAIN_KEYS = st.sampled_from(["db/host", "db/port", "region", "replicas"])
PLAIN_VALUES = st.sampled_from(["db.internal.example.net", "5432", "eu-central-1", "3"])


@settings(max_examples=120, deadline=None)
@given(READS, KEYS, VALUES)
def test_a_general_store_s_read_of_a_credential_s_name_is_redacted(read, name, value):
    text = read.format(k=name) + "\n" + value
    assert value not in S.redact(text), text


@settings(max_examples=120, deadline=None)
@given(READS, PLAIN_KEYS, PLAIN_VALUES)
def test_one_of_another_name_is_left(read, name, value):
    text = read.format(k=name) + "\n" + value
    assert S.redact(text) == text, text


@settings(max_examples=40, deadline=None)
@given(PLAIN_KEYS, VALUES)
def test_a_decrypted_parameter_is_a_secret_whatever_its_name(name, value):
    text = (f"$ aws ssm get-parameter --name /prod/{name} --with-decryption --query "
            f"Parameter.Value --output text\n{value}")
    assert value not in S.redact(text), text


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(['creds = [("admin", "{a}"), ("ci", "{b}")]',
                        'CREDS: ["{a}", "{b}"]', "creds:\n  - {a}\n  - {b}\n"]),
       tokens(14, 22), tokens(14, 22))
def test_every_token_of_a_creds_list_is_redacted(form, a, b):
    out = S.redact(form.format(a=a, b=b))
    assert a[:12] not in out and b[:12] not in out, form


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["cat", "head -2", "more", "bat -p"]),
       st.sampled_from(["/etc/openvpn/auth.txt", "~/.vpn/credentials", "login.conf",
                        "./pass.txt", "/run/secrets/db_auth"]),
       st.sampled_from(["vpnuser", "admin", "deploy@example.com", "svc_backup"]), VALUES)
def test_a_login_s_file_printed_whole_leaves_its_user_and_not_its_password(
        command, path, user, value):
    """(the sixteenth sitting's fourth file, `classes-fresh75.txt`: an OpenVPN credentials
    file, a user's line then a password's, leaked)"""
    text = f"$ {command} {path}\n{user}\n{value}"
    out = S.redact(text)
    assert value not in out and f"\n{user}\n" in out, text


@pytest.mark.parametrize("text", [
    "$ cat auth.log\nDec 7 sshd[1]: Accepted\nmore", "$ cat login.txt\nwelcome\nhello",
    "$ cat README.md\ntitle\ntext-here-1", "$ cat auth.conf\n[main]\nenabled=true"])
def test_other_files_of_two_lines_are_left(text):
    assert S.redact(text) == text, text


@pytest.mark.parametrize("broken", ["schema_member", "answered", "login_file"])
def test_the_laws_catch_a_reading_taken_away(monkeypatch, broken):
    monkeypatch.setitem(CHECKS, broken, lambda *a: None)
    redactor = SecretPatternSet.default_common()
    value = "kilo-alpha-7731"
    text = {"schema_member": f"Parameters:\n  DBPassword:\n    Type: String\n    Default: {value}",
            "answered": f"$ etcdctl get /config/secret_key --print-value-only\n{value}",
            "login_file": f"$ cat /etc/openvpn/auth.txt\nvpnuser\n{value}"}[broken]
    assert value in redactor.redact(text), text


def test_the_look_alike_law_catches_a_reader_of_every_store_read():
    """A reader that takes every general store's read for a secret's (as the stores' rule
    did before this sitting: the line after, when a password could be it) changes a host."""
    import re

    def every_read(text: str) -> str:
        return re.sub(r"((?:kv get|etcdctl get|get-parameter|jsonpath)[^\n]*\n)(\S{4,})",
                      r"\1[REDACTED:password]", S.redact(text))

    text = "$ consul kv get shop/db/host\ndb.internal.example.net"
    assert S.redact(text) == text and every_read(text) != text
