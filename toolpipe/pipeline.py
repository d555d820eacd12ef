"""The ``Middleware`` protocol, ``ToolPipeline`` and its immutable builder."""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, Protocol, runtime_checkable

import attrs
from returns.result import Failure, Result, Success

from toolpipe._faults import CORE, checked, checked_generator, guarded, layer_codes
from toolpipe.context import CancelSignal, DispatchContext
from toolpipe.effects import IsCancelled
from toolpipe.errors import PipelineError, ToolpipeWarning
from toolpipe.program import Program
from toolpipe.registry import ToolCallMiddleware, ToolRegistry
from toolpipe.result import DispatchResult

Next = Callable[[DispatchContext], Program[DispatchResult]]
"""The rest of the chain: call it with a (possibly rewritten) context to get its program."""


@runtime_checkable
class Middleware(Protocol):
    """A layer: a pure function from a context and the rest of the chain to a program."""

    @property
    def name(self) -> str: ...

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]: ...


def _check_layer(layer: object, where: str) -> Middleware:
    name = getattr(layer, "name", None)
    if not isinstance(name, str) or not callable(getattr(layer, "dispatch", None)):
        raise TypeError(
            f"{where}: {layer!r:.60} is not a middleware (needs a str `name` and a "
            "`dispatch(ctx, next)` method)"
        )
    return layer  # type: ignore[return-value]


@attrs.frozen
class DispatchCancelled:
    """The hard failure of ``dispatch_all``: the batch was cancelled; results were dropped."""

    completed: int


class ToolPipeline:
    """Layers, outermost first, around the core. Immutable once built."""

    __slots__ = ("_codes", "_entry", "_outer", "core", "layers")

    def __init__(self, layers: Sequence[Middleware], core: ToolCallMiddleware) -> None:
        self.layers: tuple[Middleware, ...] = tuple(
            _check_layer(m, f"layers[{i}]") for i, m in enumerate(layers)
        )
        if not isinstance(core, ToolCallMiddleware):
            raise TypeError(f"core must be a ToolCallMiddleware, got {type(core).__name__}")
        self.core = core
        self._entry = self._chain()
        self._codes = layer_codes(self.layers, core)
        self._outer = f"layer '{self.layers[0].name}'" if self.layers else CORE

    @staticmethod
    def new(registry: ToolRegistry) -> ToolPipeline:
        """Zero layers, core only."""
        return ToolPipeline((), ToolCallMiddleware(registry))

    @staticmethod
    def builder() -> PipelineBuilder:
        return PipelineBuilder()

    def _chain(self) -> Next:
        nxt: Next = self.core.dispatch  # its ``next`` defaults to None
        for i in range(len(self.layers) - 1, -1, -1):
            nxt = _link(self.layers[i], nxt, outermost=i == 0)
        return nxt

    def middleware_names(self) -> list[str]:
        """Outermost first, ending with ``"tool_call"``."""
        return [m.name for m in self.layers] + [self.core.name]

    def dispatch(self, ctx: DispatchContext) -> Program[DispatchResult]:
        if not isinstance(ctx, DispatchContext):
            raise TypeError(f"dispatch() expects a DispatchContext, got {type(ctx).__name__}")
        # every fault of a layer, the core or the store ends this call only (_faults)
        return guarded(self._entry, ctx, self._codes, self._outer)

    def dispatch_all(
        self, calls: Iterable[DispatchContext], cancel: CancelSignal | None = None
    ) -> Program[Result[list[DispatchResult], DispatchCancelled]]:
        """Run calls in order; check cancellation before and after each call.

        On cancellation the answer is the hard failure ``DispatchCancelled`` and the results
        gathered so far are dropped. ``cancel`` defaults to each call's own signal.
        """
        results: list[DispatchResult] = []
        for ctx in calls:
            signal = cancel or ctx.cancel
            if (yield IsCancelled(signal)):
                return Failure(DispatchCancelled(len(results)))
            results.append((yield from self.dispatch(ctx)))
            if (yield IsCancelled(signal)):
                return Failure(DispatchCancelled(len(results)))
        return Success(results)


