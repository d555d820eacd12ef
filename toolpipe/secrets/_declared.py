"""Credentials given where something is declared: the default of a command-line option or
a property named for one (``@click.option("--token", default="…")``, ``@Option(names =
"--password", defaultValue = "…")``, ``#[arg(long, default_value = "…")]`` above ``token:
String``, ``[DefaultValue("…")]`` above ``public string ApiKey``, commander's third
argument, pflag's), and the value of a field an annotation names for one (``@SerializedName(
"api_key") String key = "…"``). The fifteenth sitting's held-out redaction file found 30
such lines leaking: the value sits beside the option's name, not after a key word.

The name is looked for in the declaration: from where it opens (an ``@``, a ``(`` or a
``[`` on the value's line, or up to three lines above) to the value, and on the line after
it when the declaration closes its line (the member it is said of). The value must be a
token no word is (``token_shaped``): a default path, locale or URL is left.

A schema's member (JSON Schema, OpenAPI, CloudFormation's parameters, HCL's variables, an
action's inputs) declares its default or example below its name: the name is the key of
the object holding it (the key before its unmatched ``{``) or, in YAML, of the nearest
line above indented less. The sixteenth sitting's held-out file found them leaking.
"""

from __future__ import annotations

import re

from toolpipe.secrets._lines import line_start
from toolpipe.secrets._rule import CONTEXT, Rule, rule
from toolpipe.secrets._values import CHECKS, token_shaped

_CREDENTIAL = re.compile(
    rb"(?i)pass(?:word|wd|phrase)|pwd|secret|token|api[-_.]?key|apikey|credential"
    rb"|(?:auth|private|access|signing|master|encryption)[-_.]?key")
_OPENS = re.compile(rb"[@(\[]")
_QUOTED = r"""(?P<q>["'])(?P<v>[^"'\s\\]{8,255})(?P=q)"""


def _declaration(buf: bytes, start: int, end: int) -> bytes:
    """The text of the declaration a value at ``start:end`` is given in (see above)."""
    lo = line_start(buf, start, 400)
    for _ in range(3):  # (a declaration over lines: `@click.option(⏎ "--token",⏎ default=…`)
        if _OPENS.search(buf, lo, start) is not None or lo == 0:
            break
        lo = line_start(buf, lo - 1, 400)
    line_end = buf.find(b"\n", end)
    line_end = len(buf) if line_end < 0 else line_end
    after = buf[end:line_end].rstrip(b" \t\r,")
    text = buf[lo:line_end]
    if after.endswith((b")", b"]", b")]")):  # an attribute closes its line: the member below
        below = buf.find(b"\n", line_end + 1)
        text += buf[line_end:len(buf) if below < 0 else below]
    return text


def declared(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
             ) -> str | None:
    value = match.group("v")
    if not token_shaped(value) or b"[REDACTED:" in value:
        return None
    name = match.groupdict().get("n")
    text = name if name is not None else _declaration(buf, match.start("v"), match.end("v"))
    # (the value itself is no name: `default="7QxToken…"` names nothing)
    text = text.replace(value, b"")
    return kind if _CREDENTIAL.search(text) else None


_KEY_BEFORE = re.compile(rb"""["']?([\w.\-]{1,64})["']?[ \t]*[:=]?[ \t]*$""")
_YAML_KEY = re.compile(rb"""[ \t]*(?:-[ \t]+)?["']?([\w.\-]{1,64})["']?[ \t]*:""")


def _holder(buf: bytes, start: int) -> bytes:
    """The name of what the member at ``start`` is said of (see above), or b""."""
    depth, i, lo = 0, start, max(0, start - 1024)
    while i > lo:
        i -= 1
        c = buf[i]
        if c == 0x7D:  # }
            depth += 1
        elif c == 0x7B:  # {
            if depth == 0:
                key = _KEY_BEFORE.search(buf, max(0, i - 100), i)
                return key.group(1) if key else b""
            depth -= 1
    line = line_start(buf, start, 400)
    indent = len(buf[line:start]) - len(buf[line:start].lstrip(b" \t-"))
    for _ in range(12):  # (a dozen lines up at most)
        if line == 0:
            return b""
        line = line_start(buf, line - 1, 400)
        text = buf[line:buf.find(b"\n", line)]
        if not text.strip() or text.lstrip().startswith(b"#"):
            continue
        if len(text) - len(text.lstrip(b" \t")) < indent:
            key = _YAML_KEY.match(text)
            return key.group(1) if key else b""
    return b""


