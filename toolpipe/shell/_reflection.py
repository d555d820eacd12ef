"""Names a one-liner looks up at run time: a module, a function or a method named by a
string. A name written out as a literal (`__import__('os')`, `importlib.import_module(
'subprocess')`, `getattr(os, 'system')`, `require('child_process')`, ruby's
`Kernel.send(:system, …)`, PHP's `call_user_func('system', …)`) is read as the direct
call it stands for (``looked_up``), so the one-liner's reader sees `os.system(…)`; a name
built at run time (`'sys' + 'tem'`) is code it cannot read (``computed_names``)."""

from __future__ import annotations

import re

_STRING = re.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`)""", re.S)


def _call_args(code: str, start: int) -> str:
    """The text of a call's arguments, from the opening bracket to its match."""
    open_ch = code[start - 1]
    close_ch = {"(": ")", "{": "}", "[": "]"}.get(open_ch, ")")
    depth, i = 1, start
    while i < len(code) and depth:
        m = _STRING.match(code, i)
        if m:
            i = m.end()
            continue
        if code[i] == open_ch:
            depth += 1
        elif code[i] == close_ch:
            depth -= 1
        i += 1
    return code[start : i - 1]


# Calls that look a module, a function or a method up by a name given at run time, and the
# argument that names it: a name built there (`getattr(__import__('o'+'s'), 'sys'+'tem')`)
# is code it cannot read, as exec's is
_COMPUTED: dict[str, tuple[tuple[re.Pattern[str], int], ...]] = {
    "python": ((re.compile(r"\b(?:__import__|import_module)\s*\("), 0),
               (re.compile(r"\bgetattr\s*\("), 1)),
    "node": ((re.compile(r"\brequire\s*\("), 0),),
    "ruby": ((re.compile(r"\.(?:send|public_send|__send__|const_get|method)\s*\("), 0),),
    "php": ((re.compile(r"\bcall_user_func(?:_array)?\s*\("), 0),),
}


_SYMBOL = re.compile(r":\w+[?!]?")  # ruby's `send(:sum)`: a name written out


def _top_level(args: str) -> list[str]:
    """An argument list split at its commas outside strings and brackets."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(args):
        m = _STRING.match(args, i)
        if m:
            i = m.end()
            continue
        c = args[i]
        depth += (c in "([{") - (c in ")]}")
        if c == "," and depth == 0:
            parts.append(args[start:i])
            start = i + 1
        i += 1
    return [*parts, args[start:]]


def computed_names(family: str, code: str) -> bool:
    """Does the code look a module or function up by a name it builds at run time?"""
    for pattern, which in _COMPUTED.get(family, ()):
        for m in pattern.finditer(code):
            parts = _top_level(_call_args(code, m.end()))
            named = parts[which].strip() if len(parts) > which else ""
            if named and _STRING.fullmatch(named) is None and _SYMBOL.fullmatch(named) is None:
                return True
    return False


_LOOKUPS: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "python": (
        (re.compile(r"""\b(?:importlib\.)?(?:__import__|import_module)\(\s*(["'])([\w.]+)\1\s*\)"""),
         r"\2"),
        (re.compile(r"""\bgetattr\(\s*([\w.]+)\s*,\s*(["'])(\w+)\2\s*\)"""), r"\1.\3")),
    "node": ((re.compile(r"""\brequire\(\s*(["'`])(?:node:)?([\w/]+)\1\s*\)"""), r"\2"),),
    "ruby": (
        (re.compile(r"""\.(?:send|public_send|__send__)\(\s*(?::|(["']))(\w+[?!]?)\1?\s*(?:,\s*|(?=\)))"""),
         r".\2("),
        (re.compile(r"""\bmethod\(\s*(?::|(["']))(\w+[?!]?)\1?\s*\)\.call\("""), r"\2(")),
    "php": ((re.compile(r"""\bcall_user_func(?:_array)?\(\s*(["'])(\w+)\1\s*(?:,\s*|(?=\)))"""),
             r"\2("),),
    # a hash's key quoted or not is the same key: $ENV{'HOME'} is $ENV{HOME}
    "perl": ((re.compile(r"""\$(\w+)\{\s*(["'])(\w+)\2\s*\}"""), r"$\1{\3}"),),
}


_IMPORT_AS = re.compile(r"\bimport[ \t]+([\w.]+)[ \t]+as[ \t]+(\w+)")
_FROM_IMPORT = re.compile(r"\bfrom[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([\w \t,]+)")


def _taken(code: str, module: str, names: str, separator: str) -> str:
    """``code`` with each name taken from ``module`` (``names``: `a, b as c` or `a, b:
    c`, its alias after ``separator``) called by its alias read as the module's."""
    for part in names.split(",")[:32]:
        name, _, alias = part.strip().partition(separator)
        name, alias = name.strip(), alias.strip() or name.strip()
        if name.isidentifier() and alias.isidentifier():
            code = re.sub(rf"(?<![\w.$]){re.escape(alias)}(?=\s*\()", f"{module}.{name}", code)
    return code


def _aliases(code: str) -> str:
    """Python's imports under another name, or from a module: `import subprocess as s`
    then `s.run(…)` is `subprocess.run(…)`; `from subprocess import run as r` then `r(…)`
    is `subprocess.run(…)`."""
    for m in list(_IMPORT_AS.finditer(code))[:16]:
        code = re.sub(rf"(?<![\w.]){re.escape(m.group(2))}\.", m.group(1) + ".", code)
    for m in list(_FROM_IMPORT.finditer(code))[:16]:
        code = _taken(code, m.group(1), m.group(2), " as ")
    return code


_DESTRUCTURED = re.compile(r"\b(?:const|let|var)[ \t]*\{([^{}]{1,512})\}[ \t]*=[ \t]*([\w.$]+)")


def _destructured(code: str) -> str:
    """JavaScript's names taken out of a module: `const {execSync: x} =
    child_process` then `x(…)` is `child_process.execSync(…)`."""
    for m in list(_DESTRUCTURED.finditer(code))[:16]:
        code = _taken(code, m.group(2), m.group(1), ":")
    return code


def looked_up(family: str, code: str) -> str:
    """``code`` with each lookup of a name written out read as the name itself."""
    if family == "python" and "import" in code:
        code = _aliases(code)
    for pattern, direct in _LOOKUPS.get(family, ()):
        code = pattern.sub(direct, code)
    if family == "node" and "{" in code:
        code = _destructured(code)
    return code
