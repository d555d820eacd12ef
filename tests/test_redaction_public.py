"""Keys made to be public (Stripe's publishable keys, Supabase's, PostHog's project key,
Langfuse's public key): the seventeenth sitting's `classes-fresh79.txt` found `the project
key is phc_…` redacted, a sentence that says a key read as a password said.

The law: a key made to be public is left in every context a secret is found in, and the
same context around its secret counterpart is redacted; shown catching a reader that
no longer leaves them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import tokens
from toolpipe.secrets import SecretPatternSet

S = SecretPatternSet.default_common()
CONTEXTS = st.sampled_from(["the project key is {}", "api_key={}", "token: {}",
                            '{{"api_key": "{}"}}', "export STRIPE_KEY={}",
                            "Authorization: Bearer {}"])
PAIRS = st.sampled_from([("pk_live_", "sk_live_"), ("pk_test_", "sk_test_"),
                         ("sb_publishable_", "sb_secret_"), ("phc_", "phx_"),
                         ("pk-lf-", "sk-lf-")])


@settings(max_examples=120, deadline=None)
@given(CONTEXTS, PAIRS, tokens(24, 40))
def test_a_public_key_is_left_where_its_secret_is_redacted(context, pair, body):
    public, secret = pair
    shown = context.format(public + body)
    assert S.redact(shown) == shown
    hidden = context.format(secret + body)
    assert body[:12] not in S.redact(hidden), hidden


def test_the_law_catches_a_reader_that_redacts_public_keys(monkeypatch):
    import importlib

    scan = importlib.import_module("toolpipe.secrets._scan")
    text = "the project key is phc_7QxAbcdefgh0123456789abcdefgh"
    assert S.redact(text) == text
    monkeypatch.setattr(scan, "PUBLIC_PREFIXES", (b"\x00",))
    assert SecretPatternSet.default_common().redact(text) != text
