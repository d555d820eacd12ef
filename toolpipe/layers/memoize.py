"""MemoizingMiddleware: a cache of read results, checked on every hit, invalidated by writes.

All state lives in the interpreter's store, reached through effects: entries, and the epoch
that guards against a read racing a write in the same wave.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

import attrs
from returns.maybe import Some
from returns.result import Success

from toolpipe._checks import names, non_negative_int, positive_int
from toolpipe._made import cache_limits, cache_lookup, cache_put
from toolpipe.context import DispatchContext, ToolContext
from toolpipe.effects import (
    CacheDelete,
    CacheInvalidate,
    Emit,
    FileOp,
    Now,
)
from toolpipe.errors import ConfigError
from toolpipe.layers._memo import (  # the parts; the public ones re-exported here
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_ENTRIES,
    DEFAULT_MAX_ENTRY_CHARS,
    ENTRY_OVERHEAD,
    MARKER,
    PART_MARKER,
    SHALLOW_TOOLS,
    SHELL_TOOLS,
    TREE_TOOLS,
    UNSTAMPED,
    UNSTAMPED_ONLY,
    CacheHit,
    CacheMissed,
    ExtractorFailed,
    MemoEntry,
    _adapt,
    _glob_root,
    _marked,
    cache_key,
    file_keys,
    memo_entry,
    stamps_of,
    still_valid,
    tree_keys,
    write_keys,
)
from toolpipe.layers.paths import (
    COMMAND_FIELDS,
    PATH_FIELDS,
    NoPathExtractor,
    WritePathExtractor,
    normalise,
)
from toolpipe.pipeline import Middleware, Next
from toolpipe.program import Program
from toolpipe.registry import ToolRegistry
from toolpipe.result import DispatchResult
from toolpipe.roles import with_roles
from toolpipe.shell import shell_writes

__all__ = [  # the layer, and the parts other modules import from here
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_ENTRIES",
    "DEFAULT_MAX_ENTRY_CHARS",
    "ENTRY_OVERHEAD",
    "MARKER",
    "PART_MARKER",
    "SHALLOW_TOOLS",
    "SHELL_TOOLS",
    "TREE_TOOLS",
    "UNSTAMPED",
    "CacheHit",
    "CacheMissed",
    "ExtractorFailed",
    "MemoEntry",
    "MemoizeOptions",
    "MemoizingMiddleware",
    "cache_key",
    "file_keys",
    "tree_keys",
    "write_keys",
]


@attrs.frozen(init=False, repr=False)
class MemoizingMiddleware:
    """``MemoizingMiddleware(cached_tools, write_tools, path_extractor, ttl_turns)``.

    **What it caches.** Answers of ``cached_tools`` (tools known to change nothing and to
    answer the same while what they read is the same), keyed by tool, workspace and input.
    Entries expire when ``turn - turn_inserted >= ttl`` (``ttl=0`` disables caching) or,
    with ``ttl_seconds``, on the clock; answers longer than ``max_entry_chars`` are not
    kept; the namespace holds at most ``max_entries`` entries and ``max_bytes`` of
    answers, least recently used evicted first.

    **Every hit is checked.** An entry keeps the stamps (``FileOp('stamp')``: stat of the
    file and of what its links lead to, a folder's entries, a tree's every entry, the
    digest of a file changed in the last two seconds) of what the answer read, taken
    before it ran; a hit whose stamps changed is a miss. This covers writes nobody
    announced: a background job, an editor, another agent on the same store, a hard link.

    **Every other call writes.** ``write_tools`` invalidate what their footprint overlaps
    (the file, listings and searches that can see it; a shell's writes from the shell
    wing). ``read_only_tools`` change nothing. Any other tool is a write with an unknown
    footprint: it removes every entry that has no stamps to check (a stamped entry stays
    and is checked when asked for). A shell or unknown call does so even when it failed
    (it may have written before failing); a file write that failed changed nothing.
    """

    name = "memoize"
    write_tools: frozenset[str]
    cached_tools: frozenset[str]
    path_extractor: Callable[..., Iterable[str]]
    ttl: int
    namespace: str
    tree_tools: frozenset[str]
    shell_tools: frozenset[str]
    read_only_tools: frozenset[str]
    root: str | None
    ttl_seconds: float | None
    max_entries: int | None
    max_bytes: int | None
    max_entry_chars: int
    shallow_tools: frozenset[str]

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
        read_only_tools: Iterable[str] = (),
        root: str | None = None,
        ttl_seconds: float | None = None,
        max_entries: int | None = DEFAULT_MAX_ENTRIES,
        max_bytes: int | None = DEFAULT_MAX_BYTES,
        max_entry_chars: int = DEFAULT_MAX_ENTRY_CHARS,
        shallow_tools: Iterable[str] = SHALLOW_TOOLS,
    ) -> None:
        writes = names("write_tools", write_tools)
        if not isinstance(namespace, str) or not namespace:
            raise ConfigError(f"namespace must be a non-empty string, got {namespace!r}")
        if root is not None and (not isinstance(root, str) or not root):
            raise ConfigError(f"root must be a folder path or None, got {root!r}")
        if ttl_seconds is not None and (isinstance(ttl_seconds, bool) or not isinstance(
                ttl_seconds, int | float) or not ttl_seconds > 0):
            raise ConfigError(f"ttl_seconds must be a positive number or None, "
                              f"got {ttl_seconds!r}")
        cached = names("cached_tools", cached_tools) - writes
        self.__attrs_init__(
            writes, cached,
            _adapt(path_extractor or WritePathExtractor()),
            non_negative_int("ttl_turns", ttl_turns), namespace,
            names("tree_tools", tree_tools), names("shell_tools", shell_tools),
            names("read_only_tools", read_only_tools) | cached, root,
            None if ttl_seconds is None else float(ttl_seconds),
            None if max_entries is None else positive_int("max_entries", max_entries),
            None if max_bytes is None else positive_int("max_bytes", max_bytes),
            positive_int("max_entry_chars", max_entry_chars),
            names("shallow_tools", shallow_tools))

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

    def _base(self, cwd: str) -> str:
        """Where paths are looked up on disk: the workspace, else the call's cwd."""
        return self.root if self.root is not None else cwd

    def _real(self, paths: Iterable[str], cwd: str) -> Program[set[str]]:
        """Each path (normalised against ``cwd`` already), and also as its symlinks resolve
        (both are kept: a path and what it names)."""
        out: set[str] = set()
        base = self._base(cwd)
        for lexical in paths:
            out.add(lexical)
            if posixpath.isabs(base):
                answer = yield FileOp("resolve", base, lexical)
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

    def _tree_root(self, ctx: DispatchContext) -> str:
        input = ctx.input
        root = input.get("path")
        if not isinstance(root, str) or not root:
            pattern = input.get("pattern")
            root = _glob_root(pattern) if ctx.tool_name == "Glob" and isinstance(
                pattern, str) else "."
        return normalise(root, ctx.tool_context.cwd)

    def _read_footprint(self, ctx: DispatchContext
                        ) -> Program[tuple[frozenset[str], tuple[tuple[str, str], ...]] | None]:
        """The keys of a read's answer (empty: unknown, so any write removes it) and what
        to stamp; None when the extractor failed (the answer is then not cached)."""
        tool, input, cwd = ctx.tool_name, ctx.input, ctx.tool_context.cwd
        # no workspace and no absolute cwd: nowhere known to look the paths up (tools that
        # are not the standard ones, a test's fakes): unstamped, removed by every write
        stamped = self.root is not None or posixpath.isabs(cwd)
        if tool in self.tree_tools:
            root = self._tree_root(ctx)
            real = yield from self._real([root], cwd)
            op = "stamp" if tool in self.shallow_tools else "stamp_tree"
            return (frozenset(k for p in real for k in tree_keys(p)),
                    ((op, root),) if stamped else ())
        paths = self._paths(tool, input, ctx.tool_context)
        if paths is None:
            return None
        stamps: tuple[tuple[str, str], ...] = ()
        if stamped:
            if not paths:  # no extractor paths: the standard path field, if any, is stamped
                named = next((input[f] for f in PATH_FIELDS
                              if isinstance(input.get(f), str) and input[f]), None)
                stamp_paths = [normalise(named, cwd)] if named is not None else []
            else:
                stamp_paths = sorted(paths)
            stamps = tuple(("stamp", p) for p in stamp_paths)
        if not paths:  # nothing to resolve: no keys (any write removes the answer)
            return frozenset(), stamps
        real = yield from self._real(sorted(paths), cwd)
        return frozenset(k for p in real for k in file_keys(p)), stamps

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        """The program of a read, a write or neither (no frame of its own: a read's effects
        pass through one frame of this layer, not two)."""
        tool = ctx.tool_name
        if self.ttl == 0:
            return next(ctx)
        if tool in self.cached_tools:
            return self._read(ctx, next)
        if tool in self.read_only_tools:
            return next(ctx)
        return self._write(ctx, next)

    def _write(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        tool = ctx.tool_name
        ns = self.namespace
        if tool not in self.write_tools:  # not known to change nothing: it may change anything
            result = yield from next(ctx)
            yield CacheInvalidate(ns, frozenset({UNSTAMPED}))
            return result
        targets, extractor_failed = self._write_targets(ctx)
        cwd = ctx.tool_context.cwd
        # what the targets named before the write, and (below) what they name after it
        before = None if targets is None else (yield from self._write_keys(targets, cwd))
        result = yield from next(ctx)
        if result.is_error and tool not in self.shell_tools:
            return result  # a file write that failed changed nothing
        if extractor_failed:
            yield Emit(ExtractorFailed(tool, "path extractor failed on a write"))
        if targets is None or before is None:
            yield CacheInvalidate(ns, frozenset({UNSTAMPED}))
        else:
            keys = before | (yield from self._write_keys(targets, cwd))
            if keys:
                yield CacheInvalidate(ns, keys)
        return result

    def _read(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        ns, tool, cwd = self.namespace, ctx.tool_name, ctx.tool_context.cwd
        base = self._base(cwd)
        key = cache_key(tool, ctx.input, f"{base}\x1c{cwd}")
        found, epoch = yield cache_lookup(ns, key)
        now: float | None = None
        if isinstance(found, Some):
            entry: MemoEntry = found.unwrap()
            if self.ttl_seconds is not None:
                now = yield Now()
            expired = ctx.turn_number - entry.turn_inserted >= self.ttl or (
                now is not None and entry.stored_at is not None
                and now - entry.stored_at >= self.ttl_seconds)  # type: ignore[operator]
            if not expired and (yield from still_valid(entry, base)):
                yield Emit(CacheHit(tool, ctx.call_id))
                return _marked(entry.result, ctx.call_id)
            yield CacheDelete(ns, key)
            yield Emit(CacheMissed(tool, "expired" if expired else "changed"))
        # no workspace, no extractor, no tree and a relative cwd: nothing is stamped and
        # there are no paths, so there are no keys (the footprint's program is skipped)
        footprint: tuple[frozenset[str], tuple[tuple[str, str], ...]] | None = NO_KEYS
        if self.root is not None or type(self.path_extractor) is not NoPathExtractor or \
                tool in self.tree_tools or cwd.startswith("/"):  # isabs, for a str
            footprint = yield from self._read_footprint(ctx)
        stamps: tuple[tuple[str, str, str], ...] | None = None
        if footprint is not None:
            stamps = (yield from stamps_of(footprint[1], base)) if footprint[1] else ()
        result = yield from next(ctx)
        if result.is_error:
            return result
        if footprint is None:
            yield Emit(ExtractorFailed(tool, "path extractor failed on a read; not cached"))
            return result
        if stamps is None:  # what it read cannot be checked later (too large, outside)
            return result
        size = len(result.text)
        if size > self.max_entry_chars:
            return result
        keys = footprint[0] if stamps else footprint[0] | UNSTAMPED_ONLY
        if self.ttl_seconds is not None and now is None:
            now = yield Now()
        limits = cache_limits(size + ENTRY_OVERHEAD, ctx.turn_number,
                              ctx.turn_number - self.ttl + 1, self.max_entries, self.max_bytes)
        yield cache_put(ns, key, memo_entry(result, ctx.turn_number, keys, stamps, now), keys,
                        epoch, limits)
        return result


NO_KEYS: tuple[frozenset[str], tuple[tuple[str, str], ...]] = (frozenset(), ())


# --- pipeline-file options ------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class MemoizeOptions:
    """This layer's options in a pipeline file (see toolpipe.config). ``ttl_seconds = 0``:
    no wall-clock bound besides the turns."""

    cached_tools: list[str] = attrs.Factory(lambda: ["Read", "Glob", "Grep", "LS"])
    write_tools: list[str] = attrs.Factory(lambda: ["Write", "Edit", "Bash"])
    ttl_turns: int = 5
    ttl_seconds: float = 0
    paths: Literal["write_path", "none"] = "write_path"
    tree_tools: list[str] = attrs.Factory(lambda: ["LS", "Glob", "Grep"])
    shell_tools: list[str] = attrs.Factory(lambda: ["Bash"])
    max_entries: int = DEFAULT_MAX_ENTRIES
    max_bytes: int = DEFAULT_MAX_BYTES
    max_entry_chars: int = DEFAULT_MAX_ENTRY_CHARS

    def build(self, registry: ToolRegistry) -> Middleware:
        """The named tools, and the registry's tools by declaration: readers and searchers
        that may be cached are (an MCP tool only with ``readOnlyHint`` and a closed world),
        writers and shells invalidate by footprint, read-only tools change nothing, and
        every other tool may change anything (see the class docstring)."""
        extractor = WritePathExtractor() if self.paths == "write_path" else NoPathExtractor()
        roles = registry.roles()
        declared = {d.name: d for d in registry.declarations()}
        writes = with_roles(self.write_tools, roles, "file_write", "shell")
        cached = [n for n in self.cached_tools if n not in writes]
        cached += [n for n, d in declared.items()
                   if d.may_cache and n not in writes and n not in cached]
        read_only = [n for n, d in declared.items() if d.changes_nothing and n not in writes]
        if self.ttl_seconds < 0:
            raise ConfigError(f"ttl_seconds must be 0 (off) or positive, got {self.ttl_seconds}")
        return MemoizingMiddleware(cached, writes, extractor, self.ttl_turns,
                                   tree_tools=with_roles(self.tree_tools, roles, "search"),
                                   shell_tools=with_roles(self.shell_tools, roles, "shell"),
                                   read_only_tools=read_only, root=registry.workspace,
                                   ttl_seconds=self.ttl_seconds or None,
                                   max_entries=self.max_entries, max_bytes=self.max_bytes,
                                   max_entry_chars=self.max_entry_chars)
