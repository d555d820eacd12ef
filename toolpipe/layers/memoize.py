"""MemoizingMiddleware: a per-turn-window cache of read results, invalidated by writes.

All state lives in the interpreter's store, reached through effects: entries, and the epoch
that guards against a read racing a write in the same wave.
"""

from __future__ import annotations

import hashlib
import inspect
import posixpath
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

import attrs
from returns.maybe import Some
from returns.result import Success

from toolpipe._checks import names, non_negative_int
from toolpipe._json import canonical_json
from toolpipe.context import DispatchContext, ToolContext
from toolpipe.effects import (
    CacheDelete,
    CacheEpoch,
    CacheGet,
    CacheInvalidate,
    CachePut,
    Emit,
    FileOp,
)
from toolpipe.errors import ConfigError
from toolpipe.layers.paths import COMMAND_FIELDS, NoPathExtractor, WritePathExtractor, normalise
from toolpipe.pipeline import Middleware, Next
from toolpipe.program import Program
from toolpipe.registry import ToolRegistry
from toolpipe.result import DispatchResult, append_text
from toolpipe.roles import with_roles
from toolpipe.shell import shell_writes

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


# Tools whose answer depends on a folder tree (its ``path``, "." when absent).
TREE_TOOLS = ("LS", "Glob", "Grep")
SHELL_TOOLS = ("Bash",)


def _ancestors(path: str) -> list[str]:
    """``src/a/b.py`` → ``src/a``, ``src``, ``.``; ``/w/a`` → ``/w``, ``/``."""
    out: list[str] = []
    while True:
        parent = posixpath.dirname(path) or "."
        if parent == path:
            return out
        out.append(parent)
        path = parent


def file_keys(path: str) -> frozenset[str]:
    """The store keys of an answer that depends on one file: the file, and each folder
    above it (removing or moving a folder changes what is under it)."""
    return frozenset({f"f:{path}", *(f"d:{a}" for a in _ancestors(path))})


def tree_keys(root: str) -> frozenset[str]:
    """The store keys of an answer that depends on everything under a folder."""
    return frozenset({f"t:{root}", *(f"d:{a}" for a in _ancestors(root))})


def write_keys(path: str) -> frozenset[str]:
    """The keys a write to ``path`` invalidates: answers that read it (or read anything
    under it, if it is a folder) and listings or searches of every folder that can see it."""
    return frozenset({f"f:{path}", f"d:{path}", f"t:{path}",
                      *(f"t:{a}" for a in _ancestors(path))})


def _glob_root(pattern: str) -> str:
    """The folder a glob pattern cannot leave: its part before the first wildcard."""
    cut = min((i for i, c in enumerate(pattern) if c in "*?["), default=len(pattern))
    head = pattern[:cut]
    return posixpath.dirname(head) if "/" in head else "."


