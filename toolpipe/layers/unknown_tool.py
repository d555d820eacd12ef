"""UnknownToolMiddleware: "did you mean…?" on registry misses, by LCS similarity."""

from __future__ import annotations

import math

import attrs

from toolpipe._names import DEFAULT_THRESHOLD as DEFAULT_THRESHOLD
from toolpipe._names import best_match as best_match
from toolpipe._names import closest as closest
from toolpipe._names import did_you_mean as did_you_mean
from toolpipe._names import similarity as similarity
from toolpipe.context import DispatchContext
from toolpipe.errors import ConfigError
from toolpipe.failures import NotFound
from toolpipe.pipeline import Middleware, Next
from toolpipe.program import Program
from toolpipe.registry import ToolRegistry
from toolpipe.result import DispatchResult, TextContent


def _threshold(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise ConfigError(f"threshold must be a number in [0, 1], got {value!r}")
    return min(1.0, max(0.0, float(value)))


@attrs.frozen
class UnknownToolMiddleware:
    """Appends ``. Did you mean '{best}'?`` to not-found errors when the best match's
    similarity is at least ``threshold`` (default 0.4, inclusive)."""

    registry: ToolRegistry = attrs.field(validator=attrs.validators.instance_of(ToolRegistry))
    threshold: float = attrs.field(default=DEFAULT_THRESHOLD, converter=_threshold)
    name: str = attrs.field(default="unknown_tool", init=False)

    def with_threshold(self, threshold: float) -> UnknownToolMiddleware:
        return attrs.evolve(self, threshold=threshold)

    def suggest(self, name: str) -> str | None:
        return closest(name, self.registry.names(), self.threshold)

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        result = yield from next(ctx)
        output, cause = result.output, result.cause
        if not isinstance(cause, NotFound) or not isinstance(output, TextContent):
            return result
        suffix = did_you_mean(result.resolved_tool_name or ctx.tool_name,
                              self.registry.names(), self.threshold)
        if not suffix:
            return result
        return attrs.evolve(result, output=TextContent(output.text + suffix),
                            cause=attrs.evolve(cause, suggestion=cause.suggestion + suffix))


# --- pipeline-file options ------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class UnknownToolOptions:
    """This layer's options in a pipeline file (see toolpipe.config)."""

    threshold: float = 0.4

    def build(self, registry: ToolRegistry) -> Middleware:
        return UnknownToolMiddleware(registry, self.threshold)
