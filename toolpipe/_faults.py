"""Faults stay in their call: the guard around every dispatch.

Whatever a layer, the core or the store raises (any ``BaseException`` but
``KeyboardInterrupt``), or whatever a layer's program returns instead of a
``DispatchResult``, the call ends with an error result whose cause says which component
failed (``ComponentFailed``, ``BadReturn``), and a ``ComponentFault`` event is logged with
where it happened. Nothing escapes ``ToolPipeline.dispatch``.

Tools themselves are isolated by the interpreters (their failures arrive as values, see
``toolpipe.effects.CallOutcome``); this guard is for the code between the engine and the
tool.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import CodeType, GeneratorType, TracebackType
from typing import Any

import attrs

from toolpipe._checks import error_text
from toolpipe.context import DispatchContext
from toolpipe.effects import Emit
from toolpipe.errors import ProgramError, StoreFailed
from toolpipe.events import LoggedEvent
from toolpipe.failures import BadReturn, Cause, ComponentFailed
from toolpipe.program import Program
from toolpipe.result import DispatchResult

CORE = "the pipeline core"


@attrs.frozen
class ComponentFault(LoggedEvent):
    """A component other than the tool failed in a call; its result says so."""

    tool: str = ""
    call_id: str = ""
    component: str = ""
    error: str = ""
    where: str = ""
    level: int = attrs.field(default=logging.ERROR, kw_only=True)
    logger: str = attrs.field(default="toolpipe.pipeline", kw_only=True)

    def message(self) -> str:
        at = f" at {self.where}" if self.where else ""
        return (f"call {self.call_id!r} of tool {self.tool!r}: {self.component} "
                f"failed{at}: {self.error}")


class LayerReturned(Exception):
    """A user layer's program returned something that is not a ``DispatchResult``."""

    def __init__(self, layer: str, value: object) -> None:
        super().__init__(f"layer {layer!r} returned {type(value).__name__}")
        self.layer = layer
        self.got = type(value).__name__


class NotAProgram(ProgramError):
    """A layer's ``dispatch()`` returned something that is not a program."""

    def __init__(self, layer: str, value: object) -> None:
        super().__init__(
            f"layer {layer!r} returned {type(value).__name__} from dispatch(); it must "
            "return a program (a generator: use `yield from next(ctx)`)")
        self.layer = layer
        self.got = type(value).__name__


def checked(layer: str, dispatch: Callable[[DispatchContext, Any], Any], inner: Any,
            ctx: DispatchContext) -> Program[DispatchResult]:
    """A user layer's program: made at its first step, and its return value checked
    (shipped layers are not wrapped). One frame per layer, no function call before it."""
    program = dispatch(ctx, inner)
    if type(program) is not GeneratorType:
        raise NotAProgram(layer, program)
    result = yield from program
    if type(result) is not DispatchResult and not isinstance(result, DispatchResult):
        raise LayerReturned(layer, result)
    return result


def checked_generator(layer: str, dispatch: Callable[[DispatchContext, Any], Any],
                      inner: Any, ctx: DispatchContext) -> Program[DispatchResult]:
    """``checked`` for a layer whose ``dispatch`` is a generator function: what it returns
    is a program by construction, so only its return value is checked."""
    result = yield from dispatch(ctx, inner)
    if type(result) is not DispatchResult and not isinstance(result, DispatchResult):
        raise LayerReturned(layer, result)
    return result


_CHECKED = frozenset((checked.__code__, checked_generator.__code__))


def _closed(error: GeneratorExit) -> bool:
    """True when the interpreter closed the program (``gen.close()``): the exit was raised
    at the guard's own ``yield from``, not by user code further in."""
    tb = error.__traceback__
    return tb is None or tb.tb_next is None


def _innermost(tb: TracebackType | None, codes: dict[CodeType, str]) -> tuple[str, str]:
    """The innermost layer frame of a traceback (its name) and where the error arose."""
    name, where = CORE, ""
    while tb is not None:
        code = tb.tb_frame.f_code
        found = codes.get(code)
        if found is not None:
            name = found
        elif code in _CHECKED:  # a user layer's program, whatever function made it
            name = f"layer '{tb.tb_frame.f_locals.get('layer', '?')}'"
        where = f"{code.co_filename}:{tb.tb_lineno}"
        tb = tb.tb_next
    return name, where


def guarded(
    entry: Callable[[DispatchContext], Program[DispatchResult]],
    ctx: DispatchContext,
    codes: dict[CodeType, str],
    outer: str,
) -> Program[DispatchResult]:
    """``entry(ctx)``, with every fault of a component turned into the call's result
    (``outer`` names the outermost component, which returned the result)."""
    try:
        result = yield from entry(ctx)
    except KeyboardInterrupt:
        raise
    except GeneratorExit as error:
        if _closed(error):
            raise
        cause, event = _blame(ctx, error, codes)
    except BaseException as error:  # every other fault stays in this call
        cause, event = _blame(ctx, error, codes)
    else:
        if type(result) is DispatchResult or isinstance(result, DispatchResult):
            return result
        cause = BadReturn(ctx.tool_name, outer, type(result).__name__, "a DispatchResult")
        event = ComponentFault(tool=ctx.tool_name, call_id=ctx.call_id, component=outer,
                               error=f"returned {type(result).__name__}")
    yield Emit(event)
    return DispatchResult.failed(ctx.call_id, cause)


def _blame(ctx: DispatchContext, error: BaseException,
           codes: dict[CodeType, str]) -> tuple[Cause, ComponentFault]:
    component, where = _innermost(error.__traceback__, codes)
    cause: Cause
    if isinstance(error, LayerReturned | NotAProgram):
        component = f"layer '{error.layer}'"
        text = str(error)
        expected = "a DispatchResult" if isinstance(error, LayerReturned) else "a program"
        cause = BadReturn(ctx.tool_name, component, error.got, expected)
    elif isinstance(error, StoreFailed):
        component = "the store"
        text = error.detail
        cause = ComponentFailed(ctx.tool_name, component, text)
    else:
        text = error_text(error)
        cause = ComponentFailed(ctx.tool_name, component, text)
    return cause, ComponentFault(tool=ctx.tool_name, call_id=ctx.call_id,
                                 component=component, error=text, where=where)


def layer_codes(layers: Any, core: Any) -> dict[CodeType, str]:
    """The code object of each layer's ``dispatch`` and of the other functions its class
    defines (its helper programs: a ``dispatch`` may return one and keep no frame of its
    own), and the core's, by layer name."""
    codes: dict[CodeType, str] = {}
    for layer in (core, *layers):
        name = CORE if layer is core else f"layer '{layer.name}'"
        dispatch = getattr(type(layer), "dispatch", None)
        helpers = [getattr(v, "__func__", v) for klass in type(layer).__mro__
                   if klass is not object for v in vars(klass).values()]
        for fn in (dispatch, *helpers):
            code = getattr(fn, "__code__", None)
            if isinstance(code, CodeType):
                codes.setdefault(code, name)
    return codes
