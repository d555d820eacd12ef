"""Keys in the forms wallets take them, and webhooks' placeholders (the sixteenth sitting's
held-out file `classes-fresh76.txt`: a private key handed to `new ethers.Wallet("0x…")`
leaked; a Slack webhook's documented placeholder, `…/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX`,
was redacted).

The laws: a key of 64 hex digits handed to a call that makes a wallet or an account is
redacted, the same digits as a transaction's hash or a placeholder are left; a keypair's
64 bytes as Solana writes them are redacted (`_devices`' rule), a list of numbers that are
not 64 bytes is left; a webhook whose token is a placeholder is left. Each is shown
catching the reading taken away."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpipe.secrets import SecretPatternSet
from toolpipe.secrets._values import CHECKS

S = SecretPatternSet.default_common()
HEX64 = st.from_regex(r"[0-9a-f]{64}", fullmatch=True).filter(lambda h: len(set(h)) > 8)
CALLS = st.sampled_from([
    'const wallet = new ethers.Wallet("{k}");', "account = Account.from_key('{k}')",
    "const account = privateKeyToAccount('{k}')", 'w = Wallet(private_key="{k}")',
    "const key = new SigningKey('{k}')", "acct = web3.eth.account.privateKeyToAccount('{k}')"])


@settings(max_examples=80, deadline=None)
@given(CALLS, HEX64, st.booleans())
def test_a_key_handed_to_a_wallet_s_call_is_redacted(call, digits, prefixed):
    key = ("0x" if prefixed else "") + digits
    assert digits[:24] not in S.redact(call.format(k=key)), call


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["tx: {k}", 'receipt = w3.eth.get_transaction_receipt("{k}")',
                        "block hash {k} confirmed", 'getTransaction("{k}")']), HEX64)
def test_the_same_digits_as_a_hash_are_left(form, digits):
    text = form.format(k="0x" + digits)
    assert S.redact(text) == text, text


BYTES = st.lists(st.integers(0, 255), min_size=64, max_size=64).filter(lambda b: len(set(b)) > 16)
KEYPAIRS = st.sampled_from([
    "$ cat ~/.config/solana/id.json\n[{b}]", "keypair = [{b}]",
    "const kp = Keypair.fromSecretKey(Uint8Array.from([{b}]));", '"secretKey": [{b}]'])


@settings(max_examples=60, deadline=None)
@given(KEYPAIRS, BYTES)
def test_a_keypair_s_bytes_are_redacted(form, numbers):
    listed = ",".join(map(str, numbers))
    assert listed not in S.redact(form.format(b=listed)), form


@pytest.mark.parametrize("text", [
    "keypair_count = [1,2,3,4,5,6,7,8,9,10]",
    "secret_key_sizes = [" + ",".join(str(300 + i) for i in range(32)) + "]",
    "pixels = [" + ",".join(str(i % 256) for i in range(48)) + "]",
    "$ cat data.json\n[" + ",".join(str(i * 7) for i in range(64)) + "]",
    "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "curl https://discord.com/api/webhooks/000000000000000000/" + "X" * 68,
    'const wallet = new ethers.Wallet("0x' + "0" * 64 + '");'])
def test_other_numbers_and_placeholders_are_left(text):
    assert S.redact(text) == text, text


@pytest.mark.parametrize("broken", ["wallet_call", "bytes_array"])
def test_the_laws_catch_a_reading_taken_away(monkeypatch, broken):
    monkeypatch.setitem(CHECKS, broken, lambda *a: None)
    redactor = SecretPatternSet.default_common()
    key = "0x" + "7d2ca814e92dac07a8656484d95dece885ea1c05a68dacac10dacb02bafbe250"
    listed = ",".join(str(n) for n in range(100, 164))
    text = {"wallet_call": f'new ethers.Wallet("{key}")',
            "bytes_array": f"keypair = [{listed}]"}[broken]
    assert (key if broken == "wallet_call" else listed) in redactor.redact(text), text
