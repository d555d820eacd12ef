"""Redaction reads only what the output cap outside it keeps (and a margin): after the cap,
the output is the same as if the whole text had been read, for texts full of secrets of
every kind at any place, and caps anywhere; a pipeline file sets the limit from its
output_limit layer."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolpipe.config import DEFAULT_PIPELINE, load_pipeline
from toolpipe.layers import redaction
from toolpipe.layers.output_limit import cap_text
from toolpipe.layers.redaction import RedactingMiddleware, SecretPatternSet, redact_content
from toolpipe.registry import ToolRegistry
from toolpipe.result import TextContent

from .secrets_corpus import load

LINES = [line.text for line in load()]
PATTERNS = SecretPatternSet.default_common()
FILLER = "build step ok: compiled 12 modules in 0.4 s\n"
# a value that redaction shortens by thousands of characters (a long quoted password)
LONG = 'password = "' + "Zq9-" * 1000 + '"\n'


def texts() -> st.SearchStrategy[str]:
    piece = st.one_of(st.sampled_from(LINES), st.just(FILLER * 20), st.just(LONG))
    return st.lists(piece, min_size=1, max_size=60).map("\n".join)


def full(text: str, limit: int) -> str:
    scrubbed = redact_content(PATTERNS, TextContent(text))
    assert isinstance(scrubbed, TextContent)
    return cap_text(scrubbed.text, limit)


def windowed(text: str, limit: int) -> str:
    scrubbed = redact_content(PATTERNS, TextContent(text), scan_limit=limit)
    assert isinstance(scrubbed, TextContent)
    return cap_text(scrubbed.text, limit)


# (found by the seventeenth sitting's run: a path after a private key's block was read as
# the block's wrapped tail, and its first place, before the window's end, redacted too)
_PATH = "src/main/java/com/example/app/controller/UserAccountManagementController.java"
_KEY_THEN_PATH = (_PATH + "\n" + "build step ok: compiled 12 modules in 0.4 s\n" * 100
                  + "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKC\nAQEAxEWO5AUgbYf2TsFO\n"
                  "7Ku2Foz+GHk5qAQGhexW\n-----END RSA PRIVATE KEY-----\n" + _PATH)


@settings(max_examples=60, deadline=None, database=None)
@given(texts(), st.integers(1, 30_000), st.sampled_from([64, 512, 8192]))
@example(_KEY_THEN_PATH, 13, 64)
def test_after_the_cap_it_is_as_if_everything_had_been_read(text, limit, margin):
    saved = redaction.SCAN_MARGIN
    redaction.SCAN_MARGIN = max(margin, 4200)  # longer than LONG's span, as the real one is
    try:
        assert windowed(text, limit) == full(text, limit)
    finally:
        redaction.SCAN_MARGIN = saved


def test_the_window_grows_when_redactions_shorten_the_head():
    text = LONG * 12 + "ghp_" + "A1b2C3d4" * 4 + "zzzz\n" + FILLER * 2000
    assert windowed(text, 8000) == full(text, 8000)
    assert "ghp_A1b2" not in windowed(text, 8000)


def test_the_check_catches_a_window_that_does_not_grow(monkeypatch):
    """Scanning the head once and keeping the rest unread leaks what shortened redactions
    pull into the cap; the comparison sees it."""
    def once(scrub, text, limit):  # type: ignore[no-untyped-def]
        window = limit + redaction.SCAN_MARGIN
        return scrub(text[:window]) + text[window:]

    monkeypatch.setattr(redaction, "_windowed", once)
    text = LONG * 12 + "token ghp_" + "A1b2C3d4" * 4 + "zzzz\n" + FILLER * 2000
    assert windowed(text, 30_000) != full(text, 30_000)
    assert "ghp_A1b2" in windowed(text, 30_000)  # the leak itself


def test_a_pipeline_file_reads_what_its_cap_keeps():
    reg = ToolRegistry()

    def layer(text: str) -> RedactingMiddleware:
        (found,) = [m for m in load_pipeline(text, reg).layers
                    if isinstance(m, RedactingMiddleware)]
        return found

    assert layer(DEFAULT_PIPELINE).scan_limit == 16384
    inside_out = ('[[layer]]\nname = "redaction"\n[[layer]]\nname = "output_limit"\n'
                  'max_chars = 100\n')
    assert layer(inside_out).scan_limit == 0  # no cap outside it: everything is read
    explicit = ('[[layer]]\nname = "output_limit"\nmax_chars = 100\n[[layer]]\n'
                'name = "redaction"\nscan_limit = 0\n')
    assert layer(explicit).scan_limit == 0
    with pytest.raises(Exception, match="scan_limit"):
        load_pipeline('[[layer]]\nname = "redaction"\nscan_limit = -1\n', reg)
