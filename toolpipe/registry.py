"""Tools, their declarations, the registry, and the core ``ToolCallMiddleware``."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs
from returns.result import Success

from toolpipe._cattrs import strict_converter
from toolpipe._made import call_tool, dispatch_result, text_content
from toolpipe._schema import check, derive, descriptions
from toolpipe.context import DispatchContext
from toolpipe.effects import (
    Busy,
    CallCancelled,
    CallOutcome,
    Raised,
    SoftError,
    Unsupported,
)
from toolpipe.errors import ConfigError, ToolError
from toolpipe.failures import (
    BadReturn,
    Cancelled,
    Cause,
    Invalid,
    NotFound,
    Overloaded,
    Panicked,
    ToolFailed,
    render,
)
from toolpipe.program import Program
from toolpipe.result import (
    DispatchResult,
    DisplayHint,
    ImageContent,
    MultipartContent,
    TextContent,
    ToolContent,
)
from toolpipe.roles import ROLES, role_of

# The standard tools by role: the ones that only read, the ones that write files.
READ_TOOLS = ("Read", "Glob", "Grep", "LS")
WRITE_TOOLS = ("Write", "Edit", "MultiEdit")


def _name(_: object, attribute: attrs.Attribute[str], value: object) -> None:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{attribute.name} must be a non-empty string, got {value!r}")


def _role(instance: object, attribute: object, value: str | None) -> None:
    if value is not None and value not in ROLES:
        raise ConfigError(f"role must be one of {', '.join(sorted(ROLES))}, got {value!r:.40}")


@attrs.frozen
class ToolDeclaration:
    """What the model is shown, and what the engine plans waves from.

    ``concurrency_safe`` calls may share a wave; two calls with the same resource key never
    do. The key is ``resource_key`` when set, else the value of the input field named by
    ``resource_key_from`` (``"path"`` for the file tools), else the call has no key.
    """

    name: str = attrs.field(validator=_name)
    description: str = ""
    input_schema: Mapping[str, Any] = attrs.field(
        factory=lambda: {"type": "object", "additionalProperties": True}
    )
    concurrency_safe: bool = False
    resource_key: str | None = None
    resource_key_from: str | None = None
    role: str | None = attrs.field(default=None, validator=_role, kw_only=True)
    idempotent: bool | None = attrs.field(default=None, kw_only=True)
    """Running it twice does no more than running it once (a retry is safe). None: as its
    role says (readers and searchers are; shells, writers and the rest are not)."""

    read_only: bool | None = attrs.field(default=None, kw_only=True)
    """It changes nothing anywhere (MCP's ``readOnlyHint``). None: as its role says
    (readers and searchers change nothing; every other tool may write anything)."""
    cacheable: bool | None = attrs.field(default=None, kw_only=True)
    """Its answer may be served again while nothing it read changed. None: read-only tools
    whose role is a reader or a searcher are; an MCP tool is only with ``readOnlyHint``
    and ``openWorldHint: false`` (a read-only tool's answer may still change: a clock,
    a remote service)."""

    @property
    def kind(self) -> str:
        """The role: declared, else the role of a common name, else ``"other"``."""
        return role_of(self.name, self.role)

    @property
    def changes_nothing(self) -> bool:
        """Whether a call of it leaves every cached answer valid."""
        if self.read_only is not None:
            return self.read_only
        return self.kind in ("file_read", "search")

    @property
    def may_cache(self) -> bool:
        """Whether its answers may be cached at all."""
        if self.cacheable is not None:
            return self.cacheable
        return self.changes_nothing and self.kind in ("file_read", "search")

    @property
    def retry_safe(self) -> bool:
        """Whether a timed-out call of it may run again."""
        if self.idempotent is not None:
            return self.idempotent
        return self.kind in ("file_read", "search")

    def resource_of(self, input: Mapping[str, Any]) -> str | None:
        """The resource key of one call of this tool."""
        if self.resource_key is not None:
            return self.resource_key
        if self.resource_key_from is None:
            return None
        value = input.get(self.resource_key_from)
        return None if value is None else f"{self.resource_key_from}={value}"


_STRICT = strict_converter()


def _typed(fn: Callable[..., Any], style: str, cls: Any) -> Callable[..., Any]:
    """``fn`` as an ``fn(input, context)`` tool: keyword arguments from the (already
    checked) input, or the input structured into its attrs class. The kind (plain,
    coroutine, program) is kept."""
    takes_context = "context" in inspect.signature(fn).parameters

    def args(input: Mapping[str, Any], context: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        extra = {"context": context} if takes_context else {}
        if style == "attrs":
            try:
                value = _STRICT.structure(dict(input), cls)
            except Exception as exc:  # the schema check came first: a nested detail
                raise ToolError(f"Invalid input: {_cattrs_detail(exc)}") from None
            return (value,), extra
        return (), {**input, **extra}

    if inspect.iscoroutinefunction(fn):
        async def call_async(input: Mapping[str, Any], context: Any) -> Any:
            a, k = args(input, context)
            return await fn(*a, **k)
        call: Callable[..., Any] = call_async
    elif inspect.isgeneratorfunction(fn):
        def call_program(input: Mapping[str, Any], context: Any) -> Any:
            a, k = args(input, context)
            return (yield from fn(*a, **k))
        call = call_program
    else:
        def call_plain(input: Mapping[str, Any], context: Any) -> Any:
            a, k = args(input, context)
            return fn(*a, **k)
        call = call_plain
    call.__doc__ = fn.__doc__
    call.__name__ = getattr(fn, "__name__", "tool")
    return call


def _cattrs_detail(exc: BaseException) -> str:
    import cattrs

    if isinstance(exc, cattrs.BaseValidationError):
        return "; ".join(cattrs.transform_error(exc, path="input"))
    return str(exc)


def _kind_of(fn: Callable[..., Any]) -> str:
    if inspect.iscoroutinefunction(fn):
        return "coroutine"
    if inspect.isgeneratorfunction(fn):
        return "program"
    return "function"


@attrs.frozen
class Tool:
    """A declaration and the function that runs it: ``fn(input, context)``.

    ``fn`` may be a plain function, a coroutine function (asyncio/trio only) or a function
    returning a program (runs everywhere). It returns ``str`` or a ``ToolContent``; raise
    ``ToolError`` for a soft error. On the async interpreters a plain function runs in a
    worker thread, so that a deadline can abandon it whatever it does (``inline=True``
    runs it on the event loop instead: the fast path, for functions known to be quick).
    ``blocking`` is the old name of the default.
    """

    declaration: ToolDeclaration
    fn: Callable[..., Any] = attrs.field(eq=False)
    display_hint: DisplayHint = attrs.field(factory=DisplayHint)
    blocking: bool = False
    kind: str = attrs.field(init=False)
    inline: bool = attrs.field(default=False, kw_only=True)

    @fn.validator
    def _check_fn(self, attribute: attrs.Attribute[Any], value: object) -> None:
        if not callable(value):
            raise TypeError(f"fn of tool {self.declaration.name!r} must be callable")

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "kind", _kind_of(self.fn))

    @property
    def name(self) -> str:
        return self.declaration.name

    @classmethod
    def from_function(
        cls,
        name: str,
        fn: Callable[..., Any],
        *,
        description: str = "",
        input_schema: Mapping[str, Any] | None = None,
        concurrency_safe: bool = False,
        resource_key: str | None = None,
        resource_key_from: str | None = None,
        display_hint: DisplayHint | None = None,
        blocking: bool = False,
        inline: bool = False,
        role: str | None = None,
        idempotent: bool | None = None,
        read_only: bool | None = None,
        cacheable: bool | None = None,
    ) -> Tool:
        derived = derive(fn) if input_schema is None else None
        if derived is not None:  # a typed function: its signature is the schema
            input_schema, style, structured = derived
            fn = _typed(fn, style, structured)
            description = description or descriptions(fn)[0]
        decl = ToolDeclaration(
            name,
            description or (inspect.getdoc(fn) or ""),
            # an untyped fn(input, context) takes any object: say so, not "no arguments"
            input_schema if input_schema is not None else {
                "type": "object", "additionalProperties": True},
            concurrency_safe,
            resource_key,
            resource_key_from,
            role=role,
            idempotent=idempotent,
            read_only=read_only,
            cacheable=cacheable,
        )
        return cls(decl, fn, display_hint or DisplayHint(), blocking,
                   inline=inline and not blocking)


class ToolRegistry:
    """Tools by name. Registration order is kept; ``names()`` is alphabetical."""

    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        self._sorted: tuple[str, ...] | None = None
        self.version = 0
        self.workspace: str | None = None
        """The folder the tools work in, where it is one (the standard tools' root): the
        cache checks what its answers read there."""
        for tool in tools:
            self.register(tool)

    def register(self, tool: Tool) -> Tool:
        if not isinstance(tool, Tool):
            raise TypeError(f"register() expects a Tool, got {type(tool).__name__}")
        if tool.name in self._tools:
            raise ValueError(f"a tool named {tool.name!r} is already registered")
        self._tools[tool.name] = tool
        self._sorted = None
        self.version += 1
        return tool

    def tool(self, name: str | None = None, **options: Any) -> Callable[[Callable[..., Any]], Tool]:
        """Decorator: ``@registry.tool("Read", concurrency_safe=True)``."""

        def register(fn: Callable[..., Any]) -> Tool:
            return self.register(Tool.from_function(name or fn.__name__, fn, **options))

        return register

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)

    def names(self) -> tuple[str, ...]:
        if self._sorted is None:
            self._sorted = tuple(sorted(self._tools))
        return self._sorted

    def tools(self) -> tuple[Tool, ...]:
        """The registered tools, in registration order."""
        return tuple(self._tools.values())

    def declarations(self) -> tuple[ToolDeclaration, ...]:
        return tuple(t.declaration for t in self._tools.values())

    def roles(self) -> dict[str, str]:
        """Each tool's role (declared, else by its name; see toolpipe.roles)."""
        return {name: t.declaration.kind for name, t in self._tools.items()}


def not_found_text(name: str, available: tuple[str, ...]) -> str:
    return render(NotFound(name, available))


def _content(value: object) -> ToolContent | None:
    if type(value) is str:
        return text_content(value)
    if isinstance(value, str):
        return TextContent(str(value))
    if isinstance(value, TextContent | MultipartContent | ImageContent):
        return value
    return None


@attrs.frozen(init=False)
class ToolCallMiddleware:
    """The innermost core: registry lookup, the tool run, panic isolation, cancellation."""

    name = "tool_call"
    registry: ToolRegistry

    def __init__(self, registry: ToolRegistry) -> None:
        if not isinstance(registry, ToolRegistry):
            raise TypeError(f"registry must be a ToolRegistry, got {type(registry).__name__}")
        self.__attrs_init__(registry)

    def dispatch(self, ctx: DispatchContext, next: object = None) -> Program[DispatchResult]:
        name = ctx.tool_name
        tool = self.registry._tools.get(name)
        if tool is None:
            return DispatchResult.failed(ctx.call_id, NotFound(name, self.registry.names()))
        schema = tool.declaration.input_schema
        if "properties" in schema or "required" in schema:
            problem = check(schema, ctx.input)
            if problem is not None:  # the tool never runs on an input it did not declare
                return DispatchResult.failed(ctx.call_id, Invalid(name, problem))
        outcome: CallOutcome = yield call_tool(tool, ctx.input, ctx.tool_context, ctx.cancel)
        value = outcome.value
        hint = tool.display_hint
        if type(value) is Success or isinstance(value, Success):
            answer = value._inner_value  # (``unwrap()`` without its call: the hot path)
            content = text_content(answer) if type(answer) is str else _content(answer)
            if content is not None:
                return dispatch_result(ctx.call_id, content, False, outcome.duration, name,
                                       hint, None, False)
            cause: Cause = BadReturn(name, "tool", type(answer).__name__,
                                     "str or ToolContent")
        else:
            cause = failure_cause(name, value.failure())
        return DispatchResult.failed(ctx.call_id, cause, outcome.duration, hint)


def failure_cause(name: str, failure: object) -> Cause:
    if isinstance(failure, Raised):
        return Panicked(name, failure.message)
    if isinstance(failure, CallCancelled):
        return Cancelled(name)
    if isinstance(failure, SoftError):
        return ToolFailed(name, failure.message)
    if isinstance(failure, Unsupported):
        return ToolFailed(name, f"Tool '{name}' cannot run here: {failure.message}")
    if isinstance(failure, Busy):
        return Overloaded(name, failure.message)
    return ToolFailed(name, f"Tool '{name}' failed: {failure!r}")  # pragma: no cover


