"""The fault matrix: faults × components, for tests/test_faults.py and the agreement test.

A *fault* is what user code does wrong: raise something (every kind of exception and
BaseException, ones whose text cannot be printed) or return something unusable. A
*component* is where the user's code sits: a tool of each kind, a verifier, an ask
resolver, a permission check, the store, a layer (its ``dispatch`` call or its program),
an event listener, a model. ``build(component, fault)`` gives a registry, a pipeline builder
and interpreter options in which the tool named ``F`` meets the fault and ``ok`` does not.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import Any

import attrs
from returns.maybe import Nothing

from interpreters.stores import MemoryStore
from toolpipe import (
    Allow,
    Ask,
    MemoizingMiddleware,
    PermissionMiddleware,
    Tool,
    ToolRegistry,
    VerifyMiddleware,
)
from toolpipe.effects import Sleep
from toolpipe.errors import ToolError
from toolpipe.pipeline import PipelineBuilder


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text for you")


class Unrepresentable(Exception):
    def __str__(self) -> str:
        raise ValueError("no str")

    def __repr__(self) -> str:
        raise ValueError("no repr")


class Custom(BaseException):
    """A library's own BaseException subclass (as gevent's or a test framework's)."""


class Weird:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def __str__(self) -> str:
        raise RuntimeError("no str")


class BadStr(str):
    def __str__(self) -> str:
        raise RuntimeError("a str that cannot be a str")


def _junk_program() -> Any:
    yield 42  # not an effect
    return "never"


# name -> a thunk that raises
RAISES: dict[str, Callable[[], BaseException]] = {
    "ValueError": lambda: ValueError("bad value"),
    "RuntimeError": lambda: RuntimeError("broken"),
    "KeyError": lambda: KeyError("missing"),
    "TypeError": lambda: TypeError("wrong type"),
    "ZeroDivisionError": lambda: ZeroDivisionError("division by zero"),
    "RecursionError": lambda: RecursionError("too deep"),
    "MemoryError": lambda: MemoryError(),
    "OSError": lambda: OSError(28, "No space left on device"),
    "ToolError": lambda: ToolError("a soft error"),
    "unprintable": lambda: Unprintable(),
    "unrepresentable": lambda: Unrepresentable(),
    "StopIteration": lambda: StopIteration("stopped"),
    "StopAsyncIteration": lambda: StopAsyncIteration("stopped"),
    "SystemExit": lambda: SystemExit(3),
    "GeneratorExit": lambda: GeneratorExit("closed"),
    "custom BaseException": lambda: Custom("custom"),
    "asyncio.CancelledError": lambda: asyncio.CancelledError("cancelled elsewhere"),
    "futures.CancelledError": lambda: concurrent.futures.CancelledError(),
    "ExceptionGroup": lambda: ExceptionGroup("several", [ValueError("a"), KeyError("b")]),
    "BaseExceptionGroup": lambda: BaseExceptionGroup("several", [SystemExit(1), Custom()]),
}

# name -> a thunk that returns junk
RETURNS: dict[str, Callable[[], Any]] = {
    "None": lambda: None,
    "int": lambda: 42,
    "bytes": lambda: b"bytes",
    "object": lambda: object(),
    "unrepresentable object": lambda: Weird(),
    "str subclass": lambda: BadStr("text"),
    "list": lambda: [1, 2],
    "dict": lambda: {"a": 1},
    "nan": lambda: float("nan"),
    "junk program": _junk_program,
}

FAULTS = {**{f"raises {k}": ("raise", v) for k, v in RAISES.items()},
          **{f"returns {k}": ("return", v) for k, v in RETURNS.items()}}


def act(fault: str) -> Any:
    how, thunk = FAULTS[fault]
    if how == "raise":
        raise thunk()
    return thunk()


def _fine(input: Any, context: Any) -> str:
    return "fine"


def _fine_program(input: Any, context: Any) -> Any:
    yield Sleep(0)
    return "fine"


