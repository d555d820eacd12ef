"""Redaction by context (issue 27): escapes read as boundaries, markdown tables, `key value`
config lines, client calls, the shell wing's credential options, and every provider shape
of the table caught whatever characters it draws."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from toolpipe.secrets import SecretPatternSet
from toolpipe.secrets._escapes import _ESCAPE, _WINDOWS_PATH, _break, unescaped
from toolpipe.secrets._providers import _ROWS

S = SecretPatternSet.default_common()


def reference(buf: bytes) -> bytes:
    """The escapes read one by one: each run of backslashes pairs off from its left, and
    an odd one out escapes the letter after it; a Windows path's backslashes (a drive's,
    a share's: `\\\\ab\\n`) escape nothing (since the eighteenth sitting)."""
    out, at = b"", 0
    for m in _WINDOWS_PATH.finditer(buf):
        out += _ESCAPE.sub(_break, buf[at:m.start()]) + m.group(0)
        at = m.end()
    return out + _ESCAPE.sub(_break, buf[at:])


@settings(max_examples=300)
@given(st.lists(st.sampled_from([b"\\", b"n", b"t", b"r", b"x", b"\0", b" ", b"ab"]),
                max_size=60).map(b"".join),
       st.integers(0, 3))
@example(b"\\\\n", 0)
@example(b"\\\\\\n", 0)
def test_escapes_are_read_as_a_reader_reads_them(buf, copies):
    """Both strategies (a few backslashes: each run looked at; many: bytes.replace passes)
    agree with the reference, and keep the length (spans fit the original text)."""
    text = buf + b"y" * (len(buf) * 100 * copies)  # few backslashes, when padded
    out = unescaped(text)
    assert out == reference(text) and len(out) == len(text)


def test_the_escape_property_can_fail():
    broken = _ESCAPE.sub(lambda m: m.group(0)[:-2] + b"\n ", b"a\\\\nb")  # ignores pairs
    assert broken != reference(b"a\\\\nb")


@pytest.mark.parametrize(("text", "secret"), [
    ('{"log": "ok\\npassword=Zq8vLm2Xp4Rt\\ndone"}', "Zq8vLm2Xp4Rt"),
    ("rootpw Zq8vLm2Xp4Rt", "Zq8vLm2Xp4Rt"),
    ("| env | user | password |\n|---|---|---|\n| prod | admin | Zq8vLm2Xp4Rt |",
     "Zq8vLm2Xp4Rt"),
    ("| **API token** | `Zq8vLm2Xp4RtYw` |", "Zq8vLm2Xp4RtYw"),
    ('conn = pymysql.connect("db", "root", "Zq8vLm2Xp4Rt", "shop")', "Zq8vLm2Xp4Rt"),
    ('server.login(user, "Zq8vLm2Xp4Rt")', "Zq8vLm2Xp4Rt"),
    ("sqlplus scott/Zq8vLm2Xp4Rt@orcl", "Zq8vLm2Xp4Rt"),
    ("CREATE USER 'a'@'%' IDENTIFIED WITH caching_sha2_password BY 'Zq8vLm2Xp4Rt';",
     "Zq8vLm2Xp4Rt"),
    ("Mot de passe : Zq8vLm2Xp4Rt", "Zq8vLm2Xp4Rt"),
    ("Şifre: Zq8vLm2Xp4Rt", "Zq8vLm2Xp4Rt"),
    ('NPM_AUTH="Y2ktYm90Ok5wNHNzdzByZC0yMDI2LXg"', "Y2ktYm90Ok5wNHNzdzByZC0yMDI2LXg"),
    ("smbclient //fs/share -U alice%Zq8vLm2Xp4Rt", "Zq8vLm2Xp4Rt"),
    ("username admin privilege 15 password 0 Zq8vLm2Xp4Rt", "Zq8vLm2Xp4Rt"),
    ("snmp-server community Zq8vLm2Xp4Rt RO", "Zq8vLm2Xp4Rt"),
    ("root:$6$saltsalt$" + "Zq8vLm2Xp4Rt" * 7 + ":19700:0:99999:7:::", "Zq8vLm2Xp4Rt"),
    ('env:\n  - name: DB_PASSWORD\n    value: "Zq8vLm2Xp4Rt"', "Zq8vLm2Xp4Rt"),
    ('{"Name": "API_KEY", "Value": "Zq8vLm2Xp4Rt"}', "Zq8vLm2Xp4Rt"),
    ("define( 'DB_PASSWORD', 'Zq8vLm2Xp4Rt' );", "Zq8vLm2Xp4Rt"),
    ('System.setProperty("db.password", "Zq8vLm2Xp4Rt");', "Zq8vLm2Xp4Rt"),
    ('psk="Zq8vLm2Xp4Rt"', "Zq8vLm2Xp4Rt"),
    ('masterKey: "Zq8vLm2Xp4RtYw12"', "Zq8vLm2Xp4RtYw12"),
    ("PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\nAAAAIZq8vLm2Xp4RtZq8vLm2Xp4Rt",
     "Zq8vLm2Xp4RtZq8vLm2Xp4Rt"),
])
def test_a_credential_known_by_its_place(text, secret):
    assert secret not in S.redact(text), text