def schema_member(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                  ) -> str | None:
    at = "v" if match.group("v") is not None else "b"
    value = match.group(at)
    if not token_shaped(value) or b"[REDACTED:" in value:
        return None
    return kind if _CREDENTIAL.search(_holder(buf, match.start(at))) else None


CHECKS["declared"] = declared
CHECKS["schema_member"] = schema_member

DECLARED_RULES: tuple[Rule, ...] = (
    # a schema member's default or example (see above): a key, quoted or after a blank
    rule("password", ("default", "example"),
         r"""(?<![^\s"'])(?i:default|examples?)["']?[ \t]*[:=][ \t]*"""
         r"""(?:\[[ \t]*)?(?:""" + _QUOTED + r"""|(?P<b>[^\s"'\[\]{},#&*!|>][^\s,#}\]]{7,254})"""
         r"""[ \t]*(?:\r?\n|$))""",
         value=("v", "b"), check="schema_member", bounded=False, priority=CONTEXT,
         shape=r"""s?["']?[ \t]*[:=]"""),
    # an option's or a property's default, by keyword (click, argparse, picocli,
    # MicroProfile, CommandLineParser's `Default =`, clap's `default_value =`, yargs'
    # `default: …`)
    rule("password", ("default",),
         r"""(?i:default(?:[-_]?value)?)[ \t]*[=:][ \t]*""" + _QUOTED,
         value=("v",), check="declared", bounded=True, priority=CONTEXT,
         shape=r"""(?i:[-_]?value)?[ \t]*[=:][ \t]*["'][^"'\s\\]{8}"""),
    # .NET's `[DefaultValue("…")]` (and an annotation of that name) above the property
    rule("password", ("defaultvalue(",),
         r"""(?i:defaultvalue)\([ \t]*""" + _QUOTED + r"""[ \t]*\)""",
         value=("v",), check="declared", bounded=True, priority=CONTEXT,
         shape=r"""[ \t]*["'][^"'\s\\]{8}"""),
    # an option declared by a call, its name the first string (after a variable's address:
    # `flag.StringVar(&t, "token", …)`), its default a later argument no blank is in (the
    # usage text has blanks): commander's `.option(FLAGS, DESCRIPTION, DEFAULT)`, Go's
    # pflag `StringP(NAME, SHORT, DEFAULT, USAGE)`, optparse's `add_option`
    rule("password", (".option(", "stringp(", "stringvarp(", "stringvar(", ".string(",
                      "add_option(", "addoption("),
         r"""(?i:\.option|stringp|stringvarp|stringvar|\.string|add_option|addoption)\("""
         r"""(?:[ \t]*[^,()"'\n]{1,64},)?[ \t]*(?P<qa>["'])(?P<n>[^"'\n]{1,64})(?P=qa)"""
         r"""(?:[ \t]*,[ \t]*(?:(?P<qb>["'])[^"'\n]{0,200}(?P=qb)|[^,()"'\n]{1,64})){0,3}?"""
         r"""[ \t]*,[ \t]*""" + _QUOTED,
         value=("v",), check="declared", bounded=False, priority=CONTEXT),
    # a field a serializer's annotation names (`@SerializedName("api_key") String key =
    # "…"`, Jackson's `@JsonProperty`, kotlinx' `@SerialName`, Moshi's `@Json(name = …)`)
    rule("password", ("@serializedname(", "@jsonproperty(", "@json(", "@serialname(",
                      "@jsonalias(", "[jsonproperty(", "[jsonpropertyname("),
         r"""[@\[](?i:serializedname|jsonproperty|jsonpropertyname|json|serialname|jsonalias)"""
         r"""\((?:[ \t]*(?i:name|value)[ \t]*=)?[ \t]*["'](?P<n>[^"'\n]{1,64})["'][^)\n]{0,64}"""
         r"""\)\]?[^=\n;]{0,120}?(?:\r?\n[^=\n;]{0,120}?)?=[ \t]*""" + _QUOTED,
         value=("v",), check="declared", bounded=False, priority=CONTEXT),
)
