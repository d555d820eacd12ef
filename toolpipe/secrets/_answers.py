"""A value a command was asked for by a credential's name, printed alone on the next
line: a JSON or YAML path that names one (``jq -r '.password' creds.json``, ``yq
'.data.password' secret.yaml``), a variable named for one (``echo "$API_KEY"``), a file
named for one (``cat /run/secrets/db_password``), a named value got (``dotenv get
SECRET_KEY``, ``terraform output -raw db_password``), and a login's file printed whole (a
user's line, then a password's: OpenVPN's `auth-user-pass`). The stores' own reads (``vault kv get
-field=…``, ``pass show``) are ``_named``'s. The fifteenth sitting's held-out file found
the first two leaking when the value was words and digits the entropy guess lets pass."""

from __future__ import annotations

import re

from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._several import could_be_credential
from toolpipe.secrets._values import CHECKS

_WORD = (r"(?:password|passwd|passphrase|pwd|secret|token|api[-_]?key|apikey|credential|psk"
         r"|(?:access|private|signing|encryption|master|secret)[-_]?key)")
# the name in a path, a variable or a file's name (after a blank, `.`, `[`, a quote, `$`, `{`, `/`),
# ending with the word (`$TOKEN_URL` names an address); before the word, parts ending in
# a separator (`DB_`, `db.`), then letters of one case or camel case (`GH`, `github`,
# `myGithub`): not the tail of a token (`echo 0Aa0000TOKEN` asks for nothing)
_NAMED = re.compile(rb"(?:[ \t.\[$'\"/{]|\$\{?)(?:[\w.-]*[_.-])?(?:[a-z]+(?:[A-Z][a-z0-9]*)*|"
                    rb"[A-Z][a-z0-9]*(?:[A-Z][a-z0-9]*)*|[A-Z0-9]+)?(?i:" + _WORD.encode()
                    + rb")(?![\w-])")


def answered(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
             ) -> str | None:
    """The command's line names a credential where it asks for a value, and the line after
    it is a value a credential could be."""
    asked, value = match.group("cmd"), match.group("v")
    if b"<<" in asked or b"://" in value:  # (a here-document is written, not printed)
        return None
    return kind if _NAMED.search(asked) and could_be_credential(value) else None


CHECKS["answered"] = answered

_USER = re.compile(rb"[A-Za-z_][\w.@+-]{0,63}")


def login_file(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
               ) -> str | None:
    """A login's file printed (OpenVPN's `auth-user-pass`, a `.credentials`): its second
    line, after the user's, when a password could be it and the user's is a name."""
    user, value = match.group("user"), match.group("v")
    return kind if _USER.fullmatch(user) and could_be_credential(value) and (
        value != user) else None


CHECKS["login_file"] = login_file

ANSWER_RULES: tuple[Rule, ...] = (
    # a file of a user's line then a password's, printed whole (`cat /etc/openvpn/auth.txt`)
    rule("password", ("cat ", "head ", "type ", "more ", "bat "),
         r"""(?i:cat|head|type|more|bat)[ \t]+(?:-\S+[ \t]+)*[^\s|;&]*?"""
         r"""(?i:auth|cred|login|passw|pass\b|\.pass)[^\s|;&]*[ \t]*\r?\n"""
         r"""(?P<user>[^\s]{1,64})[ \t]*\r?\n(?P<v>[^\s]{4,256})[ \t]*(?:\r?\n|$)""",
         value=("v",), check="login_file", priority=CONTEXT, bounded=False,
         shape=r"""[ \t]*(?:-\S+[ \t]+)*[^\s|;&]{0,200}?(?i:auth|cred|login|pass)"""),
    rule("password", ("jq ", "yq ", "gojq ", "jaq ", "dasel ", "echo ", "printf ", "cat ",
                      "head ", "tail ", "get ", "output ", "show ", "nmcli ", "get-parameter"),
         r"""(?i:jq|yq|gojq|jaq|dasel|echo|printf|cat|head|tail|get(?:-parameter)?|output|show"""
         r"""|nmcli)"""
         r"""(?P<cmd>[ \t][^\n]{0,300})"""
         r"""\r?\n[ \t]*(?P<v>[^\s]{4,4096})[ \t]*(?:\r?\n|$)""",
         value=("v",), check="answered", priority=CONTEXT,
         # (the name as the check reads it, never a label's: `[REDACTED:password]` after
         # a redaction must make no trigger the first reading had not)
         # (bounded: each union's match runs to where its shape ends, and one to a line's
         # end took a megabyte line of `echo echo …` 8 s, each match read to its end)
         shape=r"""(?:[^\n]{0,300}?[ \t.\[$'"/{])?[\w.-]{0,64}?(?i:""" + _WORD
               + r""")(?:[^\w\n-][^\n]{0,300})?\r?\n[ \t]*[^\s]{4}"""),
)
