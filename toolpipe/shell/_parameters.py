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
    positional: tuple[Word, ...]

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
        op = inner[1].type
        if op == ":" and (inner[0].type == "subscript" or _text(inner[0]) in ("@", "*")):
            return self.sliced(inner, self.positional)  # (`${a[@]:1}` picks elements)
        values = self._operands(inner[0])
        if values is None:
            return None
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
        """``${a[@]}``, ``"${a[@]}"`` (one word per element), ``${a[1]}``, ``${a[-1]}``,
        ``${a[$i]}`` of an array the script set, ``${m[key]}`` of an associative one."""
        array, at = self._array(node)
        if array is None:
            return [Segment("", quoted, known=False)]
        keys, elements = _keyed(array.text.split(_ELEMENTS))
        if at in ("@", "*"):  # word-split, which keeps plain elements apart
            return _value(Word(" ".join(elements), array.raw, False, array.tame), False)
        if at[:1] == "$":  # an index a variable holds: `${a[$i]}`, `${a[${i}]}`
            index = self.env.get(at.strip("${}"))
            at = index.text if index is not None and index.known else ""
        number = int(at) if at.lstrip("-").isdigit() else None
        if keys and at in keys:
            return _value(Word(elements[keys.index(at)], array.raw, False, array.tame), quoted)
        if not keys and number is not None and -len(elements) <= number < len(elements):
            return _value(Word(elements[number], array.raw, False, array.tame), quoted)
        return [Segment("", quoted, known=False)]

    def sliced(self, inner: list[Any], positional: Sequence[Word]) -> list[Segment] | None:
        """``${@:2}``, ``${*:1:2}`` of the positional parameters, ``${a[@]:1}`` of an array
        the script set: the words picked (None when not known)."""
        numbers = [int(_text(n)) for n in inner[2:] if n.type == "number" and
                   _text(n).isdigit()]
        if not numbers or len(numbers) != sum(n.type != ":" for n in inner[2:]):
            return None  # ${@: -2}, ${@:$i}: not read
        if inner[0].type == "subscript":
            array, at = self._array(inner[0])
            if array is None or at not in ("@", "*") or not array.known:
                return None
            words, start = _keyed(array.text.split(_ELEMENTS))[1], numbers[0]
        else:  # (offset 0 is $0, the shell's name)
            words, start = [w.text for w in positional], numbers[0] - 1
            if start < 0 or not all(w.known for w in positional):
                return None
        picked = words[start:start + numbers[1]] if len(numbers) > 1 else words[start:]
        return _value(literal(" ".join(picked)), False)


def _keyed(elements: list[str]) -> tuple[list[str], list[str]]:
    """An associative array's keys and values (`([build]=dist [all]=/)`), or no keys and
    the elements of an indexed one."""
    if elements and all(e.startswith("[") and "]=" in e for e in elements):
        pairs = [e[1:].split("]=", 1) for e in elements]
        return [k for k, _ in pairs], [v for _, v in pairs]
    return [], elements


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


def moved_parameters(cmd: Command, positional: tuple[Word, ...], env: dict[str, Word]
                     ) -> tuple[Word, ...]:
    """The positional parameters after ``set``, ``shift`` or ``getopts`` (whose
    ``$OPTARG`` it sets in ``env``): `set -- rm -rf /; "$@"` gives the words from here on,
    `shift 2` drops the first two (none when there are fewer), and getopts' argument is
    one of the values its options take among them (which, not known when several)."""
    args = cmd.args
    if cmd.name == "set" and args and (args[0].text == "--" or not args[0].text.startswith(
            ("-", "+"))):
        return tuple(args[1:] if args[0].text == "--" else args)
    if cmd.name == "shift":
        count = args[0].text if args else "1"
        if not count.isdigit():
            return (_unknown(),)
        # (past the last, bash's shift fails and moves nothing)
        return positional[int(count):] if int(count) <= len(positional) else positional
    if cmd.name == "getopts" and len(args) >= 2 and args[0].known:
        spec = args[0].text
        given = list(positional)
        values = [given[i + 1] if len(w.text) == 2 else Word(w.text[2:], w.raw, w.glob,
                                                              w.tame, w.sources)
                  for i, w in enumerate(given) if w.text[:1] == "-" and len(w.text) > 1 and (
                      w.text[1] + ":") in spec and (len(w.text) > 2 or i + 1 < len(given))]
        env["OPTARG"] = values[0] if len(values) == 1 else _unknown()
    return positional


def _unknown() -> Word:
    return Word(UNKNOWN, "<not known>", tame=False)