def _link(layer: Middleware, inner: Next, outermost: bool = False) -> Next:
    """``next`` for the layer outside ``layer``: made of C-level partials, so that passing
    through a layer costs its own program's frame (and a user layer's check) and no call."""
    dispatch = layer.dispatch
    keyword = "next" in inspect.signature(dispatch).parameters
    if keyword and (type(layer).__module__.startswith("toolpipe.") or (
            outermost and inspect.isgeneratorfunction(dispatch))):
        # shipped layers always return a program and a DispatchResult; a user's outermost
        # layer that is a generator function returns a program, and what that returns
        # the guard checks (and names the outermost layer, which this is)
        return partial(dispatch, next=inner)
    # a user's layer has its program's return value checked, so a layer that returns junk
    # (or no program) is named as the culprit
    wrapper = checked_generator if inspect.isgeneratorfunction(dispatch) else checked
    return partial(wrapper, layer.name, dispatch, inner)


@attrs.frozen
class PipelineBuilder:
    """Immutable: every ``with_*`` returns a new builder."""

    layers: tuple[Middleware, ...] = ()
    core: ToolCallMiddleware | None = None
    engine_owned: bool = False

    def with_middleware(self, middleware: Middleware) -> PipelineBuilder:
        layer = _check_layer(middleware, "with_middleware(middleware)")
        return attrs.evolve(self, layers=(*self.layers, layer))

    def with_middlewares(self, middlewares: Iterable[Middleware]) -> PipelineBuilder:
        builder = self
        for m in middlewares:
            builder = builder.with_middleware(m)
        return builder

    def with_ask_resolver(self, resolver: Callable[[str, str], Any] | None
                          ) -> PipelineBuilder:
        """Every layer that asks a person (permission, the safety shield) asks through
        ``resolver(prompt, tool)``: True allows the call, anything else refuses it."""
        layers = tuple(layer.with_ask_resolver(resolver)  # type: ignore[attr-defined]
                       if callable(getattr(layer, "with_ask_resolver", None)) else layer
                       for layer in self.layers)
        return attrs.evolve(self, layers=layers)

    def then(self, other: PipelineBuilder) -> PipelineBuilder:
        """Concatenate: ``self``'s layers outside ``other``'s."""
        if self.core is not None and other.core is not None:
            raise PipelineError("both builders have a core")
        return attrs.evolve(
            self, layers=self.layers + other.layers, core=self.core or other.core
        )

    def with_core(self, registry: ToolRegistry) -> PipelineBuilder:
        if self.engine_owned:
            raise PipelineError(
                "with_core() on a builder handed to an engine: the engine injects its own "
                "registry as the core"
            )
        if self.core is not None:
            raise PipelineError("the builder already has a core")
        return attrs.evolve(self, core=ToolCallMiddleware(registry))

    def build(self) -> ToolPipeline:
        if self.core is None:
            if not self.layers:
                raise PipelineError("cannot build an empty pipeline: no layers and no core")
            raise PipelineError("missing core: call with_core(registry) before build()")
        _warn_unguarded(self.layers, self.core.registry)
        return ToolPipeline(self.layers, self.core)

    def build_with(self, registry: ToolRegistry) -> ToolPipeline:
        """What an engine does: inject its own registry as the core."""
        if self.core is not None:
            raise PipelineError("the builder already has a core; an engine injects its own")
        _warn_unguarded(self.layers, registry)
        return ToolPipeline(self.layers, ToolCallMiddleware(registry))


def _warn_unguarded(layers: Sequence[Middleware], registry: ToolRegistry) -> None:
    """A guard that watches none of the registered tools says so (``unwatched``), once
    the registry it guards is known."""
    if not len(registry):
        return
    for layer in layers:
        unwatched = getattr(layer, "unwatched", None)
        problem = unwatched(registry) if callable(unwatched) else None
        if isinstance(problem, str):
            warnings.warn(problem, ToolpipeWarning, stacklevel=3)
