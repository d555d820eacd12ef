"""A credential named by a field beside its value, in forms that carry data rather than
configure: an XML-RPC struct's member (``<name>password</name><value><string>…``), a
multipart form's field (``Content-Disposition: form-data; name="password"``, its value
after the blank line), and a value a CI log declares secret (Azure DevOps'
``##vso[task.setsecret]…`` and ``##vso[task.setvariable …;issecret=true]…``, as GitHub's
``::add-mask::`` in ``_contexts``), and a Netscape cookie jar's line (curl's ``-c``,
yt-dlp's, a browser's export) whose cookie is a login by its name."""

from __future__ import annotations

import re

from toolpipe.secrets._code import _CREDENTIAL_NAME, _SESSION_NAME
from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._values import CHECKS

# a name that says what it holds, ending with it (`db_password`, `api-key`, `AuthToken`)
_NAMED = (r"""(?i:[\w.\-]{0,64}(?:password|passwd|passphrase|pwd|secret|token|"""
          r"""api[_\-]?key|access[_\-]?key|private[_\-]?key|credentials?))""")

_TAB = r"""(?:\t|\n[ ])"""  # a tab, or an escaped one as the scanner reads it


def cookie_line(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                ) -> str | None:
    name = match.group("name")
    return kind if _SESSION_NAME.search(name) or _CREDENTIAL_NAME.search(name) else None


CHECKS["cookie_line"] = cookie_line

FIELD_RULES: tuple[Rule, ...] = (
    rule("password", ("<name>",),
         r"""<name>[ \t]*""" + _NAMED + r"""[ \t]*</name>\s{0,64}<value>\s{0,64}"""
         r"""(?:<(?:string|base64)>)?[ \t]*(?P<v>[^<\s]{1,4096})""",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
    # its headers (up to four more lines) end at a blank line; the field's value follows
    # (a body a log prints escaped on one line, `\r\n`, is read with its escapes as line
    # breaks and a blank each: every line then seems followed by a blank one, so a header,
    # `Name: …`, is never the value)
    rule("password", ("form-data;",),
         r"""(?i:form-data;[ \t]*name=)["']?""" + _NAMED + r"""["']?[^\n]{0,256}\r?\n"""
         r"""(?:[^\r\n]{1,256}\r?\n){0,4}?[ \t]*\r?\n\s{0,8}(?!--|[A-Za-z][\w-]{0,63}:[ \t])"""
         r"""(?P<v>[^\s]{4,4096})""",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
    # domain, subdomains, path, secure, expiry, name, value (tab-separated)
    rule("session_cookie", ("\ttrue\t", "\tfalse\t", "\n true\n ", "\n false\n "),
         _TAB + r"""(?:TRUE|FALSE)""" + _TAB + r"""[^\t\n]{1,1024}""" + _TAB
         + r"""(?:TRUE|FALSE)""" + _TAB + r"""[0-9]{1,12}""" + _TAB
         + r"""(?P<name>[^\t\n]{1,256})""" + _TAB + r"""(?P<v>[^\t\s]{8,4096})""",
         value=("v",), check="cookie_line", bounded=False, priority=CONTEXT),
    rule("password", ("##vso[task.setsecret]", "##vso[task.setvariable"),
         r"""##vso\[task\.(?:setsecret\]|setvariable[^\]\n]{0,256}?;[ \t]*"""
         r"""(?i:issecret)=true[^\]\n]{0,256}\])(?P<v>[^\s"']{1,4096})""",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
)
