"""The ``Program[R]`` type and small helpers to build programs without an interpreter."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import Any, TypeAlias, TypeVar

from toolpipe._checks import safe_repr
from toolpipe.effects import Effect
from toolpipe.errors import ProgramError

R = TypeVar("R")
S = TypeVar("S")

Program: TypeAlias = Generator[Effect, Any, R]
"""A generator that yields effects, receives their answers and returns ``R``."""


def pure(value: R) -> Program[R]:
    """A program that yields nothing and returns ``value``."""
    return value
    yield  # pragma: no cover - makes this a generator


def map_program(program: Program[R], fn: Callable[[R], S]) -> Program[S]:
    return fn((yield from program))


def sequence(programs: Iterable[Program[R]]) -> Program[list[R]]:
    """Run programs one after another, collecting their results."""
    out: list[R] = []
    for program in programs:
        out.append((yield from program))
    return out


def culprit(gen: Any) -> str:
    """The innermost generator function a ``yield from`` chain is suspended in."""
    while True:
        inner = getattr(gen, "gi_yieldfrom", None)
        if inner is None or not hasattr(inner, "gi_code"):
            break
        gen = inner
    code = getattr(gen, "gi_code", None)
    if code is None:
        return repr(gen)
    return f"{code.co_qualname} ({code.co_filename}:{code.co_firstlineno})"


def not_an_effect(gen: Any, value: object) -> ProgramError:
    return ProgramError(
        f"{culprit(gen)} yielded {safe_repr(value, 80)}, which is not an effect "
        "(programs must yield toolpipe.effects instructions)"
    )


def run_pure(program: Program[R]) -> R:
    """Run a program that must not yield any effect (useful in tests of pure logic)."""
    try:
        effect = program.send(None)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    program.close()
    raise ProgramError(f"run_pure: the program yielded {safe_repr(effect, 80)}")
