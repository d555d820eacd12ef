"""TimeoutMiddleware: a per-call clock, with optional retries that double the deadline."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

import attrs
from returns.result import Success

from toolpipe._checks import finite_number, names, non_negative_int
from toolpipe.context import DispatchContext
from toolpipe.effects import Expired, WithDeadline
from toolpipe.failures import Cancelled, TimedOut
from toolpipe.pipeline import Middleware, Next
from toolpipe.program import Program
from toolpipe.registry import ToolRegistry
from toolpipe.result import DispatchResult


def _timeout(value: object) -> float | None:
    if value is None:
        return None
    return finite_number("timeout", value, positive=True)


def _retries(value: object) -> int:
    return non_negative_int("max_retries", value)


@attrs.frozen
class TimeoutConfig:
    """``timeout`` in seconds (None: never), defaults: 120 s, no retry."""

    timeout: float | None = attrs.field(default=120.0, converter=_timeout)
    retry_on_timeout: bool = attrs.field(
        default=False, validator=attrs.validators.instance_of(bool)
    )
    max_retries: int = attrs.field(default=0, converter=_retries)


@attrs.frozen(init=False, repr=False)
class TimeoutMiddleware:
    """Each attempt runs the whole inner chain under a deadline; an expired attempt is
    cancelled (no partial output). With retries, the deadline doubles each attempt.

    ``retry_tools``: the tools a timed-out call may be run again for (None: every tool).
    A pipeline file's timeout layer retries only the tools whose declaration says a second
    run is safe (``ToolDeclaration.retry_safe``: readers, searchers, ``idempotent=True``,
    MCP ``readOnlyHint``/``idempotentHint``): a write that timed out may still have
    happened, and must not happen twice."""

    name = "timeout"
    config: TimeoutConfig
    retry_tools: frozenset[str] | None

    def __init__(self, config: TimeoutConfig | None = None, *,
                 retry_tools: Iterable[str] | None = None) -> None:
        if config is not None and not isinstance(config, TimeoutConfig):
            raise TypeError(f"config must be a TimeoutConfig, got {type(config).__name__}")
        self.__attrs_init__(config or TimeoutConfig(),
                            None if retry_tools is None else names("retry_tools",
                                                                   retry_tools))

    @classmethod
    def from_secs(cls, seconds: float) -> TimeoutMiddleware:
        return cls(TimeoutConfig(timeout=seconds))

    @classmethod
    def none(cls) -> TimeoutMiddleware:
        return cls(TimeoutConfig(timeout=None))

    def __repr__(self) -> str:
        if self.retry_tools is None:
            return f"TimeoutMiddleware({self.config!r})"
        return f"TimeoutMiddleware({self.config!r}, retry_tools={sorted(self.retry_tools)})"

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        config = self.config
        deadline = config.timeout
        if deadline is None:
            return (yield from next(ctx))
        retries = config.max_retries if config.retry_on_timeout else 0
        if retries and self.retry_tools is not None and ctx.tool_name not in self.retry_tools:
            retries = 0  # not safe to run twice
        attempt = 0
        while True:
            answer = yield WithDeadline(deadline, partial(next, ctx), ctx.cancel)
            if isinstance(answer, Success):
                return answer.unwrap()  # type: ignore[no-any-return]
            if not isinstance(answer.failure(), Expired):
                return DispatchResult.failed(ctx.call_id, Cancelled(ctx.tool_name))
            if attempt >= retries:
                return DispatchResult.failed(ctx.call_id, TimedOut(ctx.tool_name, deadline),
                                             deadline)
            attempt += 1
            deadline *= 2


# --- pipeline-file options ------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class TimeoutOptions:
    """This layer's options in a pipeline file (see toolpipe.config)."""

    timeout: float | None = 120.0
    retry_on_timeout: bool = False
    max_retries: int = 0

    def build(self, registry: ToolRegistry) -> Middleware:
        safe = [t.name for t in registry._tools.values() if t.declaration.retry_safe]
        return TimeoutMiddleware(TimeoutConfig(self.timeout, self.retry_on_timeout,
                                               self.max_retries), retry_tools=safe)