@pytest.mark.parametrize("text", [
    "password reset link sent to the user",
    "| name | type | default |\n|---|---|---|\n| password | string | none |",
    "| host | port | user |\n|---|---|---|\n| db01 | 5432 | Zq8vLm2Xp4Rt |",
    "| name | password |\n|---|---|\n| admin | (unset) |",
    "server.login(user, password)",
    "npm install react/jsx@latest foo/bar@main",
    "ALTER USER app PASSWORD EXPIRE;",
    "-- reset with ALTER USER name PASSWORD 'new_password';",
    "UPDATE users SET password = crypt($1, gen_salt('bf')) WHERE id = $2;",
    "wget --user=ci --ask-password https://files.example.com/a.tgz",
    "2026-12-04 10:15:22:INFO:app:started",
    "密码：请输入您的密码",
    "bypass the cache with --no-cache",
    "snmp-server community public RO",
    "echo $1$2$3 done",
    "- name: DB_HOST\n  value: db.internal",
    '{"name": "API_KEY", "valueFrom": {"secretKeyRef": {"name": "app", "key": "api"}}}',
    "define('WP_DEBUG', false);",
    'os.environ.setdefault("DJANGO_SETTINGS_MODULE", "app.settings")',
    '{"name": "API_KEY", "region": "eu-west-1"}',
    "def f(self, value: object) -> None:",
    "apiVersion: v1\ndata:\n  mode: debug\nkind: ConfigMap\n",
    '{"sensitive": false, "value": "eu-west-1"}',
])
def test_a_look_alike_comes_out_unchanged(text):
    assert S.redact(text) == text


@settings(max_examples=40, deadline=None)
@example("Atzr|0000000|" + "0" * 92)  # (hypothesis: a `|` past the prefix hid the trigger)
@given(st.sampled_from(_ROWS).flatmap(
    lambda row: st.from_regex(re.compile(row[1]), fullmatch=True)))
def test_every_provider_shape_is_caught(token):
    """A token drawn from any row's own regex, alone or after a label, never survives."""
    for text in (token, f"key {token} end", f'"{token}"'):
        assert token not in S.redact(text), text


def test_a_table_judges_each_distinct_cell_once(monkeypatch):
    """A column of 20,000 rows holding two values is two judgements, not 20,000 (a tidy
    once moved the judgement ahead of its cache: a 1 MB table took 530 ms instead of
    160)."""
    from toolpipe.secrets import _several

    calls: list[bytes] = []
    real = _several.credential_like

    def counted(value: bytes) -> bool:
        calls.append(value)
        return real(value)

    monkeypatch.setattr(_several, "credential_like", counted)
    text = "| user | password |\n|---|---|\n" + "| bob | hunter22x |\n| amy | (unset) |\n" * 10_000
    out = SecretPatternSet.default_common().redact(text)
    assert out.count("[REDACTED:") == 10_000 and "hunter22x" not in out
    assert sorted(set(calls)) == sorted(calls) and len(calls) <= 2


