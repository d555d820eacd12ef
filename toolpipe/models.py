"""Model adapters for the official SDKs: ``OpenAIModel`` and ``AnthropicModel``.

Each wraps the user's own client (``openai.OpenAI``/``AsyncOpenAI``,
``anthropic.Anthropic``/``AsyncAnthropic``: install the ``[openai]`` or ``[anthropic]``
extra) and is a toolpipe ``Model``. Its ``respond`` is a program: it builds the request
with ``toolpipe.formats``, yields it as a ``Request`` effect (the interpreter performs it,
so toolpipe itself does no I/O; the SDK keeps its own retries and timeouts), and reads the
answer back into a ``ModelReply`` with usage, stop reason and, for Anthropic, every content
block. A request the service refuses (a 400, a bad key) ends the agent's run with
``model_error`` and the service's own message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from returns.result import Success

from toolpipe._checks import describe_failure
from toolpipe.agent import Message, ModelReply
from toolpipe.effects import CallOutcome, Request
from toolpipe.errors import ConfigError, ToolpipeError
from toolpipe.formats import anthropic, openai, openai_responses
from toolpipe.program import Program
from toolpipe.registry import ToolDeclaration

__all__ = ["AnthropicModel", "ModelError", "OpenAIModel", "model_from_spec"]


class ModelError(ToolpipeError):
    """The model's service refused or failed the request; the message is the service's."""


def _params(value: Mapping[str, Any]) -> dict[str, Any]:
    return dict(value)


def _check(client: Any, path: tuple[str, ...], extra: str) -> None:
    target = client
    for part in path:
        target = getattr(target, part, None)
    if not callable(target):
        raise ConfigError(f"client must be an {extra} client (no {'.'.join(path)}()), got "
                          f"{type(client).__name__}")


def _send(create: Any, payload: dict[str, Any], service: str, model: str) -> Program[Any]:
    """``create(**payload)`` as a ``Request`` effect; its answer, or a ``ModelError``."""
    outcome: CallOutcome = yield Request(lambda: create(**payload), label=f"{service}:{model}")
    if isinstance(outcome.value, Success):
        return outcome.value.unwrap()
    raise ModelError(f"{service} refused the request: {describe_failure(outcome.value.failure())}")


def _model_name(model: object) -> None:
    if not isinstance(model, str) or not model:
        raise ConfigError(f"model must be a model name, got {model!r:.40}")


@attrs.frozen
class OpenAIModel:
    """Chat completions through ``client.chat.completions.create``, or with
    ``api="responses"`` the Responses API through ``client.responses.create`` (its
    reasoning items go back with the next request)."""

    client: Any = attrs.field(eq=False)
    model: str
    system: str | None = None
    params: Mapping[str, Any] = attrs.field(factory=dict, converter=_params)
    api: str = "chat"

    def __attrs_post_init__(self) -> None:
        if self.api not in ("chat", "responses"):
            raise ConfigError(f"api must be 'chat' or 'responses', got {self.api!r:.40}")
        path = ("chat", "completions", "create") if self.api == "chat" else (
            "responses", "create")
        _check(self.client, path, "openai")
        _model_name(self.model)

    def respond(self, messages: Sequence[Message], tools: Sequence[ToolDeclaration]
                ) -> Program[ModelReply]:
        if self.api == "responses":
            return (yield from self._responses(messages, tools))
        payload: dict[str, Any] = {"model": self.model,
                                   "messages": openai.messages(messages, system=self.system),
                                   **self.params}
        if tools:
            payload["tools"] = openai.tools(tools)
        answer = yield from _send(self.client.chat.completions.create, payload, "openai",
                                  self.model)
        return openai.reply(answer)

    def _responses(self, messages: Sequence[Message], tools: Sequence[ToolDeclaration]
                   ) -> Program[ModelReply]:
        payload: dict[str, Any] = {"model": self.model,
                                   "input": openai_responses.inputs(messages), **self.params}
        if self.system is not None:
            payload["instructions"] = self.system
        if tools:
            payload["tools"] = openai_responses.tools(tools)
        answer = yield from _send(self.client.responses.create, payload, "openai", self.model)
        return openai_responses.reply(answer)


@attrs.frozen
class AnthropicModel:
    """Messages through ``client.messages.create`` (``max_tokens`` is required there)."""

    client: Any = attrs.field(eq=False)
    model: str
    system: str | None = None
    max_tokens: int = 4096
    params: Mapping[str, Any] = attrs.field(factory=dict, converter=_params)

    def __attrs_post_init__(self) -> None:
        _check(self.client, ("messages", "create"), "anthropic")
        _model_name(self.model)
        if isinstance(self.max_tokens, bool) or not isinstance(self.max_tokens, int) or \
                self.max_tokens < 1:
            raise ConfigError(f"max_tokens must be a positive int, got {self.max_tokens!r}")

    def respond(self, messages: Sequence[Message], tools: Sequence[ToolDeclaration]
                ) -> Program[ModelReply]:
        payload: dict[str, Any] = {"model": self.model, "max_tokens": self.max_tokens,
                                   "messages": anthropic.messages(messages), **self.params}
        if self.system is not None:
            payload["system"] = self.system
        if tools:
            payload["tools"] = anthropic.tools(tools)
        answer = yield from _send(self.client.messages.create, payload, "anthropic",
                                  self.model)
        return anthropic.reply(answer)


PROVIDERS = {"openai": ("openai", "OPENAI_API_KEY"),
             "anthropic": ("anthropic", "ANTHROPIC_API_KEY")}


def model_from_spec(spec: str, environ: Mapping[str, str]) -> OpenAIModel | AnthropicModel:
    """``openai:MODEL`` or ``anthropic:MODEL`` as a model on the user's async client and
    key (``environ`` is where the key is looked for). Each missing piece is a
    ``ConfigError`` saying what to do."""
    import importlib.util

    provider, _, name = spec.partition(":")
    if provider not in PROVIDERS or not name:
        raise ConfigError(f"expected openai:MODEL or anthropic:MODEL, got {spec!r:.60}")
    package, key = PROVIDERS[provider]
    if importlib.util.find_spec(package) is None:
        raise ConfigError(f"{provider} needs the {package} package: "
                          f"pip install 'toolpipe-middleware[{provider}]'")
    if not environ.get(key):
        raise ConfigError(f"{provider} needs your key in the environment: export {key}=…")
    if provider == "openai":
        import openai as openai_sdk

        return OpenAIModel(openai_sdk.AsyncOpenAI(api_key=environ[key]), model=name)
    import anthropic as anthropic_sdk

    return AnthropicModel(anthropic_sdk.AsyncAnthropic(api_key=environ[key]), model=name)
