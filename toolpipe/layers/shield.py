"""SafetyShieldMiddleware and UnixShield: risk-based blocking of watched tools.

Shell text is read by the shell wing (:mod:`toolpipe.shell`, tree-sitter-bash underneath)
into facts: commands as they will run, at every depth of nested code, and what each one
deletes, writes, re-modes, runs or sends. The rules (:mod:`toolpipe.layers._shield_rules`)
score those facts; patterns score command shapes. Score = min(1, single + 0.5·multi +
0.3·combo), banded into Allow/Warn/Block. See docs/layers/safety_shield.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol

import attrs

from toolpipe._checks import names, non_negative_int, positive_int
from toolpipe.context import DispatchContext
from toolpipe.effects import Emit, HistoryAppend, HistoryGet
from toolpipe.errors import ConfigError
from toolpipe.events import ShieldWarning
from toolpipe.failures import Blocked
from toolpipe.layers._shield_patterns import (
    DEFAULT_BASH as DEFAULT_BASH,
)
from toolpipe.layers._shield_patterns import (
    DEFAULT_COMBOS as DEFAULT_COMBOS,
)
from toolpipe.layers._shield_patterns import (
    DEFAULT_EDIT as DEFAULT_EDIT,
)
from toolpipe.layers._shield_patterns import (
    DEFAULT_WRITE as DEFAULT_WRITE,
)
from toolpipe.layers._shield_patterns import (
    SPEC_BASH as SPEC_BASH,
)
from toolpipe.layers._shield_patterns import (
    ComboRule as ComboRule,
)
from toolpipe.layers._shield_patterns import (
    PathPattern as PathPattern,
)
from toolpipe.layers._shield_patterns import (
    ShellPattern as ShellPattern,
)
from toolpipe.layers._shield_rules import (
    Finding,
    RuleOptions,
    _analysed,
    _downloads,
    _mentions,
    findings,
    strongest,
)
from toolpipe.layers.paths import COMMAND_FIELDS, PATH_FIELDS
from toolpipe.layers.redaction import SecretPatternSet
from toolpipe.pipeline import Middleware, Next
from toolpipe.program import Program
from toolpipe.registry import WRITE_TOOLS, ToolRegistry
from toolpipe.result import DispatchResult
from toolpipe.shell import MAX_COMMANDS, Script, classify

Action = Literal["allow", "warn", "block"]
Multi = Literal["risky", "all"]
CRITICAL = 0.9
HISTORY_SIZE = 20


@attrs.frozen
class ShieldDecision:
    action: Action
    score: float
    reason: str = ""


@attrs.frozen
class CallRecord:
    """An admitted call, as the shield's history keeps it (``score``: its shield risk)."""

    tool: str
    input: Mapping[str, Any]
    success: bool
    score: float = 0.0


class ToolSafetyShield(Protocol):
    def evaluate(
        self, tool: str, input: Mapping[str, Any], history: Sequence[CallRecord]
    ) -> ShieldDecision: ...


_FILE_WRITE = {"persistence": 0.9, "system": 0.8, "secret": 0.8, "root": 0.9, "device": 1.0,
               "outside": 0.5}


def _command_text(input: Mapping[str, Any]) -> str | None:
    for field in COMMAND_FIELDS:
        value = input.get(field)
        if isinstance(value, str):
            return value
    return None


def _paths(input: Mapping[str, Any]) -> list[str]:
    return [v for f in PATH_FIELDS if isinstance(v := input.get(f), str)]


# --- the shield -------------------------------------------------------------------------------




