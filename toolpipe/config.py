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
and the option. Each options class lives beside its layer, with the ``build()`` that makes
the layer; this module holds one line per layer (``OPTIONS``) and the loading. Parsing is
pure: the caller reads the file.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any, Literal

import attrs
import cattrs

from toolpipe._cattrs import strict_converter
from toolpipe.errors import ConfigError
from toolpipe.layers.memoize import MemoizeOptions as MemoizeOptions
from toolpipe.layers.output_limit import OutputLimitOptions as OutputLimitOptions
from toolpipe.layers.permission import PermissionOptions as PermissionOptions
from toolpipe.layers.redaction import RedactionOptions as RedactionOptions
from toolpipe.layers.shield import ShieldOptions as ShieldOptions
from toolpipe.layers.timeout import TimeoutOptions as TimeoutOptions
from toolpipe.layers.unknown_tool import UnknownToolOptions as UnknownToolOptions
from toolpipe.layers.verify import VerifyOptions as VerifyOptions
from toolpipe.pipeline import Middleware, PipelineBuilder
from toolpipe.registry import ToolRegistry


class PipelineFileError(ConfigError):
    """A pipeline file that cannot be loaded; the message names the line and the option."""


# One line per layer: its pipeline-file name and its options class (beside the layer; the
# class's build() makes the layer).
OPTIONS: dict[str, type[Any]] = {
    "permission": PermissionOptions, "timeout": TimeoutOptions,
    "output_limit": OutputLimitOptions, "unknown_tool": UnknownToolOptions,
    "memoize": MemoizeOptions, "verify": VerifyOptions, "redaction": RedactionOptions,
    "safety_shield": ShieldOptions,
}
LAYER_NAMES = tuple(OPTIONS)


@attrs.frozen(kw_only=True)
class ToolsOptions:
    """A pipeline file's ``[tools]`` table: how the standard tools run (the command line
    builds its workspace with them). ``sandbox``: ``"auto"`` (the default: bubblewrap where
    it works, a warning where not), ``"required"`` or ``"none"`` (see toolpipe.sandbox)."""

    sandbox: Literal["auto", "required", "none", "bwrap"] = "auto"
    env: list[str] = attrs.Factory(list)  # host variables let into the sandbox
    network: bool = False  # in the sandbox: no network unless allowed
    bash_timeout: float = 30.0


def tools_options(text: str, *, source: str = "pipeline.toml") -> ToolsOptions:
    """The ``[tools]`` table of a pipeline file (defaults when it has none)."""
    try:
        table = tomllib.loads(text).get("tools", {})
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return ToolsOptions()  # load_pipeline reports the file's own errors
    if not isinstance(table, dict):
        raise PipelineFileError(f"{source}: 'tools' must be a [tools] table")
    try:
        options = CONVERTER.structure(table, ToolsOptions)
    except Exception as exc:
        raise PipelineFileError("\n".join(
            f"{source}:{_tools_line(text, option)}: [tools]: option '{option}': {why}"
            for option, why in _messages(exc, ToolsOptions))) from None
    bad = [name for name in options.env if not name or "=" in name or "\0" in name]
    if bad:
        raise PipelineFileError(f"{source}:{_tools_line(text, 'env')}: [tools]: option "
                                f"'env': {bad[0]!r} is not an environment variable name")
    if not 0 < options.bash_timeout <= 600:
        raise PipelineFileError(f"{source}:{_tools_line(text, 'bash_timeout')}: [tools]: "
                                "option 'bash_timeout': must be in (0, 600] seconds")
    return options


def _tools_line(text: str, option: str) -> int:
    """The line of ``option`` in the ``[tools]`` table (or of the table's header)."""
    inside, header = False, 1
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            inside = re.match(r"\[\s*tools\s*\]$", stripped) is not None
            header = number if inside else header
        elif inside and re.match(rf"""["']?{re.escape(option)}["']?\s*=""", stripped):
            return number
    return header


MAX_FILE = 1 << 20  # characters of a pipeline file
MAX_INT = 10**9  # no count, size or number of turns in a pipeline file is larger
UNIT_INTERVAL = ("block_threshold", "warn_threshold", "threshold", "workspace_deletions")