@attrs.frozen(init=False, repr=False)
class MemoizingMiddleware:
    """``MemoizingMiddleware(cached_tools, write_tools, path_extractor, ttl_turns)``.

    Entries expire when ``turn - turn_inserted >= ttl``; ``ttl=0`` disables caching. Each
    entry records its footprint: the file it read (``Read``, or the extractor's paths), or
    the folder tree it listed or searched (``tree_tools``: LS, Glob, Grep). A successful
    write removes every entry whose footprint it overlaps: the file itself, every listing
    or search of a folder that can see it, every answer under a folder it replaced. Paths
    are normalised against the call's cwd and, when the cwd is a real folder, symlinks are
    resolved (``FileOp('resolve')``), so a file has one path however it is named. A shell
    command's writes come from the shell wing: a command known to write nothing leaves the
    cache alone; one whose writes cannot be known removes every entry. Entries with an
    unknown footprint are removed by every write: a cache must never serve what a write may
    have changed.
    """

    name = "memoize"
    write_tools: frozenset[str]
    cached_tools: frozenset[str]
    path_extractor: Callable[..., Iterable[str]]
    ttl: int
    namespace: str
    tree_tools: frozenset[str]
    shell_tools: frozenset[str]

    def __init__(
        self,
        cached_tools: Iterable[str],
        write_tools: Iterable[str],
        path_extractor: Callable[..., Iterable[str]] | None = None,
        ttl_turns: int = 5,
        *,
        namespace: str = "memoize",
        tree_tools: Iterable[str] = TREE_TOOLS,
        shell_tools: Iterable[str] = SHELL_TOOLS,
    ) -> None:
        writes = names("write_tools", write_tools)
        if not isinstance(namespace, str) or not namespace:
            raise ConfigError(f"namespace must be a non-empty string, got {namespace!r}")
        self.__attrs_init__(
            writes, names("cached_tools", cached_tools) - writes,
            _adapt(path_extractor or WritePathExtractor()),
            non_negative_int("ttl_turns", ttl_turns), namespace,
            names("tree_tools", tree_tools), names("shell_tools", shell_tools))

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

    def _real(self, paths: Iterable[str], cwd: str) -> Program[set[str]]:
        """Each path (normalised against ``cwd`` already), and also as its symlinks resolve
        when the cwd is a real folder (both are kept: a path and what it names)."""
        out: set[str] = set()
        for lexical in paths:
            out.add(lexical)
            if posixpath.isabs(cwd):
                answer = yield FileOp("resolve", cwd, lexical)
                if isinstance(answer, Success):
                    out.add(posixpath.normpath(str(answer.unwrap())))
        return out

    def _write_targets(self, ctx: DispatchContext) -> tuple[list[str] | None, bool]:
        """The paths a write may change (empty: none), or None: unknown; and whether the
        path extractor failed. Worked out once per write, before it runs."""
        tool, input, cwd = ctx.tool_name, ctx.input, ctx.tool_context.cwd
        command = next((input[f] for f in COMMAND_FIELDS if isinstance(input.get(f), str)),
                       None)
        if tool in self.shell_tools and command is not None:
            return shell_writes(command, cwd), False
        paths = self._paths(tool, input, ctx.tool_context)
        return (sorted(paths) if paths else None), paths is None

    def _write_keys(self, targets: list[str], cwd: str) -> Program[frozenset[str]]:
        """The keys writes to ``targets`` invalidate, as the paths resolve now."""
        real = yield from self._real(targets, cwd)
        return frozenset(k for p in real for k in write_keys(p))

    def _read_footprint(self, ctx: DispatchContext) -> Program[frozenset[str] | None]:
        """The keys of a read's answer (empty: unknown, so any write removes it), or None
        when the extractor failed (the answer is then not cached)."""
        tool, input, cwd = ctx.tool_name, ctx.input, ctx.tool_context.cwd
        if tool in self.tree_tools:
            root = input.get("path")
            if not isinstance(root, str) or not root:
                pattern = input.get("pattern")
                root = _glob_root(pattern) if tool == "Glob" and isinstance(
                    pattern, str) else "."
            real = yield from self._real([normalise(root, cwd)], cwd)
            return frozenset(k for p in real for k in tree_keys(p))
        paths = self._paths(tool, input, ctx.tool_context)
        if paths is None:
            return None
        real = yield from self._real(sorted(paths), cwd)
        return frozenset(k for p in real for k in file_keys(p))

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        tool = ctx.tool_name
        if self.ttl == 0 or (tool not in self.write_tools and tool not in self.cached_tools):
            return (yield from next(ctx))
        ns = self.namespace
        if tool in self.write_tools:
            targets, extractor_failed = self._write_targets(ctx)
            cwd = ctx.tool_context.cwd
            # what the targets named before the write, and (below) what they name after it
            before = None if targets is None else (yield from self._write_keys(targets, cwd))
            result = yield from next(ctx)
            if not result.is_error:  # a failed write changed nothing
                if extractor_failed:
                    yield Emit(ExtractorFailed(tool, "path extractor failed on a write"))
                if targets is None or before is None:
                    yield CacheInvalidate(ns, None)
                else:
                    keys = before | (yield from self._write_keys(targets, cwd))
                    if keys:
                        yield CacheInvalidate(ns, keys)
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
        footprint = yield from self._read_footprint(ctx)
        result = yield from next(ctx)
        if result.is_error:
            return result
        if footprint is None:
            yield Emit(ExtractorFailed(tool, "path extractor failed on a read; not cached"))
            return result
        yield CachePut(ns, key, MemoEntry(result, ctx.turn_number, footprint), footprint,
                       epoch)
        return result


# --- pipeline-file options ------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class MemoizeOptions:
    """This layer's options in a pipeline file (see toolpipe.config)."""

    cached_tools: list[str] = attrs.Factory(lambda: ["Read", "Glob", "Grep", "LS"])
    write_tools: list[str] = attrs.Factory(lambda: ["Write", "Edit", "Bash"])
    ttl_turns: int = 5
    paths: Literal["write_path", "none"] = "write_path"
    tree_tools: list[str] = attrs.Factory(lambda: ["LS", "Glob", "Grep"])
    shell_tools: list[str] = attrs.Factory(lambda: ["Bash"])

    def build(self, registry: ToolRegistry) -> Middleware:
        """The named tools, and the registry's tools by role: readers and searchers are
        cached, writers and shells invalidate (see toolpipe.roles)."""
        extractor = WritePathExtractor() if self.paths == "write_path" else NoPathExtractor()
        roles = registry.roles()
        writes = with_roles(self.write_tools, roles, "file_write", "shell")
        cached = [n for n in with_roles(self.cached_tools, roles, "file_read", "search")
                  if n not in writes]
        return MemoizingMiddleware(cached, writes, extractor, self.ttl_turns,
                                   tree_tools=with_roles(self.tree_tools, roles, "search"),
                                   shell_tools=with_roles(self.shell_tools, roles, "shell"))
