"""A program and its arguments given under two keys of a settings file, which the program
reading the file runs: a kubeconfig's exec plugin (``exec:⏎ command: sh⏎ args: ["-c",
"…"]``), an MCP client's server (``{"command": "sh", "args": [...]}``), an editor's task.
Either key alone names no command line: the program is one key's value, its words the
other's list. The sixteenth sitting's held-out sequences found a kubeconfig written with
an exec plugin and read by ``kubectl --kubeconfig`` run unasked (the arguments were read
as a list whose first word, ``-c``, is no program).

Read from JSON as parsed, from YAML by indentation: the ``args`` key beside ``command``
(the same indentation, until a line indented less), its list in brackets on its line or
as ``- item`` lines below it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from toolpipe.shell._words import shell_word

_COMMAND = re.compile(r"""(?m)^(?P<ind>[ \t]*)(?P<dash>-[ \t]+)?["']?command["']?[ \t]*:"""
                      r"""[ \t]*(?P<v>[^\n#]*?)[ \t]*,?[ \t]*$""")
_ARGS = re.compile(r"""["']?(?:args|arguments)["']?[ \t]*:[ \t]*(?P<v>[^\n#]*?)[ \t]*,?[ \t]*$""")
_ITEM = re.compile(r"""[ \t]*-[ \t]+(?P<v>[^\n#]*?)[ \t]*$""")
_STRING = re.compile(r""""((?:[^"\\]|\\.)*)"|'([^']*)'""")
MAX_COMMANDS = 64


def exec_commands(content: str) -> list[str]:
    """The command lines (see above) ``content`` holds, each word quoted for a shell."""
    if "command" not in content or "arg" not in content:
        return []
    if content.lstrip().startswith(("{", "[")):
        try:
            return [_line(c, a) for c, a in _json_pairs(json.loads(content), 0)][:MAX_COMMANDS]
        except (ValueError, RecursionError):
            pass
    return list(_yaml_pairs(content))[:MAX_COMMANDS]


def _json_pairs(node: object, depth: int) -> Iterator[tuple[str, list[str]]]:
    if depth > 32:
        return
    if isinstance(node, dict):
        program, args = node.get("command"), node.get("args", node.get("arguments"))
        if isinstance(program, str) and isinstance(args, list):
            yield program, [a for a in args if isinstance(a, str)]
        for value in node.values():
            yield from _json_pairs(value, depth + 1)
    elif isinstance(node, list):
        for value in node:
            yield from _json_pairs(value, depth + 1)


def _yaml_pairs(content: str) -> Iterator[str]:
    lines = content.split("\n")
    for found in _COMMAND.finditer(content):
        program = _scalar(found.group("v"))
        if not program:
            continue
        indent = len(found.group("ind")) + len(found.group("dash") or "")
        row = content.count("\n", 0, found.start())
        args = _yaml_args(lines, row, indent)
        if args is not None:
            yield _line(program, args)


def _yaml_args(lines: list[str], row: int, indent: int) -> list[str] | None:
    """The ``args`` list of the mapping whose ``command`` key, at column ``indent``, is on
    line ``row`` (None: it has none): a key of that mapping is at that column, between the
    line that opens it (indented less, or a list's ``- `` item) and the next indented less."""
    keys = []
    if not lines[row].lstrip().startswith("-"):
        for r in range(row - 1, max(-1, row - 33), -1):
            line = lines[r]
            if not line.strip():
                continue
            if _key_column(line) == indent:
                keys.append(r)
            if _key_column(line) < indent or line.lstrip().startswith("-"):
                break
    for r in range(row + 1, min(len(lines), row + 33)):
        line = lines[r]
        if not line.strip():
            continue
        if _indent(line) < indent:
            break
        if _indent(line) == indent:
            keys.append(r)
    for r in keys:
        found = _ARGS.match(lines[r].lstrip(" \t-"))
        if found is None:
            continue
        value = found.group("v")
        if value.startswith("["):
            end = r
            while "]" not in value and end + 1 < min(len(lines), r + 33):
                end += 1
                value += " " + lines[end].strip()
            return [a or b for a, b in _STRING.findall(value)] or [
                w.strip() for w in value.strip("[]").split(",") if w.strip()]
        items = []
        for below in lines[r + 1:r + 257]:
            item = _ITEM.fullmatch(below)
            if item is None or _indent(below) < indent:
                break
            items.append(_scalar(item.group("v")))
        return items
    return None


def _key_column(line: str) -> int:
    """The column a line's key starts at (after a list item's ``- ``)."""
    body = line.lstrip(" \t")
    return len(line) - len(body.lstrip("- ")) if body.startswith("- ") else len(line) - len(body)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _scalar(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        quoted = _STRING.fullmatch(text)
        return (quoted.group(1) or quoted.group(2) or "") if quoted else text[1:-1]
    return text


def _line(program: str, args: list[str]) -> str:
    return " ".join(shell_word(w) for w in [program, *args])
