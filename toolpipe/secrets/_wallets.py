"""A private key handed to the call that makes a wallet or an account of it (``new
ethers.Wallet("0x…")``, web3's and viem's ``privateKeyToAccount``, eth-account's
``Account.from_key``, a ``SigningKey``): 0x and 64 hex digits are a transaction's hash
as often, so the call says what they are. (A keypair written as a JSON array of its 64
bytes, Solana's, is ``_devices``'.) The sixteenth sitting's held-out file found it
leaking."""

from __future__ import annotations

import re

from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._values import CHECKS


def wallet_call(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                ) -> str | None:
    """A key of 64 hex digits that is no placeholder (`0x000…0`, `0xabab…`: a few digits)."""
    return kind if len(set(match.group("v").lower().removeprefix(b"0x"))) > 4 else None


CHECKS["wallet_call"] = wallet_call

WALLET_RULES: tuple[Rule, ...] = (
    rule("private_key", ("wallet(", "privatekeytoaccount(", "from_key(", "fromprivatekey(",
                         "signingkey(", "privatekey("),
         r"""(?i:wallet|privatekeytoaccount|from_key|fromprivatekey|signingkey|privatekey)"""
         r"""\(\s*(?:(?:private_?key|key)\s*[=:]\s*)?["'](?P<v>(?:0x)?[0-9a-fA-F]{64})["']""",
         value=("v",), check="wallet_call", priority=CONTEXT, bounded=False),
)
