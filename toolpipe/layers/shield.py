"""SafetyShieldMiddleware and UnixShield: risk-based blocking of watched tools.

Shell text is read by the shell wing (:mod:`toolpipe.shell`, tree-sitter-bash underneath)
into facts: commands as they will run, at every depth of nested code, and what each one
deletes, writes, re-modes, runs or sends. The rules (:mod:`toolpipe.layers._shield_rules`)
score those facts; patterns score command shapes. Score = min(1, single + 0.5·multi +
0.3·combo), banded into Allow/Warn/Block. See docs/layers/safety_shield.md.
"""


from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs

from toolpipe._checks import names, non_negative_int
from toolpipe.context import DispatchContext
from toolpipe.effects import Emit, HistoryAppend, HistoryGet
from toolpipe.errors import ConfigError
from toolpipe.events import ShieldWarning
from toolpipe.failures import Blocked
from toolpipe.layers._shield_patterns import DEFAULT_BASH as DEFAULT_BASH
from toolpipe.layers._shield_patterns import DEFAULT_COMBOS as DEFAULT_COMBOS
from toolpipe.layers._shield_patterns import DEFAULT_EDIT as DEFAULT_EDIT
from toolpipe.layers._shield_patterns import DEFAULT_WRITE as DEFAULT_WRITE
from toolpipe.layers._shield_patterns import SPEC_BASH as SPEC_BASH
from toolpipe.layers._shield_patterns import ComboRule as ComboRule
from toolpipe.layers._shield_patterns import PathPattern as PathPattern
from toolpipe.layers._shield_patterns import ShellPattern as ShellPattern
from toolpipe.layers._unix_shield import CRITICAL as CRITICAL
from toolpipe.layers._unix_shield import HISTORY_SIZE as HISTORY_SIZE
from toolpipe.layers._unix_shield import Action as Action
from toolpipe.layers._unix_shield import CallRecord as CallRecord
from toolpipe.layers._unix_shield import Multi as Multi
from toolpipe.layers._unix_shield import ShieldDecision as ShieldDecision
from toolpipe.layers._unix_shield import ToolSafetyShield as ToolSafetyShield
from toolpipe.layers._unix_shield import UnixShield as UnixShield
from toolpipe.layers._unix_shield import multi_score as multi_score
from toolpipe.layers.redaction import SecretPatternSet
from toolpipe.pipeline import Middleware, Next
from toolpipe.program import Program
from toolpipe.registry import ToolRegistry
from toolpipe.result import DispatchResult
from toolpipe.shell import MAX_COMMANDS

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
    by_role: bool  # also watch shells and file writers by role (no explicit watched_tools)
    roles: Mapping[str, str]

    def __init__(
        self,
        shield: ToolSafetyShield | None = None,
        watched_tools: Iterable[str] | None = None,
        *,
        namespace: str = "shield",
        history_size: int = HISTORY_SIZE,
        roles: Mapping[str, str] | None = None,
    ) -> None:
        chosen: ToolSafetyShield = shield if shield is not None else UnixShield()
        if not callable(getattr(chosen, "evaluate", None)):
            raise ConfigError(f"shield must have an evaluate() method, got {shield!r:.60}")
        by_role = watched_tools is None and isinstance(chosen, UnixShield)
        if watched_tools is None:
            tools = getattr(chosen, "tools", None)
            watched_tools = tools() if callable(tools) else ()
        if roles and isinstance(chosen, UnixShield):
            chosen = chosen.with_roles(roles)
        self.__attrs_init__(chosen, names("watched_tools", watched_tools), namespace,
                            non_negative_int("history_size", history_size), by_role,
                            dict(roles or {}))

    def watches(self, tool: str) -> bool:
        if tool in self.watched:
            return True
        if self.by_role and isinstance(self.shield, UnixShield):
            return self.shield.is_shell(tool) or self.shield.is_write(tool)
        return False

    def unwatched(self, registry: ToolRegistry) -> str | None:
        """Why this layer guards nothing in ``registry``, or None when it watches a tool."""
        if any(self.watches(name) for name in registry.names()):
            return None
        return (f"safety_shield watches none of the registered tools "
                f"({', '.join(registry.names()) or 'none'}): declare a shell tool with "
                f"role='shell' or list it in watched_tools")

    def __repr__(self) -> str:
        return f"SafetyShieldMiddleware({self.shield!r}, watched={sorted(self.watched)})"

    def _evaluate(self, ctx: DispatchContext, history: Sequence[CallRecord]) -> ShieldDecision:
        if isinstance(self.shield, UnixShield):
            cwd = ctx.tool_context.cwd
            return self.shield.evaluate(ctx.tool_name, ctx.input, history, cwd or None)
        return self.shield.evaluate(ctx.tool_name, ctx.input, history)

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        tool = ctx.tool_name
        if not self.watches(tool):
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
        # a shield that watches none of the registry's tools is said when the pipeline
        # is built (PipelineBuilder), once
        return SafetyShieldMiddleware(shield, self.watched_tools, roles=registry.roles())
