"""SafetyShieldMiddleware and UnixShield: risk-based blocking of watched tools.

Shell text is read by the shell wing (:mod:`toolpipe.shell`, tree-sitter-bash underneath)
into facts: commands as they will run, at every depth of nested code, and what each one
deletes, writes, re-modes, runs or sends. The rules (:mod:`toolpipe.layers._shield_rules`)
score those facts; patterns score command shapes. Score = min(1, single + 0.5·multi +
0.3·combo), banded into Allow/Warn/Ask/Block: an ask goes to a person through the layer's
resolver, and is refused when nobody can be asked. See docs/layers/safety_shield.md.
"""


from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

import attrs
from returns.result import Failure, Success

from toolpipe._approval_marks import APPROVED, Deferred
from toolpipe._checks import describe_failure, names, non_negative_int, safe_repr
from toolpipe.context import DispatchContext
from toolpipe.effects import (
    AskApproval,
    CallOutcome,
    Emit,
    FileOp,
    HistoryAppend,
    HistoryGet,
)
from toolpipe.errors import ConfigError
from toolpipe.events import ShieldAsked, ShieldWarning
from toolpipe.failures import AwaitingApproval, Blocked
from toolpipe.layers._shield_flow import FileFact as FileFact
from toolpipe.layers._shield_flow import SessionFacts as SessionFacts
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
OnAsk = Literal["ask", "warn", "block"]
AskResolver = Callable[[str, str], Any]


