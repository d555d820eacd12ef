"""MemoizingMiddleware: a per-turn-window cache of read results, invalidated by writes.

All state lives in the interpreter's store, reached through effects: entries, and the epoch
that guards against a read racing a write in the same wave.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs
from returns.maybe import Some

from toolpipe._json import canonical_json
from toolpipe.context import DispatchContext, ToolContext
from toolpipe.effects import (
    CacheDelete,
    CacheEpoch,
    CacheGet,
    CacheInvalidate,
    CachePut,
    Emit,
)
from toolpipe.errors import ConfigError
from toolpipe.layers._util import names, non_negative_int
from toolpipe.layers.paths import NoPathExtractor, WritePathExtractor
from toolpipe.pipeline import Next
from toolpipe.program import Program
from toolpipe.result import DispatchResult, append_text

MARKER = "\n[cached]"
PART_MARKER = "[cached]"


def cache_key(tool: str, input: Mapping[str, Any]) -> str:
    """Tool name + SHA-256 of the input with object keys sorted (key order never matters)."""
    digest = hashlib.sha256(canonical_json(input).encode()).hexdigest()
    return f"{tool}:{digest}"


@attrs.frozen
class MemoEntry:
    result: DispatchResult
    turn_inserted: int
    paths: frozenset[str]


@attrs.frozen
class ExtractorFailed:
    """Emitted when a path extractor raised; the layer then acts conservatively."""

    tool: str
    message: str


def _adapt(extractor: Callable[..., Iterable[str]]) -> Callable[..., Iterable[str]]:
    """Accept ``(tool, input)`` extractors as in the spec, and ``(tool, input, context)``."""
    if not callable(extractor):
        raise ConfigError(f"path_extractor must be callable, got {extractor!r:.60}")
    try:
        params = inspect.signature(extractor).parameters.values()
    except (TypeError, ValueError):
        return extractor
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    varargs = any(p.kind is p.VAR_POSITIONAL for p in params)
    if not varargs and len(positional) == 2:
        return lambda tool, input, context: extractor(tool, input)
    return extractor


class MemoizingMiddleware:
    """``MemoizingMiddleware(cached_tools, write_tools, path_extractor, ttl_turns)``.

    Entries expire when ``turn - turn_inserted >= ttl``; ``ttl=0`` disables caching.
    A successful write removes the entries sharing an exact path with it. Entries whose
    footprint is unknown (no paths) are removed by every write, and a write whose paths are
    unknown (no paths, or an extractor that raised) removes every entry: a cache must never
    serve what a write may have changed.
    """

    name = "memoize"

    def __init__(
        self,
        cached_tools: Iterable[str],
        write_tools: Iterable[str],
        path_extractor: Callable[..., Iterable[str]] | None = None,
        ttl_turns: int = 5,
        *,
        namespace: str = "memoize",
    ) -> None:
        self.write_tools = names("write_tools", write_tools)
        self.cached_tools = names("cached_tools", cached_tools) - self.write_tools
        self.path_extractor = _adapt(path_extractor or WritePathExtractor())
        self.ttl = non_negative_int("ttl_turns", ttl_turns)
        if not isinstance(namespace, str) or not namespace:
            raise ConfigError(f"namespace must be a non-empty string, got {namespace!r}")
        self.namespace = namespace

    @classmethod
    def new(
        cls,
        cached_tools: Iterable[str],
        write_tools: Iterable[str],
        path_extractor: Callable[..., Iterable[str]] | None = None,
        ttl_turns: int = 5,
    ) -> MemoizingMiddleware:
        return cls(cached_tools, write_tools, path_extractor, ttl_turns)

    @classmethod
    def without_paths(
        cls, cached_tools: Iterable[str], write_tools: Iterable[str], ttl_turns: int = 5
    ) -> MemoizingMiddleware:
        return cls(cached_tools, write_tools, NoPathExtractor(), ttl_turns)

    def __repr__(self) -> str:
        return (
            f"MemoizingMiddleware(cached={sorted(self.cached_tools)}, "
            f"writes={sorted(self.write_tools)}, ttl={self.ttl})"
        )

    def _paths(
        self, tool: str, input: Mapping[str, Any], context: ToolContext
    ) -> frozenset[str] | None:
        """The call's paths; None when the extractor failed (unknown footprint)."""
        try:
            paths = self.path_extractor(tool, input, context)
            out = frozenset(paths)
        except Exception:
            return None
        if not all(isinstance(p, str) for p in out):
            return None
        return out

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        tool = ctx.tool_name
        if self.ttl == 0 or (tool not in self.write_tools and tool not in self.cached_tools):
            return (yield from next(ctx))
        ns = self.namespace
        if tool in self.write_tools:
            result = yield from next(ctx)
            if not result.is_error:  # a failed write changed nothing
                paths = self._paths(tool, ctx.input, ctx.tool_context)
                if paths is None:
                    yield Emit(ExtractorFailed(tool, "path extractor failed on a write"))
                yield CacheInvalidate(ns, paths or None)
            return result

        key = cache_key(tool, ctx.input)
        found = yield CacheGet(ns, key)
        if isinstance(found, Some):
            entry: MemoEntry = found.unwrap()
            if ctx.turn_number - entry.turn_inserted < self.ttl:
                cached = entry.result
                return attrs.evolve(
                    cached,
                    tool_call_id=ctx.call_id,
                    output=append_text(cached.output, MARKER, PART_MARKER),
                )
            yield CacheDelete(ns, key)
        epoch = yield CacheEpoch(ns)
        result = yield from next(ctx)
        if result.is_error:
            return result
        paths = self._paths(tool, ctx.input, ctx.tool_context)
        if paths is None:
            yield Emit(ExtractorFailed(tool, "path extractor failed on a read; not cached"))
            return result
        yield CachePut(ns, key, MemoEntry(result, ctx.turn_number, paths), paths, epoch)
        return result