def _threshold(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ConfigError(f"{name} must be a finite number, got {value!r}")
    return min(1.0, max(0.0, float(value)))


def multi_score(prior_same_tool: int) -> float:
    return 0.0 if prior_same_tool <= 0 else 0.1 if prior_same_tool == 1 else (
        0.3 if prior_same_tool == 2 else 0.6
    )



class UnixShield:
    """The default shield: shell facts and rules, Bash/Write/Edit patterns, combos.

    ``write_tools``: file tools whose ``path`` is a file they write, classified like a shell
    write; ``workspace``: where relative paths point (the middleware passes ``ToolContext.cwd``);
    ``workspace_deletions``: the score of ``rm -rf`` inside it (0.4; the spec's 0.9 comes
    with ``bash_patterns=SPEC_BASH``); ``multi``: which earlier calls of the same tool the
    multi-call term counts, ``"risky"`` ones (scored at least the warn threshold) or
    ``"all"`` (the spec); ``max_length`` (characters) and ``max_commands``: a command
    longer, or one that runs more commands (function calls included), is blocked unread,
    so that every input is decided in bounded time.
    """

    def __init__(
        self,
        *,
        block_threshold: float = 0.7,
        warn_threshold: float = 0.4,
        bash_patterns: Sequence[ShellPattern] = DEFAULT_BASH,
        path_patterns: Mapping[str, Sequence[PathPattern]] | None = None,
        combos: Sequence[ComboRule] = DEFAULT_COMBOS,
        bash_tools: Iterable[str] = ("Bash",),
        write_tools: Iterable[str] = WRITE_TOOLS,
        workspace: str = ".",
        workspace_deletions: float = 0.4,
        multi: Multi = "risky",
        max_length: int = 1 << 16,
        max_commands: int = MAX_COMMANDS,
    ) -> None:
        block = _threshold("block_threshold", block_threshold)
        warn = _threshold("warn_threshold", warn_threshold)
        if warn > block:  # an inverted pair is swapped, not rejected
            block, warn = warn, block
        self.block_threshold = block
        self.warn_threshold = warn
        self.bash_patterns = tuple(bash_patterns)
        for p in self.bash_patterns:
            if not isinstance(p, ShellPattern):
                raise ConfigError(f"bash_patterns: {p!r:.60} is not a ShellPattern")
        self.path_patterns = dict(path_patterns if path_patterns is not None else {
            "Write": DEFAULT_WRITE, "Edit": DEFAULT_EDIT, "MultiEdit": DEFAULT_EDIT,
        })
        self.combos = tuple(combos)
        self.bash_tools = names("bash_tools", bash_tools)
        self.write_tools = names("write_tools", write_tools)
        if not isinstance(workspace, str) or not workspace:
            raise ConfigError(f"workspace must be a non-empty path, got {workspace!r:.60}")
        self.workspace = workspace
        self.options = RuleOptions(_threshold("workspace_deletions", workspace_deletions))
        if multi not in ("risky", "all"):
            raise ConfigError(f"multi must be 'risky' or 'all', got {multi!r:.40}")
        self.multi: Multi = multi
        self.max_length = positive_int("max_length", max_length)
        self.max_commands = positive_int("max_commands", max_commands)
        self._by_text = {p.text: p for p in self.bash_patterns}
        self._by_name: dict[str, list[tuple[int, ShellPattern]]] = {}
        for i, p in enumerate(self.bash_patterns):  # a pattern can only match its name
            self._by_name.setdefault(p.name, []).append((i, p))
        for rule in self.combos:  # the combos' patterns, made once
            for _, text in (rule.first, rule.second):
                if text is not None and text not in self._by_text:
                    self._by_text[text] = ShellPattern(text, 0.0)

    def tools(self) -> frozenset[str]:
        return self.bash_tools | self.write_tools | frozenset(self.path_patterns)

    def __repr__(self) -> str:
        return (f"UnixShield(block_threshold={self.block_threshold:g}, "
                f"warn_threshold={self.warn_threshold:g})")

    def script(self, command: str, workspace: str | None = None) -> Script:
        return _analysed(command, workspace or self.workspace, self.max_length,
                         self.max_commands)

    # single ------------------------------------------------------------------------------

    def single(self, tool: str, input: Mapping[str, Any], workspace: str | None = None,
               downloaded: Iterable[str] = ()) -> Finding:
        """The strongest pattern or rule finding of this call alone (given what earlier
        calls downloaded)."""
        ws = workspace or self.workspace
        found: list[Finding] = []
        if tool in self.bash_tools:
            command = _command_text(input)
            if command is None:
                return Finding(0.0, "")
            script = self.script(command, ws)
            found += self._pattern_findings(script)
            found += findings(script, ws, self.options, downloaded)
            return strongest(found)
        for path in _paths(input):
            for path_pattern in self.path_patterns.get(tool, ()):
                if path_pattern.matches_path(path):
                    found.append(Finding(path_pattern.score,
                                         f"path matches '{path_pattern.text}'"))
            if tool in self.write_tools:
                place = classify(path, ".", ws)
                score = _FILE_WRITE.get(place.kind)
                if score is not None:
                    found.append(Finding(score, f"writes {place.label}: {place.path} ({tool})"))
        return strongest(found)

    def _pattern_findings(self, script: Script) -> list[Finding]:
        """The bash patterns some command of the script matches (each once, in order)."""
        hit: set[int] = set()
        for c in script.commands:
            for name in (c.name, *c.wrappers):
                for i, pattern in self._by_name.get(name, ()):
                    if i not in hit and pattern.matches(c):
                        hit.add(i)
        return [Finding(self.bash_patterns[i].score, f"'{self.bash_patterns[i].text}'")
                for i in sorted(hit)]

    def _triggers(self, tool: str, input: Mapping[str, Any], trigger: tuple[str, str | None],
                  workspace: str) -> bool:
        want_tool, pattern_text = trigger
        if tool != want_tool:
            return False
        if pattern_text is None:
            return True
        command = _command_text(input)
        if command is None:
            return False
        return _mentions(self._by_text[pattern_text], command, workspace, self.max_length,
                         self.max_commands)

    def combo(self, tool: str, input: Mapping[str, Any], history: Sequence[CallRecord],
              workspace: str | None = None) -> tuple[float, str]:
        ws = workspace or self.workspace
        best = (0.0, "")
        if not history:
            return best
        for rule in self.combos:
            if rule.score <= best[0] or not self._triggers(tool, input, rule.second, ws):
                continue
            if any(self._triggers(h.tool, h.input, rule.first, ws) for h in history):
                best = (rule.score, rule.reason)
        return best

    def downloaded(self, history: Sequence[CallRecord], workspace: str | None = None
                   ) -> set[str]:
        """Files earlier shell calls downloaded (running one is a download-then-execute)."""
        ws = workspace or self.workspace
        out: set[str] = set()
        for record in history:
            text = _command_text(record.input) if record.tool in self.bash_tools else None
            if text is not None:
                out |= _downloads(text, ws, self.max_length, self.max_commands)
        return out

    def evaluate(
        self, tool: str, input: Mapping[str, Any], history: Sequence[CallRecord],
        workspace: str | None = None,
    ) -> ShieldDecision:
        ws = workspace or self.workspace
        single = self.single(tool, input, ws, self.downloaded(history, ws))
        counted = [h for h in history if h.tool == tool and (
            self.multi == "all" or h.score >= self.warn_threshold)]
        multi = multi_score(len(counted))
        combo, combo_reason = self.combo(tool, input, history, ws)
        score = round(min(1.0, single.score + 0.5 * multi + 0.3 * combo), 9)
        parts = [single.reason] if single.reason else []
        if combo:
            parts.append(combo_reason)
        if multi:
            risky = " risky" if self.multi == "risky" else ""
            parts.append(f"{len(counted)} earlier{risky} {tool} call(s)")
        reason = ", ".join(parts) or "no risk found"
        if score >= CRITICAL:
            return ShieldDecision("block", score, f"{reason} (critical, risk {score:.2f})")
        if score >= self.block_threshold:
            return ShieldDecision("block", score, f"{reason} (risk {score:.2f})")
        if score >= self.warn_threshold:
            return ShieldDecision("warn", score, f"{reason} (risk {score:.2f})")
        return ShieldDecision("allow", score, reason)


_SCRUB = SecretPatternSet.default_common()


@attrs.frozen(init=False, repr=False)
class SafetyShieldMiddleware:
    """Consults a shield before watched tools run: Block → soft error (duration 0, not
    recorded); Warn → logged and emitted, then proceeds. Admitted calls are recorded in the
    store (last 20) with their score so multi-call rules fire across turns. A shield that
    raises blocks (fail closed). A :class:`UnixShield` is given the call's ``cwd`` as its
    workspace."""

    name = "safety_shield"
    shield: ToolSafetyShield
    watched: frozenset[str]
    namespace: str
    history_size: int

    def __init__(
        self,
        shield: ToolSafetyShield | None = None,
        watched_tools: Iterable[str] | None = None,
        *,
        namespace: str = "shield",
        history_size: int = HISTORY_SIZE,
    ) -> None:
        chosen: ToolSafetyShield = shield if shield is not None else UnixShield()
        if not callable(getattr(chosen, "evaluate", None)):
            raise ConfigError(f"shield must have an evaluate() method, got {shield!r:.60}")
        if watched_tools is None:
            tools = getattr(chosen, "tools", None)
            watched_tools = tools() if callable(tools) else ()
        self.__attrs_init__(chosen, names("watched_tools", watched_tools), namespace,
                            non_negative_int("history_size", history_size))

    def __repr__(self) -> str:
        return f"SafetyShieldMiddleware({self.shield!r}, watched={sorted(self.watched)})"

    def _evaluate(self, ctx: DispatchContext, history: Sequence[CallRecord]) -> ShieldDecision:
        if isinstance(self.shield, UnixShield):
            cwd = ctx.tool_context.cwd
            return self.shield.evaluate(ctx.tool_name, ctx.input, history, cwd or None)
        return self.shield.evaluate(ctx.tool_name, ctx.input, history)

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        tool = ctx.tool_name
        if tool not in self.watched:
            return (yield from next(ctx))
        history = yield HistoryGet(self.namespace)
        try:
            decision = self._evaluate(ctx, history)
            if not isinstance(decision, ShieldDecision):
                raise TypeError(f"evaluate() returned {decision!r:.40}, not a ShieldDecision")
        except Exception as exc:
            decision = ShieldDecision("block", 1.0, f"shield failed ({type(exc).__name__}: {exc})")
        if decision.action == "block":
            return DispatchResult.failed(
                ctx.call_id, Blocked(tool, decision.reason, decision.score))
        if decision.action == "warn":
            # the reason quotes the command: scrubbed, as every event and log line is
            yield Emit(ShieldWarning(tool, decision.score, _SCRUB.redact(decision.reason)))
        result = yield from next(ctx)
        yield HistoryAppend(self.namespace, CallRecord(
            tool, ctx.input, not result.is_error, decision.score), self.history_size)
        return result


# --- pipeline-file options ------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class ShieldOptions:
    """This layer's options in a pipeline file (see toolpipe.config)."""

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

    def build(self, registry: ToolRegistry) -> Middleware:
        if self.multi not in ("risky", "all"):
            raise ConfigError(f"multi: must be 'risky' or 'all', got {self.multi!r:.40}")
        shield = UnixShield(block_threshold=self.block_threshold,
                            warn_threshold=self.warn_threshold,
                            bash_tools=self.bash_tools, write_tools=self.write_tools,
                            workspace_deletions=self.workspace_deletions,
                            multi="all" if self.multi == "all" else "risky",
                            bash_patterns=SPEC_BASH if self.spec_patterns else DEFAULT_BASH,
                            max_length=self.max_length, max_commands=self.max_commands)
        return SafetyShieldMiddleware(shield, self.watched_tools)