@attrs.frozen(init=False, repr=False)
class SafetyShieldMiddleware:
    """Consults a shield before watched tools run: Block → soft error (duration 0, not
    recorded); Ask → ``ask_resolver(prompt, tool)`` decides (True runs the call; anything
    else, a failure, or no resolver at all refuses it); Warn → logged and emitted, then
    proceeds. ``on_ask`` turns every ask into a warning or a block instead. Admitted calls
    are recorded in the store (last 20) with their score so multi-call rules fire across
    turns. A shield that raises blocks (fail closed). A :class:`UnixShield` is given the
    call's ``cwd`` as its workspace."""

    name = "safety_shield"
    shield: ToolSafetyShield
    watched: frozenset[str]
    namespace: str
    history_size: int
    by_role: bool  # also watch shells and file writers by role (no explicit watched_tools)
    roles: Mapping[str, str]
    ask_resolver: AskResolver | None = attrs.field(eq=False)
    on_ask: OnAsk

    def __init__(
        self,
        shield: ToolSafetyShield | None = None,
        watched_tools: Iterable[str] | None = None,
        *,
        namespace: str = "shield",
        history_size: int = HISTORY_SIZE,
        roles: Mapping[str, str] | None = None,
        ask_resolver: AskResolver | None = None,
        on_ask: OnAsk = "ask",
    ) -> None:
        if ask_resolver is not None and not callable(ask_resolver):
            raise ConfigError(f"ask_resolver must be callable, got {ask_resolver!r:.60}")
        if on_ask not in ("ask", "warn", "block"):
            raise ConfigError(f"on_ask must be 'ask', 'warn' or 'block', got {on_ask!r:.40}")
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
                            dict(roles or {}), ask_resolver, on_ask)

    def with_ask_resolver(self, resolver: AskResolver | None) -> SafetyShieldMiddleware:
        """The same layer, asking ``resolver(prompt, tool)`` in the ask band."""
        if resolver is not None and not callable(resolver):
            raise ConfigError(f"ask_resolver must be callable, got {resolver!r:.60}")
        other = copy.copy(self)
        object.__setattr__(other, "ask_resolver", resolver)
        return other

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

    def _escaped(self, ctx: DispatchContext) -> Program[frozenset[str]]:
        """Paths of the call that a link takes out of the workspace, asked of the real
        filesystem at decision time (the sandbox bounds what changes after it)."""
        cwd = ctx.tool_context.cwd
        if not isinstance(self.shield, UnixShield) or not cwd.startswith("/"):
            return frozenset()
        out: set[str] = set()
        for path in self.shield.link_checks(ctx.tool_name, ctx.input, cwd):
            answer = yield FileOp("resolve", cwd, path)
            if isinstance(answer, Failure) and "No such file" not in answer.failure():
                out.add(path)  # outside the workspace, or not resolvable: not inside
        return frozenset(out)

    def _evaluate(self, ctx: DispatchContext, history: Sequence[CallRecord],
                  escaped: frozenset[str]) -> ShieldDecision:
        if isinstance(self.shield, UnixShield):
            cwd = ctx.tool_context.cwd
            return self.shield.evaluate(ctx.tool_name, ctx.input, history, cwd or None,
                                        escaped)
        return self.shield.evaluate(ctx.tool_name, ctx.input, history)

    def question(self, ctx: DispatchContext) -> Program[str | None]:
        """The question this layer would put to a person before ``ctx`` runs (None: it
        would not ask), read as ``dispatch`` reads it and changing nothing: for a
        framework that decides approvals before it runs a call."""
        if not self.watches(ctx.tool_name):
            return None
        history = yield HistoryGet(self.namespace)
        escaped = yield from self._escaped(ctx)
        decision = self._evaluate(ctx, history, escaped)
        action = decision.action if decision.action != "ask" else self.on_ask
        if action != "ask" or ctx.tool_context.state.get(APPROVED) is True:
            return None
        return (f"The safety shield asks before {ctx.tool_name} runs: "
                f"{_SCRUB.redact(decision.reason)}. Allow it?")

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        tool = ctx.tool_name
        if not self.watches(tool):
            return (yield from next(ctx))
        history = yield HistoryGet(self.namespace)
        try:
            escaped = yield from self._escaped(ctx)
            decision = self._evaluate(ctx, history, escaped)
            if not isinstance(decision, ShieldDecision):
                raise TypeError(f"evaluate() returned {decision!r:.40}, not a ShieldDecision")
        except Exception as exc:
            decision = ShieldDecision("block", 1.0, f"shield failed ({type(exc).__name__}: {exc})")
        action = decision.action
        if action == "ask" and self.on_ask != "ask":
            action = self.on_ask
        if action == "block":
            return DispatchResult.failed(
                ctx.call_id, Blocked(tool, decision.reason, decision.score))
        if action == "ask":
            refused = yield from self._ask(ctx, decision)
            if refused is not None:
                return refused
        if action == "warn":
            # the reason quotes the command: scrubbed, as every event and log line is
            yield Emit(ShieldWarning(tool, decision.score, _SCRUB.redact(decision.reason)))
        result = yield from next(ctx)
        facts = self._facts(ctx, history)
        if facts is not None:
            risky = decision.score >= self.shield.warn_threshold  # type: ignore[attr-defined]
            facts = facts.recorded(tool, risky, self.history_size)
        yield HistoryAppend(self.namespace, CallRecord(
            tool, ctx.input, not result.is_error, decision.score, facts), self.history_size)
        return result

    def _facts(self, ctx: DispatchContext, history: Sequence[CallRecord]
               ) -> SessionFacts | None:
        """The session's data flow after this call (None: gathered again next time)."""
        if not isinstance(self.shield, UnixShield):
            return None
        cwd = ctx.tool_context.cwd or None
        try:
            return self.shield.after(ctx.tool_name, ctx.input,
                                     self.shield.facts_of(history, cwd), cwd)
        except Exception:  # a reading that fails now is tried again, whole, next time
            return None


    def _ask(self, ctx: DispatchContext, decision: ShieldDecision
             ) -> Program[DispatchResult | None]:
        """A person decides: None to run the call, or the refusal (or, when the resolver
        defers, the call waits on the person: ``AwaitingApproval``)."""
        tool = ctx.tool_name
        shown = _SCRUB.redact(decision.reason)
        if ctx.tool_context.state.get(APPROVED) is True:  # decided on resume
            yield Emit(ShieldAsked(tool, decision.score, shown, "approved"))
            return None
        if self.ask_resolver is None:
            yield Emit(ShieldAsked(tool, decision.score, shown, "nobody to ask"))
            return DispatchResult.failed(ctx.call_id, Blocked(
                tool, f"needs a person's approval and nobody can be asked: {decision.reason}",
                decision.score))
        prompt = f"The safety shield asks before {tool} runs: {shown}. Allow it?"
        outcome: CallOutcome = yield AskApproval(self.ask_resolver, prompt, tool)
        answer = outcome.value
        if isinstance(answer, Success) and isinstance(answer.unwrap(), Deferred):
            yield Emit(ShieldAsked(tool, decision.score, shown, "deferred"))
            return DispatchResult.failed(ctx.call_id, AwaitingApproval(tool, prompt,
                                                                       self.name))
        if not isinstance(answer, Success):
            why = f"the resolver failed ({describe_failure(answer.failure())})"
        elif answer.unwrap() is True:
            yield Emit(ShieldAsked(tool, decision.score, shown, "approved"))
            return None
        elif answer.unwrap() is False:
            why = "a person refused it"
        else:
            why = f"the resolver returned {safe_repr(answer.unwrap(), 40)}, not a bool"
        yield Emit(ShieldAsked(tool, decision.score, shown, "refused"))
        return DispatchResult.failed(ctx.call_id, Blocked(
            tool, f"{decision.reason}; {why}", decision.score))


# --- pipeline-file options ------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class ShieldOptions:
    """This layer's options in a pipeline file (see toolpipe.config)."""

    block_threshold: float = 0.7
    ask_threshold: float = 0.5
    warn_threshold: float = 0.4
    on_ask: str = "ask"  # "warn": the old behaviour (proceed with a warning); "block"
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
        if self.on_ask not in ("ask", "warn", "block"):
            raise ConfigError(f"on_ask: must be 'ask', 'warn' or 'block', got "
                              f"{self.on_ask!r:.40}")
        shield = UnixShield(block_threshold=self.block_threshold,
                            ask_threshold=self.ask_threshold,
                            warn_threshold=self.warn_threshold,
                            bash_tools=self.bash_tools, write_tools=self.write_tools,
                            workspace_deletions=self.workspace_deletions,
                            multi="all" if self.multi == "all" else "risky",
                            bash_patterns=SPEC_BASH if self.spec_patterns else DEFAULT_BASH,
                            max_length=self.max_length, max_commands=self.max_commands)
        # a shield that watches none of the registry's tools is said when the pipeline
        # is built (PipelineBuilder), once
        on_ask: OnAsk = "warn" if self.on_ask == "warn" else (
            "block" if self.on_ask == "block" else "ask")
        return SafetyShieldMiddleware(shield, self.watched_tools, roles=registry.roles(),
                                      on_ask=on_ask)
