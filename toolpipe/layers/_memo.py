"""The memoize layer's parts: keys, entries and their events, footprint keys, the marker.

``toolpipe.layers.memoize`` is the public face; these are re-exported there.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import posixpath
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs
from returns.result import Success

from toolpipe._json import canonical_json
from toolpipe._made import maker
from toolpipe.effects import FileOp
from toolpipe.errors import ConfigError
from toolpipe.program import Program
from toolpipe.result import DispatchResult, TextContent

MARKER = "\n[cached]"
PART_MARKER = "[cached]"


_FLAT = (str, int, float, bool, type(None))


def _flat(value: Any) -> str:
    """One flat value, typed as JSON sees it (1 and 1.0 are one number, "1" is not)."""
    if isinstance(value, str):
        return "s" + value
    if value is None or isinstance(value, bool):
        return "j" + json.dumps(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        value = int(value)
    return "n" + repr(value)


def cache_key(tool: str, input: Mapping[str, Any], place: str = "") -> str:
    """Tool name, the workspace (``place``: two agents in two folders never share an
    answer) and the input with object keys sorted (key order never matters). A short flat
    input is its own key; anything else goes through SHA-256 of its canonical JSON."""
    if len(input) <= 4 and all(type(v) in _FLAT for v in input.values()):
        flat = "\x1f".join(f"{k}\x1e{_flat(v)}" for k, v in sorted(input.items()))
        if len(flat) <= 200 and "\x1d" not in flat:
            return f"{tool}\x1d{place}\x1d{flat}"
    digest = hashlib.sha256(canonical_json(input).encode()).hexdigest()
    return f"{tool}\x1d{place}\x1d#{digest}"


@attrs.frozen
class MemoEntry:
    result: DispatchResult
    turn_inserted: int
    paths: frozenset[str]
    stamps: tuple[tuple[str, str, str], ...] = ()
    """``(op, path, stamp)`` of what the answer read, taken before it ran: the entry is
    served only while every one of them is unchanged."""
    stored_at: float | None = None


memo_entry = maker(MemoEntry)
"""``memo_entry(result, turn_inserted, paths, stamps, stored_at)``: one per stored answer,
made as ``toolpipe._made`` makes the kernel's values (tests/test_driver_fast.py)."""


@attrs.frozen
class CacheHit:
    """Emitted when an answer is served from the cache (checked against its stamps)."""

    tool: str
    call_id: str


@attrs.frozen
class CacheMissed:
    """Emitted when an entry was found but no longer holds: what it read changed
    (``reason="changed"``) or it expired (``"expired"``)."""

    tool: str
    reason: str


@attrs.frozen
class ExtractorFailed:
    """Emitted when a path extractor raised; the layer then acts conservatively."""

    tool: str
    message: str


# Tools whose answer depends on a folder tree (its ``path``, "." when absent).
TREE_TOOLS = ("LS", "Glob", "Grep")
SHALLOW_TOOLS = ("LS",)  # of those, the ones that see one level only
SHELL_TOOLS = ("Bash",)
DEFAULT_MAX_ENTRIES = 1024
DEFAULT_MAX_BYTES = 32 * 1024 * 1024
DEFAULT_MAX_ENTRY_CHARS = 256 * 1024
ENTRY_OVERHEAD = 512  # the bytes of an entry beyond its text, roughly


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


UNSTAMPED = "u:*"
"""The footprint key of every entry that has no stamps to check: a call whose writes are
unknown removes those; stamped entries stay and are checked when next asked for."""
UNSTAMPED_ONLY = frozenset({UNSTAMPED})  # the keys of an answer nothing stamps


def _marked(result: DispatchResult, call_id: str) -> DispatchResult:
    """A hit as the model sees it: the same answer, ``cached=True`` for the host, and the
    text marker on plain text only (never inside JSON, never in structured parts)."""
    output = result.output
    if isinstance(output, TextContent) and not _json_like(output.text):
        output = TextContent(output.text + MARKER)
    return attrs.evolve(result, tool_call_id=call_id, output=output, cached=True)


def _json_like(text: str) -> bool:
    """A JSON object or array (a marker appended would make it invalid JSON)."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "[{":
        return False
    try:
        json.loads(stripped)
    except ValueError:
        return False
    return True


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


def stamps_of(specs: Iterable[tuple[str, str]], base: str
              ) -> Program[tuple[tuple[str, str, str], ...] | None]:
    """Each ``(op, path)`` with its stamp now (``FileOp('stamp')``, looked up in
    ``base``); None when one cannot be taken (too large, outside the workspace)."""
    out = []
    for op, path in specs:
        answer = yield FileOp(op, base, path)
        if not isinstance(answer, Success):
            return None
        out.append((op, path, str(answer.unwrap())))
    return tuple(out)


def still_valid(entry: MemoEntry, base: str) -> Program[bool]:
    """Whether everything the entry's answer read is as it was (no stamps: nothing to
    check, the entry stands until a write removes it)."""
    if not entry.stamps:
        return True
    now = yield from stamps_of(((op, path) for op, path, _ in entry.stamps), base)
    return now == entry.stamps
