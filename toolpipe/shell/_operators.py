"""Bash's string operators on a value the script set: ``${f%.txt}``, ``${p##*/}``,
``${s// /}``, ``${c,,}``, ``${x:1:2}``. A command name or a target built with them is then
known (``c=RM; ${c,,} -rf ~`` runs ``rm``; ``${f%.txt}.bak`` is a file in the workspace)
instead of unknown; whatever they cannot work out stays unknown (``None``)."""

from __future__ import annotations

import re
from collections.abc import Callable

from toolpipe.shell._words import ansi_c

# Patterns are read on values up to this length (the prefix and suffix operators try every
# cut, and a shield reads short names and paths, not documents)
MAX_VALUE = 512



def _first_lower(value: str) -> str:
    return value[:1].lower() + value[1:]


def _first_upper(value: str) -> str:
    return value[:1].upper() + value[1:]


_CASE: dict[str, Callable[[str], str]] = {",,": str.lower, "^^": str.upper,
                                          ",": _first_lower, "^": _first_upper}
# ${name@X}: a transformation of the value (P, a prompt's expansion, only of a value it
# leaves as it is: no escape, no expansion; A, K, a, k: not read)
_TRANSFORMS: dict[str, Callable[[str], str | None]] = {
    "U": str.upper, "L": str.lower, "u": _first_upper,
    "Q": lambda v: "'" + v.replace("'", "'\\''") + "'",
    "E": lambda v: ansi_c(v), "P": lambda v: None if any(c in v for c in "\\$`!") else v}
_CUTS = frozenset({"%", "%%", "#", "##"})
_REPLACES = frozenset({"/", "//", "/#", "/%"})


def glob_regex(pattern: str, literal: bool) -> re.Pattern[str] | None:
    """A glob pattern (``*``, ``?``, ``[…]``) as a regex; ``literal``: quoted, so every
    character stands for itself. ``None`` for a class it cannot read."""
    if literal:
        return re.compile(re.escape(pattern), re.S)
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "[":
            end = pattern.find("]", i + 2)
            if end < 0:
                return None
            body = pattern[i + 1:end]
            if body.startswith("!"):
                body = "^" + body[1:]
            if "[" in body or "\\" in body:
                return None  # [[:alpha:]] and escapes inside: not read
            out.append("[" + body + "]")
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out), re.S)


def operate(value: str, op: str, pattern: str | None, literal: bool,
            replacement: str = "", numbers: tuple[int, ...] = ()) -> str | None:
    """``value`` after ``${name<op>pattern}`` (``replacement``: after a second ``/``;
    ``numbers``: the offset and length of ``${name:off:len}``)."""
    if len(value) > MAX_VALUE:
        return None
    if op in _CASE and pattern is None:
        return _CASE[op](value)
    if op == "@":  # (`pattern`: the transformation's letter)
        transform = _TRANSFORMS.get(pattern or "")
        return transform(value) if transform is not None else None
    if op == ":":
        if not numbers or any(n < 0 for n in numbers):
            return None
        start = numbers[0]
        return value[start:start + numbers[1]] if len(numbers) > 1 else value[start:]
    if pattern is None:
        return None
    regex = glob_regex(pattern, literal)
    if regex is None:
        return None
    if op in _CUTS:
        size = len(value)
        # % shortest suffix, %% longest; # shortest prefix, ## longest
        cuts = {"%": range(size, -1, -1), "%%": range(0, size + 1),
                "#": range(0, size + 1), "##": range(size, -1, -1)}[op]
        for cut in cuts:
            if op.startswith("%") and regex.fullmatch(value, cut):
                return value[:cut]
            if op.startswith("#") and regex.fullmatch(value, 0, cut):
                return value[cut:]
        return value
    if op in _REPLACES:
        if op == "/#":
            regex = re.compile("^(?:" + regex.pattern + ")", re.S)
        elif op == "/%":
            regex = re.compile("(?:" + regex.pattern + ")$", re.S)
        out: list[str] = []
        at = 0
        for found in regex.finditer(value):
            if found.end() == found.start() and value:
                continue  # bash replaces no empty match but an empty value's
                # (`${v//*/R}` is one R)
            out += [value[at:found.start()], replacement]
            at = found.end()
            if op != "//":
                break
        return "".join(out) + value[at:]
    return None
