"""PermissionMiddleware: your policy function, with an optional human in the loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import attrs
from returns.result import Success

from toolpipe._approval_marks import APPROVED, Deferred
from toolpipe._checks import describe_failure, error_text, safe_repr
from toolpipe.context import Allow, Ask, Decision, Deny, DispatchContext, Modify
from toolpipe.effects import AskApproval, CallOutcome
from toolpipe.failures import AwaitingApproval, Denied
from toolpipe.pipeline import Middleware, Next
from toolpipe.program import Program
from toolpipe.registry import ToolRegistry
from toolpipe.result import DispatchResult

Check = Callable[[DispatchContext], Decision]
AskResolver = Callable[[str, str], Any]
"""``(prompt, tool) -> bool``: a plain function, a coroutine function or a program."""

_MODES = ("deny_all", "allow_all", "from_context")


def _denied(ctx: DispatchContext, reason: str) -> DispatchResult:
    return DispatchResult.failed(ctx.call_id, Denied(ctx.tool_name, reason))


@attrs.frozen
class PermissionMiddleware:
    """Decide with ``check`` if set, else by mode: deny_all, allow_all or from_context."""

    mode: str = attrs.field(default="from_context", validator=attrs.validators.in_(_MODES))
    check: Check | None = attrs.field(default=None, eq=False)
    ask_resolver: AskResolver | None = attrs.field(default=None, eq=False)
    name: str = attrs.field(default="permission", init=False)

    @check.validator
    def _callable_check(self, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is not None and not callable(value):
            raise TypeError(f"check must be callable, got {value!r:.60}")

    @ask_resolver.validator
    def _callable_resolver(self, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is not None and not callable(value):
            raise TypeError(f"ask_resolver must be callable, got {value!r:.60}")

    @classmethod
    def deny_all(cls) -> PermissionMiddleware:
        return cls("deny_all")

    @classmethod
    def allow_all(cls) -> PermissionMiddleware:
        return cls("allow_all")

    @classmethod
    def from_context(cls) -> PermissionMiddleware:
        return cls("from_context")

    def with_check(self, check: Check) -> PermissionMiddleware:
        return attrs.evolve(self, check=check)

    def with_ask_resolver(self, resolver: AskResolver) -> PermissionMiddleware:
        return attrs.evolve(self, ask_resolver=resolver)

    def decide(self, ctx: DispatchContext) -> Decision:
        """The decision for ``ctx``; a check that raises or returns junk denies."""
        if self.check is not None:
            try:
                decision = self.check(ctx)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # a user check's fault stays in its call
                return Deny(f"check failed ({error_text(exc)})")
            if not isinstance(decision, Allow | Deny | Ask | Modify):
                return Deny(f"check returned {safe_repr(decision, 40)}, not a PermissionCheck")
            return decision
        if self.mode == "deny_all":
            return Deny("blocked by policy")
        if self.mode == "allow_all":
            return Allow()
        return ctx.permission

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        decision = self.decide(ctx)
        if isinstance(decision, Allow):
            return (yield from next(ctx))
        if isinstance(decision, Deny):
            return _denied(ctx, decision.reason)
        if isinstance(decision, Modify):
            return (yield from next(attrs.evolve(ctx, input=decision.modified_input)))
        if ctx.tool_context.state.get(APPROVED) is True:  # a person approved it on resume
            return (yield from next(ctx))
        if self.ask_resolver is None:
            return _denied(ctx, f"permission required: {decision.prompt}")
        outcome: CallOutcome = yield AskApproval(self.ask_resolver, decision.prompt, ctx.tool_name)
        answer = outcome.value
        if isinstance(answer, Success) and isinstance(answer.unwrap(), Deferred):
            return DispatchResult.failed(ctx.call_id, AwaitingApproval(
                ctx.tool_name, decision.prompt, self.name))
        if not isinstance(answer, Success):
            return _denied(ctx, f"ask resolver failed ({describe_failure(answer.failure())})")
        if answer.unwrap() is True:
            return (yield from next(ctx))
        if answer.unwrap() is False:
            return DispatchResult.failed(
                ctx.call_id, Denied(ctx.tool_name, "denied by user", by_user=True))
        return _denied(ctx, f"ask resolver returned {safe_repr(answer.unwrap(), 40)}, not a bool")


# --- pipeline-file options ------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class PermissionOptions:
    """``mode`` for every tool, then ``deny`` (always denied) and ``ask`` (needs a human;
    denied when nobody can be asked)."""

    mode: Literal["allow_all", "deny_all", "from_context"] = "allow_all"
    deny: list[str] = attrs.Factory(list)
    ask: list[str] = attrs.Factory(list)
    reason: str = "blocked by policy"

    def build(self, registry: ToolRegistry) -> Middleware:
        layer = PermissionMiddleware(self.mode)
        check = self._policy()
        return layer.with_check(check) if check is not None else layer

    def _policy(self) -> Callable[[DispatchContext], Decision] | None:
        deny, ask = frozenset(self.deny), frozenset(self.ask)
        if not deny and not ask:
            return None
        base = PermissionMiddleware(self.mode)
        reason = self.reason

        def check(ctx: DispatchContext) -> Decision:
            if ctx.tool_name in deny:
                return Deny(reason)
            if ctx.tool_name in ask:
                return Ask(f"allow {ctx.tool_name}?")
            return base.decide(ctx)

        return check
