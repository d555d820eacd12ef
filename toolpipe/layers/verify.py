"""VerifyMiddleware: prove that writes worked, and tell the model the verdict."""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping
from typing import Any, Protocol, runtime_checkable

import attrs
from returns.result import Success

from toolpipe._checks import describe_failure, finite_number, names, safe_repr, seconds_text
from toolpipe.context import DispatchContext, ToolContext
from toolpipe.effects import Expired, ProcessResult, RunProcess, RunVerifier, WithDeadline
from toolpipe.errors import ConfigError
from toolpipe.layers.paths import PATH_FIELDS
from toolpipe.pipeline import Middleware, Next
from toolpipe.program import Program
from toolpipe.registry import ToolRegistry
from toolpipe.result import DispatchResult, append_text
from toolpipe.roles import with_roles


@attrs.frozen
class VerifyResult:
    passed: bool
    diagnostics: str = ""

    @classmethod
    def ok(cls, diagnostics: str = "") -> VerifyResult:
        return cls(True, diagnostics)

    @classmethod
    def fail(cls, diagnostics: str) -> VerifyResult:
        return cls(False, diagnostics)


@runtime_checkable
class Verifier(Protocol):
    """``verify`` may return a VerifyResult, a coroutine of one, or a program of one."""

    def verify(self, context: ToolContext, tool: str, input: Mapping[str, Any]) -> Any: ...


class NoopVerifier:
    """Always passes, with empty diagnostics (the Constrained preset's default)."""

    inline = True  # quick: called on the event loop, not on a worker thread

    def verify(self, context: ToolContext, tool: str, input: Mapping[str, Any]) -> VerifyResult:
        return VerifyResult(True, "")

    def __repr__(self) -> str:
        return "NoopVerifier()"


class CommandVerifier:
    """Runs a command in the tool context's cwd; exit status 0 passes.

    ``{path}`` in the template is replaced by the written file's path (from the input's
    path/file_path/filename/filepath), word by word: no shell, no injection. The command
    has its own timeout; stdout and stderr become the diagnostics (last 2,000 characters).
    """

    def __init__(self, command: str | Iterable[str], *, timeout: float = 30.0) -> None:
        if isinstance(command, str):
            try:
                argv = shlex.split(command)
            except ValueError as exc:
                raise ConfigError(f"command: cannot split {command!r}: {exc}") from None
        else:
            argv = list(command)
        if not argv or not all(isinstance(a, str) for a in argv):
            raise ConfigError(f"command must be a non-empty command line, got {command!r}")
        self.argv = tuple(argv)
        self.timeout = finite_number("timeout", timeout, positive=True)

    def __repr__(self) -> str:
        return f"CommandVerifier({shlex.join(self.argv)!r}, timeout={self.timeout:g})"

    def verify(
        self, context: ToolContext, tool: str, input: Mapping[str, Any]
    ) -> Program[VerifyResult]:
        path = next((input[f] for f in PATH_FIELDS if isinstance(input.get(f), str)), None)
        if path is None and any("{path}" in a for a in self.argv):
            return VerifyResult(False, f"no path in the input of {tool} to check")
        argv = tuple(a.replace("{path}", path) if path is not None else a for a in self.argv)
        done = yield RunProcess(argv, context.cwd, self.timeout)
        if not isinstance(done, Success):
            return VerifyResult(False, str(done.failure()))
        proc: ProcessResult = done.unwrap()
        output = (proc.stdout + proc.stderr).strip()[-2000:]
        if proc.returncode == 0:
            return VerifyResult(True, output or f"{shlex.join(argv)} exited 0")
        return VerifyResult(False, output or f"{shlex.join(argv)} exited {proc.returncode}")


def _verify_program(verifier: Any, ctx: DispatchContext, tool: str) -> Program[Any]:
    outcome = yield RunVerifier(verifier, ctx.tool_context, tool, ctx.input)
    return outcome


@attrs.frozen(init=False, repr=False)
class VerifyMiddleware:
    """Runs ``verifier`` after successful write-class tools and appends the verdict.

    Never sets ``is_error``. A verifier that raises, returns junk or exceeds ``timeout``
    seconds gives a failed verdict saying so.
    """

    name = "verify"
    verifier: Any
    write_tools: frozenset[str]
    timeout: float | None

    def __init__(
        self, verifier: Any, write_tools: Iterable[str], *, timeout: float | None = 60.0
    ) -> None:
        if not callable(getattr(verifier, "verify", None)) and not callable(verifier):
            raise ConfigError(f"verifier must have a verify() method, got {verifier!r:.60}")
        self.__attrs_init__(verifier, names("write_tools", write_tools),
                            None if timeout is None else finite_number(
                                "timeout", timeout, positive=True))

    def __repr__(self) -> str:
        return f"VerifyMiddleware({self.verifier!r}, {sorted(self.write_tools)})"

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        result = yield from next(ctx)
        tool = result.resolved_tool_name or ctx.tool_name
        if result.is_error or tool not in self.write_tools:
            return result
        verdict = yield from self._run(ctx, tool)
        word = "passed" if verdict.passed else "failed"
        line = f"[verify] {word}: {verdict.diagnostics}"
        return attrs.evolve(result, output=append_text(result.output, "\n\n" + line, line))

    def _run(self, ctx: DispatchContext, tool: str) -> Program[VerifyResult]:
        answer = yield WithDeadline(
            self.timeout, lambda: _verify_program(self.verifier, ctx, tool)
        )
        if not isinstance(answer, Success):
            failure = answer.failure()
            if isinstance(failure, Expired):
                limit = seconds_text(failure.seconds)
                return VerifyResult(False, f"verifier timed out after {limit}s")
            return VerifyResult(False, "verifier cancelled")
        outcome = answer.unwrap()
        if not isinstance(outcome.value, Success):
            return VerifyResult(False, f"verifier {describe_failure(outcome.value.failure())}")
        verdict = outcome.value.unwrap()
        if not isinstance(verdict, VerifyResult):
            return VerifyResult(False,
                                f"verifier returned {safe_repr(verdict)}, not a VerifyResult")
        return verdict


# --- pipeline-file options ------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class VerifyOptions:
    """``command`` (``{path}`` is the written file) runs after each successful write (of a
    tool named in ``write_tools`` or with the ``file_write`` role); without one, the
    verifier is the NoopVerifier, for the tools named only."""

    write_tools: list[str] = attrs.Factory(lambda: ["Write", "Edit"])
    command: str | None = None
    timeout: float = 60.0

    def build(self, registry: ToolRegistry) -> Middleware:
        if self.command is None:
            # nothing to run: only the tools named claim the NoopVerifier's pass, never
            # one that is a writer by its role alone (an MCP destructiveHint tool), whose
            # "[verify] passed:" would say a check ran where none did (issue 28)
            return VerifyMiddleware(NoopVerifier(), self.write_tools, timeout=self.timeout)
        writes = with_roles(self.write_tools, registry.roles(), "file_write")
        return VerifyMiddleware(CommandVerifier(self.command, timeout=self.timeout), writes,
                                timeout=self.timeout)
