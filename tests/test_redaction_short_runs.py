"""A random token of 32 to 39 characters with no key to name it is guessed at as often as a
longer one: the entropy guess's bars (4.5 bits a character, 2^4.5 distinct characters)
stand lower the shorter the run, by what a sample of that length shows less than a
40-character one of the same randomness (`_entropy._short_slack`). Before the twelfth
sitting a third of random 32-character tokens fell under the bars (a notebook's output
`'6Xtpaj…'`, 4.48 bits, leaked in classes-fresh67.txt once its lines were drawn again).
Identifiers a system gives its own records (`versionId=`, `RequestId:`) stay public."""

from __future__ import annotations

import importlib
import random
import string

import pytest

from toolpipe.secrets import SecretPatternSet

ALPHABET = string.ascii_letters + string.digits


def _guessed(length: int, count: int = 300) -> float:
    """The share of ``count`` random tokens of ``length`` (each with an upper-case letter,
    a lower-case one and a digit, as real tokens have) redacted where no key names them."""
    rng = random.Random(length)
    patterns = SecretPatternSet()
    hits = 0
    for _ in range(count):
        token = (rng.choice(string.ascii_uppercase) + rng.choice(string.ascii_lowercase)
                 + rng.choice(string.digits)
                 + "".join(rng.choice(ALPHABET) for _ in range(length - 3)))
        hits += patterns.redact(f"value {token} found in cache") == (
            "value [REDACTED:high_entropy] found in cache")
    return hits / count


@pytest.mark.parametrize("length", [32, 35, 39])
def test_random_tokens_of_32_to_39_characters_are_guessed_at(length):
    assert _guessed(length) >= 0.95


def test_the_short_token_law_catches_bars_fixed_for_any_length(monkeypatch):
    entropy = importlib.import_module("toolpipe.secrets._entropy")
    monkeypatch.setattr(entropy, "_SHORT_SLACK", {})
    assert _guessed(32) < 0.8


@pytest.mark.parametrize("text", [
    "https://bucket.s3.amazonaws.com/key?versionId=3HL4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY",
    '"RequestId": "7Qx4kqtJlcpXroDTDmJrmSpXd3dIbrHY9a"',
    "x-amz-request-id: 4Wq8TzK2mPx7Lr3NvB9cYd5Hj1Fg6Ks0",
    "traceId=9Ab3Cd5Ef7Gh1Jk3Lm5Np7Qr9St1Uv3Wx",
])
def test_an_identifier_a_system_gives_its_records_is_left(text):
    assert SecretPatternSet().redact(text) == text
