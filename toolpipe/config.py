"""Declarative pipelines: layer names in order with their options, in TOML.

    [[layer]]
    name = "timeout"
    timeout = 30
    retry_on_timeout = true
    max_retries = 2

    [[layer]]
    name = "output_limit"
    max_chars = 16384

Options are structured with cattrs into one frozen options class per layer, strictly (no
coercion of ``"yes"`` into ``True``), and every error names the file, the line, the layer
and the option. Parsing is pure: the caller reads the file.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from typing import Any, Literal

import attrs
import cattrs

from toolpipe._cattrs import strict_converter
from toolpipe.context import Ask, Decision, Deny, DispatchContext
from toolpipe.errors import ConfigError
from toolpipe.layers.memoize import MemoizingMiddleware
from toolpipe.layers.output_limit import OutputLimitMiddleware
from toolpipe.layers.paths import NoPathExtractor, WritePathExtractor
from toolpipe.layers.permission import PermissionMiddleware
from toolpipe.layers.redaction import RedactingMiddleware, SecretPatternSet
from toolpipe.layers.shield import DEFAULT_BASH, SPEC_BASH, SafetyShieldMiddleware, UnixShield
from toolpipe.layers.timeout import TimeoutConfig, TimeoutMiddleware
from toolpipe.layers.unknown_tool import UnknownToolMiddleware
from toolpipe.layers.verify import CommandVerifier, NoopVerifier, VerifyMiddleware
from toolpipe.pipeline import Middleware, PipelineBuilder
from toolpipe.registry import ToolRegistry
from toolpipe.shell import MAX_COMMANDS


class PipelineFileError(ConfigError):
    """A pipeline file that cannot be loaded; the message names the line and the option."""


# --- one options class per layer -------------------------------------------------------------


@attrs.frozen(kw_only=True)
class PermissionOptions:
    """``mode`` for every tool, then ``deny`` (always denied) and ``ask`` (needs a human;
    denied when nobody can be asked)."""

    mode: Literal["allow_all", "deny_all", "from_context"] = "allow_all"
    deny: list[str] = attrs.Factory(list)
    ask: list[str] = attrs.Factory(list)
    reason: str = "blocked by policy"


@attrs.frozen(kw_only=True)
class TimeoutOptions:
    timeout: float | None = 120.0
    retry_on_timeout: bool = False
    max_retries: int = 0


@attrs.frozen(kw_only=True)
class OutputLimitOptions:
    max_chars: int = 16_384


@attrs.frozen(kw_only=True)
class UnknownToolOptions:
    threshold: float = 0.4


@attrs.frozen(kw_only=True)
class MemoizeOptions:
    cached_tools: list[str] = attrs.Factory(lambda: ["Read", "Glob", "Grep", "LS"])
    write_tools: list[str] = attrs.Factory(lambda: ["Write", "Edit", "Bash"])
    ttl_turns: int = 5
    paths: Literal["write_path", "none"] = "write_path"
    tree_tools: list[str] = attrs.Factory(lambda: ["LS", "Glob", "Grep"])
    shell_tools: list[str] = attrs.Factory(lambda: ["Bash"])


@attrs.frozen(kw_only=True)
class VerifyOptions:
    """``command`` (``{path}`` is the written file) runs after each successful write; without
    one, the verifier is the NoopVerifier."""

    write_tools: list[str] = attrs.Factory(lambda: ["Write", "Edit"])
    command: str | None = None
    timeout: float = 60.0


@attrs.frozen(kw_only=True)
class RedactionOptions:
    entropy: bool = True
    patterns: dict[str, str] = attrs.Factory(dict)


@attrs.frozen(kw_only=True)
class ShieldOptions:
    block_threshold: float = 0.7
    warn_threshold: float = 0.4
    watched_tools: list[str] | None = None
    bash_tools: list[str] = attrs.Factory(lambda: ["Bash"])
    write_tools: list[str] = attrs.Factory(lambda: ["Write", "Edit", "MultiEdit"])
    # the departures from the spec, each with the option that restores it
    workspace_deletions: float = 0.4
    multi: str = "risky"  # or "all"
    spec_patterns: bool = False  # the spec's rm and sudo patterns
    max_length: int = 1 << 16
    max_commands: int = MAX_COMMANDS


OPTIONS: dict[str, type[Any]] = {
    "permission": PermissionOptions, "timeout": TimeoutOptions,
    "output_limit": OutputLimitOptions, "unknown_tool": UnknownToolOptions,
    "memoize": MemoizeOptions, "verify": VerifyOptions, "redaction": RedactionOptions,
    "safety_shield": ShieldOptions,
}
LAYER_NAMES = tuple(OPTIONS)


def _policy(options: PermissionOptions) -> Callable[[DispatchContext], Decision] | None:
    deny, ask = frozenset(options.deny), frozenset(options.ask)
    if not deny and not ask:
        return None
    base = PermissionMiddleware(options.mode)

    def check(ctx: DispatchContext) -> Decision:
        if ctx.tool_name in deny:
            return Deny(options.reason)
        if ctx.tool_name in ask:
            return Ask(f"allow {ctx.tool_name}?")
        return base.decide(ctx)

    return check


def build_layer(options: Any, registry: ToolRegistry) -> Middleware:
    """The layer for one options object (constructors check the values)."""
    if isinstance(options, PermissionOptions):
        layer = PermissionMiddleware(options.mode)
        check = _policy(options)
        return layer.with_check(check) if check is not None else layer
    if isinstance(options, TimeoutOptions):
        return TimeoutMiddleware(TimeoutConfig(options.timeout, options.retry_on_timeout,
                                               options.max_retries))
    if isinstance(options, OutputLimitOptions):
        return OutputLimitMiddleware(options.max_chars)
    if isinstance(options, UnknownToolOptions):
        return UnknownToolMiddleware(registry, options.threshold)
    if isinstance(options, MemoizeOptions):
        extractor = WritePathExtractor() if options.paths == "write_path" else NoPathExtractor()
        return MemoizingMiddleware(options.cached_tools, options.write_tools, extractor,
                                   options.ttl_turns, tree_tools=options.tree_tools,
                                   shell_tools=options.shell_tools)
    if isinstance(options, VerifyOptions):
        verifier: Any = (NoopVerifier() if options.command is None
                         else CommandVerifier(options.command, timeout=options.timeout))
        return VerifyMiddleware(verifier, options.write_tools, timeout=options.timeout)
    if isinstance(options, RedactionOptions):
        patterns = SecretPatternSet.default_common()
        if not options.entropy:
            patterns = patterns.without_entropy()
        for kind, regex in options.patterns.items():
            try:
                patterns = patterns.with_pattern(kind, regex)
            except ConfigError as exc:
                raise ConfigError(f"patterns: {exc}") from None
        return RedactingMiddleware(patterns)
    if isinstance(options, ShieldOptions):
        if options.multi not in ("risky", "all"):
            raise ConfigError(f"multi: must be 'risky' or 'all', got {options.multi!r:.40}")
        shield = UnixShield(block_threshold=options.block_threshold,
                            warn_threshold=options.warn_threshold,
                            bash_tools=options.bash_tools, write_tools=options.write_tools,
                            workspace_deletions=options.workspace_deletions,
                            multi="all" if options.multi == "all" else "risky",
                            bash_patterns=SPEC_BASH if options.spec_patterns else DEFAULT_BASH,
                            max_length=options.max_length, max_commands=options.max_commands)
        return SafetyShieldMiddleware(shield, options.watched_tools)
    raise ConfigError(f"no layer for {options!r:.60}")  # pragma: no cover - OPTIONS is closed


# --- strict structuring ----------------------------------------------------------------------


CONVERTER = strict_converter()


def _messages(exc: Exception, options: type[Any]) -> list[tuple[str, str]]:
    """(option, sentence) pairs from a cattrs error."""
    known = ", ".join(a.name for a in attrs.fields(options))

    def describe(error: BaseException, _: Any) -> str:
        if isinstance(error, cattrs.ForbiddenExtraKeysError):
            return "unknown option(s) " + "|".join(sorted(error.extra_fields))
        text = str(error)
        literal = re.match(r"(.+) not in literal typing\.Literal\[(.*)\]", text)
        if literal:
            return f"must be one of {literal.group(2)}, got {literal.group(1)!r}"
        return text

    out = []
    for message in cattrs.transform_error(exc, format_exception=describe):
        text, _, path = message.rpartition(" @ ")
        option = path.removeprefix("$").lstrip(".").split(".")[0].split("[")[0]
        if text.startswith("unknown option(s) "):
            for name in text.removeprefix("unknown option(s) ").split("|"):
                out.append((name, f"unknown option; the options are: {known}"))
        else:
            out.append((option, text))
    return out


# --- loading ---------------------------------------------------------------------------------


@attrs.frozen
class _Lines:
    """Where each ``[[layer]]`` table and each of its options starts, for error messages."""

    headers: tuple[int, ...]
    options: tuple[Mapping[str, int], ...]

    @classmethod
    def scan(cls, text: str) -> _Lines:
        headers: list[int] = []
        options: list[dict[str, int]] = []
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            if re.match(r"\[\[\s*layer\s*\]\]", stripped):
                headers.append(number)
                options.append({})
            elif headers and (m := re.match(r"""["']?([\w-]+)["']?\s*=""", stripped)):
                options[-1].setdefault(m.group(1), number)
        return cls(tuple(headers), tuple(options))

    def line(self, index: int, option: str | None = None) -> int:
        if index >= len(self.headers):
            return 1
        if option is not None and option in self.options[index]:
            return self.options[index][option]
        return self.headers[index]


def load_pipeline(text: str, registry: ToolRegistry, *,
                  source: str = "pipeline.toml") -> PipelineBuilder:
    """A builder (no core) from pipeline-file text; raises ``PipelineFileError``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PipelineFileError(f"{source}: not valid TOML: {exc}") from None
    lines = _Lines.scan(text)
    unknown = sorted(set(data) - {"layer", "version"})
    if unknown:
        raise PipelineFileError(
            f"{source}: unknown top-level key(s) {', '.join(unknown)}; "
            "expected [[layer]] tables"
        )
    version = data.get("version", 1)
    if version != 1:
        raise PipelineFileError(f"{source}: version {version!r} is not supported (only 1)")
    layers = data.get("layer", [])
    if not isinstance(layers, list) or not layers:
        raise PipelineFileError(f"{source}: no [[layer]] tables: a pipeline needs layers")
    builder = PipelineBuilder()
    for index, table in enumerate(layers):
        where = f"{source}:{lines.line(index)}: layer {index + 1}"
        table = dict(table)
        name = table.pop("name", None)
        if name is None:
            raise PipelineFileError(f"{where}: missing 'name' (one of {', '.join(LAYER_NAMES)})")
        if name not in OPTIONS:
            raise PipelineFileError(
                f"{source}:{lines.line(index, 'name')}: layer {index + 1}: unknown layer name "
                f"{name!r}; expected one of {', '.join(LAYER_NAMES)}"
            )
        try:
            options = CONVERTER.structure(table, OPTIONS[name])
        except Exception as exc:
            problems = _messages(exc, OPTIONS[name])
            raise PipelineFileError("\n".join(
                f"{source}:{lines.line(index, option)}: layer {index + 1} ({name}): option "
                f"'{option}': {text}" for option, text in problems
            )) from None
        try:
            layer = build_layer(options, registry)
        except (ConfigError, ValueError, TypeError) as exc:
            message = str(exc)
            option = next((o for o in sorted(table, key=len, reverse=True)
                           if message.startswith(o)), None)
            line = lines.line(index, option)
            label = f"option '{option}'" if option else "options"
            if option:
                message = message[len(option):].lstrip(": ")
            raise PipelineFileError(
                f"{source}:{line}: layer {index + 1} ({name}): {label}: {message}"
            ) from None
        builder = builder.with_middleware(layer)
    return builder


DEFAULT_PIPELINE = """\
# toolpipe's default pipeline, outermost layer first.
version = 1

[[layer]]
name = "permission"        # deny before any work
mode = "allow_all"
deny = []

[[layer]]
name = "output_limit"      # outermost of the rewriting layers: caps everything inside
max_chars = 16384

[[layer]]
name = "redaction"         # outside verify: scrubs what a verifier echoes too

[[layer]]
name = "timeout"           # bounds every layer inside it
timeout = 30
retry_on_timeout = true
max_retries = 1

[[layer]]
name = "unknown_tool"
threshold = 0.4

[[layer]]
name = "safety_shield"     # outside memoize: cache-served repeats are still scored

[[layer]]
name = "verify"            # outside memoize: every write is verified anew
write_tools = ["Write", "Edit"]

[[layer]]
name = "memoize"           # innermost: caches raw results
cached_tools = ["Read", "Glob", "Grep", "LS"]
write_tools = ["Write", "Edit", "Bash"]
ttl_turns = 5
"""
