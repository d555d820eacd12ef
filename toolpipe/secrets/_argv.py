"""Credentials in a command line written as a list of words: a program's arguments in
Kubernetes' `args:`, a Dockerfile's exec form, Python's and Node's process calls, a JSON
array, a YAML block list. The credential options of the shell wing's table, the word
after the option (or glued to it), and any option named for a credential.
"""

from __future__ import annotations

import re

from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._values import CHECKS, line_start, url_password
from toolpipe.shell import CREDENTIALS, Credential


def _list_rule(row: Credential) -> Rule:
    """The same options in a command line written as a list of words (`["sshpass", "-p",
    "…"]`, `spawn("redis-cli", ["-a", "…"])`, Kubernetes' `args:`, a Dockerfile's exec
    form): the program's name quoted, then its words, each quoted, the option's value the
    word after it (or glued to it: `"-p…"`, `"--password=…"`)."""
    names = "|".join(re.escape(p) for p in sorted(row.programs, key=len, reverse=True)
                     if " " not in p)
    item = rf"""["'][^"'\n]{{0,256}}["']{_BETWEEN}"""
    separate = [re.escape(f) + rf"""["']{_BETWEEN}["']""" for f in row.flags
                if not row.attached]
    glued = glued_flags(row)
    options = "|".join(sorted(separate + glued, key=len, reverse=True))
    return rule("password", tuple(p for p in row.programs if " " not in p),
                rf"""(?:{names})["']{_BETWEEN}\[?[ \t]*(?:{item}){{0,24}}?["']"""
                rf"""(?:{options})(?P<v>[^"'\s][^"'\n]{{0,255}})["']""",
                value=("v",), check="url_password", bounded=False, priority=CONTEXT,
                shape=r"""["'](?:[ \t]*,|[ \t]+a\d)""")  # (the name's closing quote, then
    # the list)


def glued_flags(row: Credential) -> list[str]:
    """A row's options as they are glued to their value (`-pPW`, `--password=PW`), longest
    first, as regexes; none when the row's options take their value apart only."""
    return [] if row.spaced else [re.escape(f) + ("=" if f.startswith("--") else "")
                                  for f in sorted(row.flags, key=len, reverse=True)]


# between two words of a list: a comma, or auditd's next argument (`a0="mysql" a1="-u…"`,
# an EXECVE record's words)
_BETWEEN = r"""(?:[ \t]*,[ \t]*|[ \t]+a\d{1,3}=)"""


_LISTED_WORDS = ("password", "passwd", "passphrase", "pass", "pwd", "token", "secret",
                 "api-key", "api_key", "apikey", "access-key", "access_key", "private-key",
                 "private_key", "credential", "credentials", "auth")
# the words as the rules' regexes spell them (each rule is tried only where its trigger,
# one of these words, stands)
_LISTED = "|".join(re.escape(w) for w in sorted(_LISTED_WORDS, key=len, reverse=True))
_OPTION_ITEM = re.compile(rb"""["']--?[A-Za-z0-9][\w.\-]{0,62}$""")


def listed_option(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                  ) -> str | None:
    """The word before the value is an option (`"--db-password"`), its quote the same."""
    start = match.start()
    opened = max(buf.rfind(b'"', max(0, start - 64), start),
                 buf.rfind(b"'", max(0, start - 64), start))
    if opened < 0 or buf[opened:opened + 1] != match.group("q") or not _OPTION_ITEM.match(
            buf[opened:match.start("q")]):
        return None
    return url_password(kind, match, buf, groups)


CHECKS["listed_option"] = listed_option
_YAML_OPTION_ITEM = re.compile(rb"[ \t]*-[ \t]+--?[A-Za-z0-9][\w.\-]{0,62}$")


def listed_yaml_option(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                       ) -> str | None:
    """The line before the value is a YAML list's item that is an option (`- --api-key`)."""
    line = line_start(buf, match.start(), 128)
    if not _YAML_OPTION_ITEM.match(buf[line:match.end("w")]):
        return None
    return url_password(kind, match, buf, groups)


CHECKS["listed_yaml_option"] = listed_yaml_option


ARGV_RULES: tuple[Rule, ...] = (
    *(_list_rule(row) for row in CREDENTIALS
      if not (row.percent or row.comma or row.colon) and any(" " not in p for p in row.programs)),
    # any option named for a credential in a list of words, then its value, the next word
    # (`args: ["--db-password", "…"]`, `CMD ["app", "--token", "…"]`, a YAML list's two
    # items): an option, so its quoted word starts with a dash (`["password", "email"]`,
    # a list of field names, is none)
    # (triggers as long as the form: a word and its closing quote alone, `password"`, is in
    # every text of code, and took this repository's own sources past the budget)
    rule("password", tuple(f"{w}{q}{sep}{q}" for w in _LISTED_WORDS for q in ('"', "'")
                           for sep in (", ", ",", " , ")),
         rf"""(?i:{_LISTED})(?P<q>["'])[ \t]*,[ \t]*"""
         r"""(?:\r?\n[ \t]*)?["'](?P<v>[^"'\s\-][^"'\n]{0,255})["']""",
         value=("v",), check="listed_option", bounded=False, priority=CONTEXT),
    # the same as a YAML block list's items: `- --api-key` then `- VALUE`
    rule("password", tuple(f"{w}\n{indent}- " for w in _LISTED_WORDS
                           for indent in ("", "  ", "    ", "      ", "\t")),
         rf"""(?P<w>(?i:{_LISTED}))[ \t]*\r?\n[ \t]*-[ \t]+"""
         r"""(?P<q>["']?)(?P<v>[^"'\s\-][^"'\s]{0,255})(?P=q)[ \t]*(?:\r?\n|$)""",
         value=("v",), check="listed_yaml_option", bounded=False, priority=CONTEXT),
)
