"""Parameters of the walk: a variable's value (through namerefs), an array's elements, and
bash's operators on a value the script set (the half of
:class:`~toolpipe.shell._expand._Expansions` that reads ``${…}``), and an array index
holding code."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from toolpipe.shell._operators import operate
from toolpipe.shell._parse import _text
from toolpipe.shell._words import UNKNOWN, Segment, Word, literal, shell_word

if TYPE_CHECKING:
    from toolpipe.shell._model import Command

# an array element's index holding a substitution: `a[$(cmd)]`, `x[`cmd`]`
_SUBSCRIPT_CODE = re.compile(r"[A-Za-z_]\w*\[(?P<index>[^\]]*(?:\$\(|`)[^\]]*)\]")
# a nameref's entry in the walk's variables: the name of the variable it stands for
_REF = "\x00nameref:"


class _Parameters:
    """What the walk knows that these read (set by ``_Walk.__init__``)."""

    where: tuple[str, ...]
    env: dict[str, Word]

    def segments(self, node: Any, quoted: bool, sources: list[str]) -> list[Segment]:
        raise NotImplementedError

    def nested(self, text: str, where: tuple[str, ...], positional: Sequence[Word] = (),
               zero: Word | None = None) -> None:
        raise NotImplementedError

    def subscript_code(self, text: str) -> None:
        """``'a[$(rm -rf ~)]'``: an array element whose index holds a substitution. Bash
        runs it wherever the text is evaluated as a number (``$((x))``, ``(( ))``, ``let``,
        ``[[ $x -eq 0 ]]``, ``declare -i``), so a quoted text of that shape is read as the
        code it will run, wherever it stands."""
        for found in _SUBSCRIPT_CODE.finditer(text):
            self.nested(found.group("index"), (*self.where, "an array index in a text "
                                               "(bash runs it where the text is a number)"))

    def operated(self, inner: list[Any], quoted: bool) -> list[Segment] | None:
        """``${name<op>…}`` on a value the script set (see ``_operators``), else None."""
        values = self._operands(inner[0])
        op = inner[1].type
        if values is None or (op == ":" and inner[0].type == "subscript"):
            return None  # (`${a[@]:1}` picks elements: not read)
        rest = inner[2:]
        pattern: str | None = None
        exact = False
        replacement = ""
        numbers: list[int] = []
        if op == "@":  # ${v@Q}: a transformation, by its letter
            pattern = _text(rest[0]) if len(rest) == 1 else None
        elif op == ":":
            numbers = [int(_text(n)) for n in rest if n.type == "number" and
                       _text(n).isdigit()]
            if len(numbers) != sum(n.type != ":" for n in rest):
                return None  # ${x: -2}, ${x:$i}: not read
        elif rest:
            split = next((i for i, n in enumerate(rest) if n.type == "/"), len(rest))
            pattern, exact = self.pattern_text(rest[:split])
            if not pattern:
                return None  # `${v///}`: which slash is the pattern, bash and the grammar
                # disagree

            if split < len(rest):
                given, _ = self.pattern_text(rest[split + 1:])
                if given is None:
                    return None
                replacement = given
        changed = [operate(v, op, pattern, exact, replacement, tuple(numbers)) for v in values]
        if any(c is None for c in changed):
            return None
        if inner[0].type == "subscript":  # (each element's, word-split as `element` does)
            return _value(literal(" ".join(c for c in changed if c is not None)), False)
        return _value(literal(changed[0] or ""), quoted)

    def _operands(self, node: Any) -> list[str] | None:
        """The values an operator works on: a variable's, or each element of an array the
        script set (``${a[@]@Q}``, ``${a[*]^^}``); None when not known."""
        if node.type == "subscript":
            array, at = self._array(node)
            if array is None or at not in ("@", "*") or not array.known:
                return None
            return array.text.split(_ELEMENTS)
        word = self.env.get(_referred(self.env, _text(node)))
        return [word.text] if word is not None and word.known else None

    def _array(self, node: Any) -> tuple[Word | None, str]:
        """An array the script set, named by a subscript (``a[@]``, ``a[1]``), and the
        subscript's index; None for the array when it is not one the script set."""
        name, index = node.child_by_field_name("name"), node.child_by_field_name("index")
        if name is None or index is None:
            return None, ""
        return self.env.get(_text(name) + "[]"), _text(index)

    def pattern_text(self, nodes: list[Any]) -> tuple[str | None, bool]:
        """The text of an operator's pattern (or replacement) and whether it was quoted,
        or None when any of it is not known."""
        if not nodes:
            return "", False
        if len(nodes) == 1 and nodes[0].type in ("regex", "word", "number"):
            text = _text(nodes[0])
            return (None, False) if "$" in text or "`" in text else (text, False)
        segs = [s for n in nodes for s in self.segments(n, False, [])]
        if not all(s.known for s in segs):
            return None, False
        return "".join(s.text for s in segs), all(s.quoted for s in segs)

    def element(self, node: Any, quoted: bool) -> list[Segment]:
        """``${a[@]}``, ``"${a[@]}"`` (one word per element), ``${a[1]}`` of an array the
        script set."""
        array, at = self._array(node)
        if array is None:
            return [Segment("", quoted, known=False)]
        elements = array.text.split(_ELEMENTS)
        if at in ("@", "*"):  # word-split, which keeps plain elements apart
            return _value(Word(" ".join(elements), array.raw, False, array.tame), False)
        if at.isdigit() and int(at) < len(elements):
            return _value(Word(elements[int(at)], array.raw, False, array.tame), quoted)
        return [Segment("", quoted, known=False)]


def _referred(env: dict[str, Word], name: str) -> str:
    """The variable ``name`` stands for: itself, or what its nameref chain ends at (a
    chain that loops, or runs longer than 8, stays a nameref: its value is not known)."""
    for _ in range(8):
        word = env.get(name)
        if word is None or not word.raw.startswith(_REF):
            return name
        name = word.raw[len(_REF):]
    return name


_ELEMENTS = "\x01"  # between the elements of an array (env[NAME + '[]'])


def _value(word: Word, quoted: bool) -> list[Segment]:
    if word.known:
        return [Segment(word.text, quoted, expanded=True)]
    parts = word.text.split(UNKNOWN)
    out: list[Segment] = []
    for i, part in enumerate(parts):
        if part:
            out.append(Segment(part, quoted, expanded=True))
        if i < len(parts) - 1:
            out.append(Segment("", quoted, known=False, tame=word.tame))
    return out


def declared(ran: Sequence[Command], env: dict[str, Word], functions: dict[str, Any]) -> (
        str | None):
    """What ``declare -p NAME…`` (``typeset -p``) prints of variables the script set, and
    ``declare -f NAME…`` of functions it defined: the text that sets them again (read by
    ``eval "$(declare -p x)"``); None for anything else."""
    if len(ran) != 1 or ran[0].name not in ("declare", "typeset") or ran[0].redirects or (
            len(ran[0].args) < 2 or not all(a.known for a in ran[0].args)):
        return None
    flag, *names = [a.text for a in ran[0].args]
    if flag == "-p" and all(n in env and env[n].known and n + "[]" not in env for n in names):
        return "\n".join(f"declare -- {n}={shell_word(env[n].text)}" for n in names)
    if flag == "-f" and all(n in functions for n in names):
        return "\n".join(f"{n} () \n{_text(functions[n])}" for n in names)
    return None