def _check_ranges(options: Any) -> None:
    """What a file may say beyond its types: numbers in range, names not empty (the
    libraries' constructors clamp some of these; a file that says -3 is a mistake)."""
    for field in attrs.fields(type(options)):
        value = getattr(options, field.name)
        if isinstance(value, bool):
            continue
        if field.name in UNIT_INTERVAL and isinstance(value, int | float) and not (
                0.0 <= value <= 1.0):
            raise ConfigError(f"{field.name}: must be in [0, 1], got {value!r}")
        if isinstance(value, int) and not -MAX_INT <= value <= MAX_INT:
            raise ConfigError(f"{field.name}: {value} is out of range (at most {MAX_INT:,})")
        if isinstance(value, float) and value > MAX_INT:
            raise ConfigError(f"{field.name}: {value:g} is out of range (at most {MAX_INT:,})")
        if isinstance(value, list) and any(isinstance(v, str) and not v.strip()
                                           for v in value):
            raise ConfigError(f"{field.name}: tool names must not be empty")


def build_layer(options: Any, registry: ToolRegistry) -> Middleware:
    """The layer for one options object (constructors check the values)."""
    build = getattr(options, "build", None)
    if type(options) not in OPTIONS.values() or build is None:
        raise ConfigError(f"no layer for {options!r:.60}")
    return build(registry)  # type: ignore[no-any-return]


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
    if len(text) > MAX_FILE:
        raise PipelineFileError(f"{source}: {len(text):,} characters; a pipeline file is at "
                                f"most {MAX_FILE:,}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PipelineFileError(f"{source}: not valid TOML: {exc}") from None
    except (ValueError, RecursionError) as exc:  # a 5,000-digit integer, deep nesting
        reason = ("nested too deeply" if isinstance(exc, RecursionError) else
                  "an integer with too many digits" if "digits" in str(exc) else str(exc))
        raise PipelineFileError(f"{source}: not valid TOML: {reason}") from None
    lines = _Lines.scan(text)
    unknown = sorted(set(data) - {"layer", "version", "tools"})
    if unknown:
        raise PipelineFileError(
            f"{source}: unknown top-level key(s) {', '.join(unknown)}; "
            "expected [[layer]] tables"
        )
    version = data.get("version", 1)
    if type(version) is not int or version != 1:
        raise PipelineFileError(f"{source}: version {version!r} is not supported (only 1)")
    layers = data.get("layer", [])
    if not isinstance(layers, list) or not layers:
        raise PipelineFileError(f"{source}: no [[layer]] tables: a pipeline needs layers")
    builder = PipelineBuilder()
    cap = 0  # the tightest output_limit outside the layer being built (0: none)
    for index, table in enumerate(layers):
        where = f"{source}:{lines.line(index)}: layer {index + 1}"
        if not isinstance(table, dict):
            raise PipelineFileError(f"{source}: 'layer' must be [[layer]] tables, got "
                                    f"{table!r:.40}")
        table = dict(table)
        name = table.pop("name", None)
        if name is None:
            raise PipelineFileError(f"{where}: missing 'name' (one of {', '.join(LAYER_NAMES)})")
        if not isinstance(name, str) or name not in OPTIONS:
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
        if isinstance(options, OutputLimitOptions) and options.max_chars > 0:
            cap = min(cap or options.max_chars, options.max_chars)
        elif isinstance(options, RedactionOptions) and options.scan_limit is None and cap:
            # the cap outside keeps `cap` characters: redaction reads those (and a margin)
            options = attrs.evolve(options, scan_limit=cap)
        try:
            _check_ranges(options)
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
name = "memoize"           # innermost: caches raw results, checked on every hit
cached_tools = ["Read", "Glob", "Grep", "LS"]
write_tools = ["Write", "Edit", "Bash"]
ttl_turns = 5
ttl_seconds = 300          # and on the clock (an MCP server's answers have no stamps)
max_entries = 1024
max_bytes = 33554432       # 32 MiB of answers, least recently used evicted first
"""
