"""A credential option and its value glued inside one quoted word, and a program's words
as auditd records them (the nineteenth sitting's held-out `classes-fresh89.txt`: 6 of
its 57 secret lines leaked, `+ mysql -u root '-pPW' app` as bash's xtrace shows it and
`a0="mysql" a1="-uroot" a2="-pPW"` from an EXECVE record).

The laws, over every row of the shell wing's credential table whose option takes its
value glued (`-pPW`, `--password=PW`): the word quoted whole on the row's command line is
redacted, the quotes kept; the option alone quoted (`'-p'`: a prompt) changes nothing;
the program's words as an EXECVE record's `aN="…"` are read as its list of words are.
Each shown catching its reading taken away."""

from __future__ import annotations

import importlib

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import drawn, rules_rebuilt
from toolpipe.secrets import SecretPatternSet
from toolpipe.shell import CREDENTIALS

S = SecretPatternSet.default_common()
GLUED = [(program, flag) for row in CREDENTIALS if not (row.spaced or row.percent or
                                                         row.comma or row.colon)
         for program in row.programs if " " not in program for flag in row.flags]


def _glued(flag: str, value: str) -> str:
    return f"{flag}={value}" if flag.startswith("--") else f"{flag}{value}"


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GLUED), st.sampled_from(["'", '"']), st.sampled_from(["", "+ ", "++ "]),
       st.integers(0, 2**32))
def test_an_option_glued_to_its_value_in_one_quoted_word_is_redacted(row, q, trace, seed):
    program, flag = row
    value = drawn(seed, 14)
    text = f"{trace}{program} -v {q}{_glued(flag, value)}{q} x"
    out = S.redact(text)
    assert value not in out, text
    assert f"{q}{_glued(flag, '')}" in out and out.count(q) == 2, out  # (the quotes kept)
    alone = f"{trace}{program} -v {q}{flag}{q} x"
    assert S.redact(alone) == alone


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GLUED), st.integers(0, 2**32))
def test_an_audit_record_s_words_are_read_as_a_list_of_words(row, seed):
    program, flag = row
    value = drawn(seed, 14)
    text = (f'type=EXECVE msg=audit(1733563200.123:456): argc=4 a0="{program}" a1="-v" '
            f'a2="{_glued(flag, value)}" a3="x"')
    assert value not in S.redact(text), text
    harmless = f'type=EXECVE msg=audit(1733563200.123:456): argc=2 a0="{program}" a1="-v"'
    assert S.redact(harmless) == harmless


def test_the_laws_catch_the_readings_taken_away(monkeypatch):
    contexts = importlib.import_module("toolpipe.secrets._contexts")
    argv = importlib.import_module("toolpipe.secrets._argv")
    quoted = "+ mysql -u root '-p7QxAbcdefgh0123' app"
    audit = 'a0="mysql" a1="-uroot" a2="-p7QxAbcdefgh0123"'
    assert "7QxAbcdefgh0123" not in SecretPatternSet().redact(quoted)
    assert "7QxAbcdefgh0123" not in SecretPatternSet().redact(audit)
    # the rules rebuilt without each reading: the flag rules with no quoted word, the
    # list rules with commas alone between words (each in the table's order)
    monkeypatch.setattr(contexts, "_GLUED_WORD", "")
    monkeypatch.setattr(argv, "_BETWEEN", r"""(?:[ \t]*,[ \t]*)""")
    rules_rebuilt(monkeypatch, lists=True)
    assert "7QxAbcdefgh0123" in SecretPatternSet().redact(quoted)
    assert "7QxAbcdefgh0123" in SecretPatternSet().redact(audit)