@attrs.frozen
class Spec:
    """One case's set-up: the tools, the layers, interpreter options."""

    registry: ToolRegistry
    builder: PipelineBuilder
    options: dict[str, Any] = attrs.Factory(dict)


def _registry(fault_tool: Tool | None = None) -> ToolRegistry:
    reg = ToolRegistry([Tool.from_function("ok", _fine_program)])
    reg.register(fault_tool or Tool.from_function("F", _fine_program))
    return reg


class _RaisingStore(MemoryStore):
    """A store that meets the fault in ``get`` and ``put`` (the memoized tool's steps)."""

    blocking = True  # run off the loop on the async interpreters, as a real one would

    def __init__(self, fault: str) -> None:
        super().__init__()
        self.fault = fault

    def get(self, namespace: str, key: str) -> Any:
        out = act(self.fault)
        return Nothing if out is None else out

    def put(self, *args: Any) -> Any:
        return act(self.fault)


@attrs.frozen
class _CallLayer:
    fault: str
    name: str = "faulty_call"

    def dispatch(self, ctx: Any, next: Any) -> Any:
        if ctx.tool_name == "F":
            return act(self.fault)  # dispatch() itself meets the fault
        return next(ctx)


@attrs.frozen
class _ProgramLayer:
    fault: str
    name: str = "faulty_program"

    def dispatch(self, ctx: Any, next: Any) -> Any:
        result = yield from next(ctx)
        if ctx.tool_name == "F":
            yield Sleep(0)
            return act(self.fault)
        return result


def build(component: str, fault: str) -> Spec:
    """The set-up in which tool ``F`` meets ``fault`` in ``component``."""
    builder = PipelineBuilder(engine_owned=True)
    if component.startswith("tool"):
        if component == "tool_coroutine":
            async def fn(input: Any, context: Any) -> Any:
                return act(fault)
            tool = Tool.from_function("F", fn)
        elif component == "tool_program":
            def program(input: Any, context: Any) -> Any:
                yield Sleep(0)
                return act(fault)
            tool = Tool.from_function("F", program)
        else:
            tool = Tool.from_function("F", lambda input, context: act(fault),
                                      inline=component == "tool_inline")
        return Spec(_registry(tool), builder)
    if component == "verifier":
        verify = VerifyMiddleware(lambda context, tool, input: act(fault), ["F"])
        return Spec(_registry(), builder.with_middleware(verify))
    if component == "verifier_program":
        def verifier(context: Any, tool: str, input: Any) -> Any:
            yield Sleep(0)
            return act(fault)
        return Spec(_registry(), builder.with_middleware(VerifyMiddleware(verifier, ["F"])))
    if component == "resolver":
        perm = PermissionMiddleware(
            check=lambda ctx: Ask("may I?") if ctx.tool_name == "F" else Allow(),
            ask_resolver=lambda prompt, tool: act(fault))
        return Spec(_registry(), builder.with_middleware(perm))
    if component == "check":
        perm = PermissionMiddleware(
            check=lambda ctx: act(fault) if ctx.tool_name == "F" else Allow())
        return Spec(_registry(), builder.with_middleware(perm))
    if component == "store":
        memo = MemoizingMiddleware(["F"], [])
        return Spec(_registry(), builder.with_middleware(memo),
                    {"store": _RaisingStore(fault)})
    if component == "layer_call":
        return Spec(_registry(), builder.with_middleware(_CallLayer(fault)))
    if component == "layer_program":
        return Spec(_registry(), builder.with_middleware(_ProgramLayer(fault)))
    if component == "listener":
        return Spec(_registry(), builder, {"on_event": lambda event: act(fault)})
    raise ValueError(component)


TOOL_COMPONENTS = ("tool_thread", "tool_inline", "tool_coroutine", "tool_program")
COMPONENTS = (*TOOL_COMPONENTS, "verifier", "verifier_program", "resolver", "check", "store",
              "layer_call", "layer_program", "listener")


def applies(component: str, fault: str) -> bool:
    """Junk returns make sense where a value is returned to toolpipe."""
    if fault.startswith("returns"):
        return component not in ("listener",)
    return True
