"""Functions in the walk: a definition read with its arguments unknown and kept aside, each
call read with its arguments (calls alike read once), and which reading stands."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from toolpipe.shell._expand import _Expansions
from toolpipe.shell._parse import MAX_CALLS, MAX_DEPTH, _text
from toolpipe.shell._places import classify
from toolpipe.shell._words import UNKNOWN, Word


class _Functions(_Expansions):
    def function(self, node: Any) -> None:
        """A definition: its body is read now with its arguments unknown, and kept aside;
        if every call of it is read with its arguments, that reading stands instead."""
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is None or body is None:
            return
        name = _text(name_node)
        self.functions[name] = body
        self.out.walked.clear()  # what calls ran may have changed
        out = self.out
        before, problems = len(out.commands), len(out.problems)
        inner = self.inner((*self.where, f"function {name}"), dict(self.env), (), True)
        if self.depth + 1 <= MAX_DEPTH:
            out.active.add(name)
            out.defining.append(name)
            inner.statements(body)
            out.defining.pop()
            out.active.discard(name)
        calls = [c for c in out.commands[before:] if c.name == name.lower()]
        out.definitions[name] = (out.commands[before:], out.problems[problems:])
        del out.commands[before:], out.problems[problems:]
        out.called.discard(name)
        if len(calls) >= 2 or any(c.piped or out.downstream_of(c) for c in calls):
            out.problem("fork-bomb", f"fork bomb (function {name} runs itself "
                        f"{len(calls)} times)", self.where)

    def call(self, name: str, args: Sequence[Word]) -> None:
        if name in self.out.active or self.depth + 1 > MAX_DEPTH or (
                self.out.calls >= MAX_CALLS):
            self.out.unread.add(name)  # its definition's reading stands
            return
        key = self._call_key(name, args)
        if key in self.out.walked:  # a call just like one already read
            return
        keep = not self.out.defining  # a call inside a definition is part of its reading
        self.out.calls += 1
        self.out.active.add(name)
        inner = self.inner((*self.where, name), dict(self.env), args, False)
        inner.statements(self.functions[name])
        self.out.active.discard(name)
        if keep:
            self.out.walked.add(key)
            self.out.called.add(name)

    def _call_key(self, name: str, args: Sequence[Word]) -> tuple[object, ...]:
        """What a call's reading depends on. Arguments that are plain data (not options,
        numbers or paths outside the workspace) are alike, unless the function runs its
        arguments; the variables its body names are part of it."""
        body = self.functions[name]
        names = self.out.body_names.get(id(body))
        if names is None:
            names = self.out.body_names[id(body)] = frozenset(
                _VARIABLE.findall(_text(body)))
        exact = name in self.out.runs_arguments
        shape = tuple(a if exact or _matters(a, self.cwd) else None for a in args)
        return (name, id(body), self.cwd, shape,
                tuple(self.env.get(v) for v in sorted(names)))


_VARIABLE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


def _matters(arg: Word, cwd: str | None) -> bool:
    """Could this argument's value change what a function's body does to the machine?"""
    text = arg.text
    if not arg.known:  # a message with a value in it reads like any other message
        plain = text.replace(UNKNOWN, "")
        return not (" " in plain and "/" not in plain and not plain.startswith("-"))
    if text.startswith(("-", "+")) or text.isdigit() or not text:
        return True
    if " " in text and "/" not in text:
        return False  # a message
    return classify(arg, cwd).kind not in ("workspace", "scratch")
