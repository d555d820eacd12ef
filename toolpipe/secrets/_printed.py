"""What a command that prints a credential printed (`gh auth token`, `gcloud auth
print-access-token`), and what a secret store's read printed (`pass show`, `op read`,
`aws secretsmanager get-secret-value`, a decryptor's output): the line after the command,
alone on its line; unless the name the read asked for says it holds no secret."""

from __future__ import annotations

import re

from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._several import could_be_credential
from toolpipe.secrets._values import CHECKS, _value

_PRINTED = ("auth:token", "auth token", "print-access-token", "print-identity-token",
            "get-access-token", "get-login-password", "token create", "tokens create",
            "create-token", "token generate")

# what reads a secret from a store and prints it (the shell wing's `secret = true` rows
# say the same of the commands): the line after, alone on it, is the secret
# (a general store's read, a parameter's, a key's in consul or etcd, a jsonpath's, prints
# what it was asked for: _answers reads it when the name asked for is a credential's; a
# parameter decrypted is a secret's)
_STORE_READS = ("get-secret-value", "with-decryption", "versions access", "secret show",
                "vault kv get", "vault read", "find-generic-password",
                "find-internet-password", "pass show", "gopass show", "op read", "item get",
                "bw get", "lpass show", "secret-tool lookup", "secrets get",
                "base64 -d", "base64 --decode", "keepassxc-cli show", "chamber read",
                "sops -d", "sops --decrypt", "ansible-vault view", "gpg -d", "gpg --decrypt",
                "age -d", "age --decrypt", "keyring get")


def stored(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
           ) -> str | None:
    """The line a secret store's read printed: a value a password could be, not a word."""
    return kind if could_be_credential(_value(match, groups)[0]) else None


def _read(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
          ) -> str | None:
    """A store's read, as ``stored``; unless the name it asked for says what it holds and
    that is no secret (`chamber read app region`, `pass show db/host`: a place, a name,
    an address; the eighteenth sitting's classes-fresh84)."""
    asked = buf[match.start():match.start("v")].split(b"\n", 1)[0].split()
    names = [w for w in asked if not w.startswith(b"-")]
    if names and _NOT_A_SECRET.search(names[-1].strip(b"'\"")):
        return None
    return stored(kind, match, buf, groups)


# the name of a stored value that says it holds no secret: a place, an address, a name
_NOT_A_SECRET = re.compile(rb"(?i)(?:^|[_\-./])(?:region|zone|host(?:name)?|url|uri|endpoint"
                           rb"|port|user(?:name)?|login|email|bucket|account|project|env"
                           rb"|environment|version|domain)$")


def _next_line(commands: tuple[str, ...], reach: int, value: str, check: str) -> Rule:
    """The line after one of ``commands`` (anywhere in the ``reach`` bytes of its line),
    alone on its own line: what the command printed."""
    words = "|".join(re.escape(c).replace(r"\ ", "[ \t]+") for c in commands)
    return rule("password", commands,
                rf"""(?i:{words})[^\n]{{0,{reach}}}\r?\n(?P<v>{value})[ \t]*(?:\r?\n|$)""",
                value=("v",), check=check, bounded=False, priority=CONTEXT)


PRINTED_RULES: tuple[Rule, ...] = (
    # what a command that prints a credential printed, and what a secret store's read
    # printed: the next line, alone on it
    _next_line(_PRINTED, 200, r"[A-Za-z0-9+/=_\-.~]{16,4096}", "url_password"),
    _next_line(_STORE_READS, 300, r"\S{4,4096}", "store_read"),
    # a decryptor told to decrypt after other options (`gpg -q -d F`, `gpg --batch
    # --decrypt F`, `sops --config c.yaml -d F`): what it printed, the same
    rule("password", ("gpg ", "gpg2 ", "sops "),
         r"""(?i:gpg2?|sops)(?:[ \t]+--?[\w-]{1,32}(?:[= ][^\s-][^\s]{0,255})?){1,8}?"""
         r"""[ \t]+(?:-d|--decrypt)(?=[ \t\r\n])[^\n]{0,300}\r?\n(?P<v>\S{4,4096})"""
         r"""[ \t]*(?:\r?\n|$)""", value=("v",), check="store_read", bounded=False,
         priority=CONTEXT),
)

CHECKS.update({"stored": stored, "store_read": _read})
