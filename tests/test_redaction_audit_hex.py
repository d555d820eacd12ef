"""Credentials as tracing tools record a command line (the twentieth sitting's held-out
`classes-fresh92.txt`: 6 of its 51 secret lines leaked): auditd's fields written in hex
(an EXECVE argument with a blank or a quote in it, a process's title, its arguments
joined by NULs; sudo's `cmd=`), and a command line with every word quoted
(`redis-cli "-a" "PW"`, as a process list or a service's unit shows one).

The laws, over every row of the shell wing's credential table: the title of the row's
command line in hex hides the value's hex, and a title of harmless words is left as
written; the option quoted alone, its value the next quoted word, is redacted, and the
next word when it is an option is not. Each shown catching its reading taken away."""

from __future__ import annotations

import importlib

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import drawn, rules_rebuilt
from toolpipe.secrets import SecretPatternSet
from toolpipe.shell import CREDENTIALS

S = SecretPatternSet.default_common()
PLAIN = [row for row in CREDENTIALS if not (row.percent or row.comma or row.colon)]
GLUED = [(program, flag) for row in PLAIN if not row.spaced
         for program in row.programs if " " not in program for flag in row.flags]
SEPARATE = [(program, flag) for row in PLAIN if not row.attached
            for program in row.programs if " " not in program for flag in row.flags]
STAMP = "msg=audit(1733600000.102:78):"


def _hex(text: str) -> str:
    return text.encode().hex().upper()


def _title(*words: str) -> str:
    return f"type=PROCTITLE {STAMP} proctitle={_hex(chr(0).join(words))}"


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GLUED), st.integers(0, 2**32))
def test_a_process_title_in_hex_hides_the_credential_s_hex(row, seed):
    program, flag = row
    value = drawn(seed, 14)
    glued = f"{flag}={value}" if flag.startswith("--") else f"{flag}{value}"
    text = _title(program, "-v", glued, "x")
    out = S.redact(text)
    assert all(_hex(value)[i:i + 12] not in out for i in range(0, 2 * len(value) - 11, 2)), out
    assert out.startswith(f"type=PROCTITLE {STAMP} proctitle={_hex(program)}"), out
    harmless = _title(program, "-v", "--verbose", "x")
    assert S.redact(harmless) == harmless


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(SEPARATE), st.sampled_from(["'", '"']), st.integers(0, 2**32))
def test_an_option_quoted_alone_is_followed_by_its_value(row, q, seed):
    program, flag = row
    value = drawn(seed, 14)
    text = f"app 2211 0.3 /usr/bin/{program} {q}-v{q} {q}{flag}{q} {q}{value}{q} {q}x{q}"
    out = S.redact(text)
    assert value not in out, text
    assert f"{q}{flag}{q} " in out, out
    another = f"/usr/bin/{program} {q}{flag}{q} {q}-v{q} {q}x{q}"
    assert S.redact(another) == another


def test_the_laws_catch_the_readings_taken_away(monkeypatch):
    face = importlib.import_module("toolpipe.secrets")
    contexts = importlib.import_module("toolpipe.secrets._contexts")
    title = _title("mysql", "-uroot", "-p7QxAbcdefgh0123")
    quoted = '/usr/bin/redis-cli "-a" "7QxAbcdefgh0123" ping'
    assert _hex("7QxAbcdefgh0123") not in SecretPatternSet().redact(title)
    assert "7QxAbcdefgh0123" not in SecretPatternSet().redact(quoted)
    monkeypatch.setattr(face, "audit_lines", lambda text: [])
    monkeypatch.setattr(contexts, "_QUOTED_ALONE", "")
    rules_rebuilt(monkeypatch)
    assert _hex("7QxAbcdefgh0123") in SecretPatternSet().redact(title)
    assert "7QxAbcdefgh0123" in SecretPatternSet().redact(quoted)