def test_past_its_budget_a_credential_column_is_redacted_unjudged():
    """More distinct values than ``CELL_BUDGET`` in a credential column: the first are
    judged (a word stays), the rest are redacted without judging (fail closed), and a
    second pass changes nothing."""
    from toolpipe.secrets._several import CELL_BUDGET

    words = [f"| w{i} | placeholder |\n" for i in range(3)]
    rows = [f"| u{i} | Zq{i:05d}xK |\n" for i in range(CELL_BUDGET + 200)]
    late = "| late | changeme |\n"  # a word, first seen past the budget
    text = "| user | password |\n|---|---|\n" + "".join(words + rows) + late
    pattern = SecretPatternSet.default_common()
    out = pattern.redact(text)
    assert out.count("| placeholder |") == 3  # judged: a word
    assert "Zq00000xK" not in out and f"Zq{CELL_BUDGET + 199:05d}xK" not in out
    assert "changeme" not in out  # unjudged past the budget
    assert pattern.redact(out) == out


# The opening of each DER object, as base64 (headers only: what follows is drawn at random)
_DER_OPENINGS = {
    "certificate": ("MIICkTCCAXmgAwIBAgIBATAN", True),
    "rsa public key": ("MIIBIjANBgkqhkiG9w0BAQEF", True),
    "ec public key": ("MFkwEwYHKoZIzj0CAQYIKoZI", True),
    "pkcs8 private key": ("MIIEvwIBADANBgkqhkiG9w0B", False),
    "pkcs1 private key": ("MIIEpQIBAAKCAQEArGfb6TuD", False),
    "ec private key": ("MIGHAgEAMBMGByqGSM49AgEG", False),
    "pkcs12 keystore": ("MIIIigIBAzCCCEAGCSqGSIb3", False),
}


@pytest.mark.parametrize("name", sorted(_DER_OPENINGS))
def test_base64_of_a_certificate_or_public_key_is_public_a_private_key_is_not(name):
    """The entropy guess decodes a DER object's opening: a certificate or a public key is
    left alone, a private key or a keystore (an INTEGER first) is redacted."""
    import random
    import string

    opening, public = _DER_OPENINGS[name]
    rng = random.Random(name)
    tail = "".join(rng.choice(string.ascii_letters + string.digits + "+/")
                   for _ in range(300))
    text = f'"material": "{opening}{tail}"'
    redacted = SecretPatternSet().redact(text)
    assert (redacted == text) == public, (name, redacted[:80])


def _xxd(data: bytes) -> str:
    """What ``xxd`` prints for ``data``."""
    lines = []
    for i in range(0, len(data), 16):
        chunk = data[i:i + 16]
        hexes = " ".join(chunk[j:j + 2].hex() for j in range(0, len(chunk), 2))
        text = "".join(chr(c) if 32 <= c < 127 else "." for c in chunk)
        lines.append(f"{i:08x}: {hexes:<39}  {text}")
    return "\n".join(lines)


_CAUGHT = st.sampled_from(["token=ghp_{}", "password: {}", 'API_KEY="{}"',
                           "Authorization: Bearer {}"])


@settings(max_examples=30, deadline=None)
@given(_CAUGHT, st.text(alphabet="ghijkmnopqrstuvwxyzGHJKLMNPQRSTUVWXYZ", min_size=30,
                        max_size=30).map(lambda s: s[:10] + "7" + s[10:20] + "Q4" + s[20:]),
       st.text(alphabet="xy \n", max_size=20))
def test_a_secret_caught_as_text_is_caught_in_its_hex_dump(form, secret, before):
    """What the redactor catches as text it catches in the text's xxd dump: no 12 letters of
    the secret survive anywhere in it (echoed inputs are hex-dumped too; the secret's
    letters are no hex digits, so its hex is not mistaken for it)."""
    text = before + form.format(secret) + "\n"
    # (only what is caught as text: `XXXGG…` reads as a mask, a sample, and is left alone)
    assume(secret not in S.redact(text))
    dumped = S.redact(_xxd(text.encode()))
    # (the text column cuts it every 16 letters: pieces of 12 in one line, or across two)
    joined = "".join(line[51:] if "REDACTED" not in line else line for line in
                     dumped.splitlines())
    assert not any(secret[i:i + 12] in joined for i in range(len(secret) - 11)), dumped


def test_the_dump_check_can_fail(monkeypatch):
    """With dumps not read, the property fails."""
    from toolpipe import secrets

    monkeypatch.setattr(secrets, "dump_spans", lambda *a: [])
    patterns = SecretPatternSet.default_common()
    text = "token=ghp_" + "Ab3" * 12 + "\n"
    dumped = patterns.redact(_xxd(text.encode()))
    assert ("Ab3" * 4) in "".join(line[51:] for line in dumped.splitlines())
