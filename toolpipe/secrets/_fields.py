"""A credential named by a field beside its value, in forms that carry data rather than
configure: an XML-RPC struct's member (``<name>password</name><value><string>…``), a
multipart form's field (``Content-Disposition: form-data; name="password"``, its value
after the blank line), and a value a CI log declares secret (Azure DevOps'
``##vso[task.setsecret]…`` and ``##vso[task.setvariable …;issecret=true]…``, as GitHub's
``::add-mask::`` in ``_contexts``)."""

from __future__ import annotations

from toolpipe.secrets._rule import CONTEXT, Rule, rule

# a name that says what it holds, ending with it (`db_password`, `api-key`, `AuthToken`)
_NAMED = (r"""(?i:[\w.\-]{0,64}(?:password|passwd|passphrase|pwd|secret|token|"""
          r"""api[_\-]?key|access[_\-]?key|private[_\-]?key|credentials?))""")

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
    rule("password", ("##vso[task.setsecret]", "##vso[task.setvariable"),
         r"""##vso\[task\.(?:setsecret\]|setvariable[^\]\n]{0,256}?;[ \t]*"""
         r"""(?i:issecret)=true[^\]\n]{0,256}\])(?P<v>[^\s"']{1,4096})""",
         value=("v",), check="url_password", bounded=False, priority=CONTEXT),
)
