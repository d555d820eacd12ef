"""Echoed inputs in every form a tool may print them back: escaped, encoded, cased,
hex-dumped, base64-encoded, truncated or wrapped; none leaves 12 characters of the value
(the corpus' measure of a leak) with the option on."""

from __future__ import annotations

import base64
import json
import urllib.parse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpipe.layers import redaction
from toolpipe.layers.redaction import ECHO_LABEL, SecretPatternSet, redact_content
from toolpipe.result import TextContent
from toolpipe.secrets import _echo

from .secrets_corpus import leaked

PATTERNS = SecretPatternSet.default_common().without_builtin().without_entropy()


def printed(value: str) -> dict[str, str]:
    """How a tool may print ``value`` back."""
    raw = value.encode()
    return {
        "as given": f"password set to {value}.",
        "json": json.dumps({"password": value, "note": "saved"}),
        "json inside json": json.dumps({"body": json.dumps({"pw": value})}),
        "url": "GET /login?pw=" + urllib.parse.quote(value, safe="") + "&next=/",
        "url plus": "form: pw=" + urllib.parse.quote_plus(value),
        "upper": f"PASSWORD: {value.upper()}",
        "lower": f"password: {value.lower()}",
        "hex": f"dump: {raw.hex()}",
        "hex spaced": "dump: " + " ".join(f"{b:02x}" for b in raw),
        "hex upper": f"dump: {raw.hex().upper()}",
        "base64": "auth " + base64.b64encode(raw).decode(),
        "base64 inside": "Basic " + base64.b64encode(b"admin:" + raw).decode(),
        "base64 url-safe": base64.urlsafe_b64encode(b"xy" + raw).decode(),
        "truncated": f"using {value[:14]}… (truncated)",
        "cut at the end": f"…{value[-13:]}",
        "wrapped": value[:9] + "\n" + value[9:20] + "\n" + value[20:],
        "wrapped and indented": "  " + value[:10] + "\n    " + value[10:],
    }


VALUES = ["Tr0ub4dor&3-horse-battery", "correct horse battery staple", "p@ss/w0rd+x=y?z 9",
          "AKIA-not-real-0000-ZZZZ"]
CASES = [(v, form, text) for v in VALUES for form, text in printed(v).items()]


def scrub(text: str, value: str) -> str:
    out = redact_content(PATTERNS, TextContent(text), (value,))
    assert isinstance(out, TextContent)
    return out.text


@pytest.mark.parametrize(("value", "form", "text"), CASES,
                         ids=[f"{i}-{c[1]}" for i, c in enumerate(CASES)])
def test_every_printed_form_is_redacted(value, form, text):
    out = scrub(text, value)
    assert ECHO_LABEL in out
    for shown in (value, value.upper(), value.lower(), json.dumps(value)[1:-1]):
        assert not leaked(shown, out), (form, out)


@settings(max_examples=60, deadline=None, database=None)
@given(st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=12, max_size=60),
       st.sampled_from(sorted(printed("x" * 30))))
def test_any_value_in_any_form(value, form):
    out = scrub(printed(value)[form], value)
    assert not leaked(value, out) or not leaked(value, printed(value)[form]), (form, out)


def test_text_without_the_value_is_left_alone():
    text = "password set to something else entirely, dump: 00ff, auth Zm9vYmFy"
    assert scrub(text, "Tr0ub4dor&3-horse-battery") == text


def test_the_forms_catch_what_a_plain_search_leaves(monkeypatch):
    monkeypatch.setattr(redaction, "redact_echoes", lambda text, values, label: "".join(
        text.replace(v, label) for v in values))
    leaks = [form for v, form, text in CASES if leaked(v, scrub(text, v))]
    assert len(leaks) >= 15  # hex, base64, truncated, wrapped, cased…


def test_the_pattern_is_kept_for_the_same_inputs():
    _echo.echo_pattern.cache_clear()
    for _ in range(3):
        scrub("x", "Tr0ub4dor&3-horse-battery")
    assert _echo.echo_pattern.cache_info().hits == 2


def test_values_with_new_lines_and_huge_values_do_not_break_it():
    multi = "first line of a secret note\nsecond line: Tr0ub4dor&3"
    assert not leaked(multi, scrub(f"saved:\n{multi}\nok", multi))
    huge = "Zq9-" * 50_000  # a file's content handed to a tool, echoed back
    out = scrub(f"wrote {huge} done", huge)
    assert huge not in out and out.startswith("wrote ") and out.endswith(" done")
