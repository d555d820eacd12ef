"""Build files in XML and the command lines they run: Ant's ``<exec executable="sh"><arg
line="-c …"/></exec>``, Maven's exec plugin (``<executable>`` with ``<argument>``s) and
MSBuild's ``<Exec Command="…"/>`` task (a .csproj's, Directory.Build.props' or .targets'
target, run by ``dotnet build``), and the code of MSBuild's inline tasks."""

from __future__ import annotations

import html
import re
import shlex

# the names of MSBuild's and others' XML files, beside `.xml` itself
XML = (".xml", ".csproj", ".fsproj", ".vbproj", ".proj", ".props", ".targets")
_XML_EXEC = re.compile(r"""<exec\b[^>]*?\bexecutable\s*=\s*(["'])(?P<exe>[^"']+)\1[^>]*?"""
                       r"""(?P<closed>/)?>""")
_XML_ARG = re.compile(r"""<arg\b[^>]*?\b(?P<kind>line|value|path|file)\s*=\s*(["'])"""
                      r"""(?P<v>.*?)\2""", re.S)
_MVN_EXE = re.compile(r"<executable>\s*(?P<exe>[^<]+?)\s*</executable>"
                      r"(?P<body>(?:(?!</configuration>).){0,4096})", re.S)
_MVN_ARG = re.compile(r"<argument>\s*([^<]*?)\s*</argument>")
_MSBUILD_EXEC = re.compile(r"""<Exec\b[^>]*?\bCommand\s*=\s*(["'])(?P<c>.*?)\1""", re.S)


def xml_commands(content: str) -> list[str]:
    """The command lines an XML build file runs (see the module's text)."""
    out = []
    for m in _XML_EXEC.finditer(content):
        body = "" if m.group("closed") else content[m.end():content.find("</exec>", m.end())]
        words = [a.group("v") if a.group("kind") == "line" else shlex.quote(
            html.unescape(a.group("v"))) for a in _XML_ARG.finditer(body)]
        out.append(html.unescape(" ".join([m.group("exe"), *words])))
    for m in _MVN_EXE.finditer(content):
        args = [shlex.quote(html.unescape(a)) for a in _MVN_ARG.findall(m.group("body"))]
        out.append(" ".join([html.unescape(m.group("exe")), *args]))
    out += [html.unescape(m.group("c")) for m in _MSBUILD_EXEC.finditer(content)]
    # an inline task's code (C# or VB), run by the build: read as an unknown program's
    # code is (its calls that run, delete or fetch, `Process.Start("sh", "-c …")`)
    out += [f"{INLINE_TASK} {shlex.quote(_inline_code(m.group('code')))}"
            for m in _INLINE_CODE.finditer(content)]
    return out


INLINE_TASK = "msbuild-inline-task"  # (the name the task's code is shown under)
# `<UsingTask … TaskFactory="RoslynCodeTaskFactory">…<Code …>CODE</Code>` (CDATA or not)
_INLINE_CODE = re.compile(r"<Code\b[^>]*>(?P<code>.{0,65536}?)</Code>", re.S)
_CDATA = re.compile(r"<!\[CDATA\[(.*?)\]\]>", re.S)


def _inline_code(text: str) -> str:
    """An inline task's code as the compiler reads it: CDATA's text as it stands, the
    rest's entities read."""
    return _CDATA.sub(lambda m: m.group(1), text) if "<![CDATA[" in text else html.unescape(
        text)
