"""RedactingMiddleware: scrub secrets from tool output, post-execution.

What a secret looks like lives in the secrets wing (``toolpipe.secrets``); this layer
applies its ``SecretPatternSet`` to every text of a result and, when asked, to the
call's own input values echoed back in the output. Redacting twice changes nothing: no
detector matches a ``[REDACTED:<kind>]`` label.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from toolpipe._checks import non_negative_int
from toolpipe.context import DispatchContext
from toolpipe.errors import ConfigError
from toolpipe.pipeline import Middleware, Next
from toolpipe.program import Program
from toolpipe.registry import ToolRegistry
from toolpipe.result import (
    DispatchResult,
    ImageContent,
    MultipartContent,
    Part,
    TextContent,
    ToolContent,
)
from toolpipe.secrets import Matcher as Matcher
from toolpipe.secrets import SecretPatternSet as SecretPatternSet
from toolpipe.secrets import redact_echoes
from toolpipe.secrets import shannon_entropy as shannon_entropy

ECHO_LABEL = "[REDACTED:tool_input]"

SCAN_MARGIN = 8192
"""Characters scanned past what the outer cap keeps: longer than any detector's span (a
quoted value of 4,096, an entropy run of 1,024), so a secret that starts in what the cap
keeps is read whole. A private-key block is matched from its BEGIN line, so one cut at the
window's end is still redacted from its start."""


def _windowed(scrub: Callable[[str], str], text: str, limit: int) -> str:
    """``scrub`` of the head of ``text`` an outer cap of ``limit`` characters keeps, plus
    ``SCAN_MARGIN``; the rest, which the cap drops, is dropped here unread. Redactions that
    shorten the head make the window grow until the cap's cut falls in scanned text: the
    first window has a second margin for them (a head whose secrets are longer than their
    labels was read twice, 24 KB then 48 KB, where 32 KB once does), and a window that
    still falls short grows by what it lacked and a margin more."""
    window = limit + 2 * SCAN_MARGIN
    while True:
        if window >= len(text):
            return scrub(text)
        head = scrub(text[:window])
        short = limit + SCAN_MARGIN - len(head)
        if short <= 0:
            return head
        window += short + SCAN_MARGIN


def redact_content(patterns: SecretPatternSet, content: ToolContent,
                   echoed: Sequence[str] = (), scan_limit: int = 0) -> ToolContent:
    """The content with every secret replaced; ``echoed`` are literal strings (a call's
    own input values) replaced by ``[REDACTED:tool_input]`` first. ``scan_limit``: an outer
    cap keeps only that many characters of each text, so only those (and a margin) are
    read, and the rest is dropped (0: everything is read and kept)."""
    def scrub(text: str) -> str:
        if echoed:  # as given, or escaped, encoded, cut or wrapped (toolpipe.secrets._echo)
            text = redact_echoes(text, echoed, ECHO_LABEL)
        return patterns.redact(text)

    def read(text: str) -> str:
        return _windowed(scrub, text, scan_limit) if scan_limit else scrub(text)

    if isinstance(content, TextContent):
        scrubbed = read(content.text)
        return content if scrubbed == content.text else TextContent(scrubbed)
    if isinstance(content, ImageContent):
        return content
    parts: list[Part] = []
    changed = False
    for part in content.parts:
        if isinstance(part, TextContent):
            scrubbed = read(part.text)
            if scrubbed != part.text:
                changed = True
                part = TextContent(scrubbed)
        parts.append(part)
    return MultipartContent(tuple(parts)) if changed else content


def _strings(value: Any, depth: int = 0) -> Iterable[str]:
    if depth > 32:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item, depth + 1)


def echoed_values(input: Mapping[str, Any], fields: bool | tuple[str, ...],
                  min_length: int) -> tuple[str, ...]:
    """The call's string inputs (all, or those under ``fields``) of at least
    ``min_length`` characters, longest first (so a value never leaves part of a longer
    one behind)."""
    if fields is False:
        return ()
    chosen = input.values() if fields is True else [input[f] for f in fields if f in input]
    found = {s for value in chosen for s in _strings(value) if len(s) >= min_length}
    return tuple(sorted(found, key=len, reverse=True))


@attrs.frozen(init=False, repr=False)
class RedactingMiddleware:
    """Replaces secrets in the output with ``[REDACTED:<kind>]``. Never sets errors;
    images, ``is_error``, duration and display hint are untouched.

    ``echoed_inputs``: ``True`` also replaces each string the call was given (of at least
    ``min_echo`` characters) wherever the output repeats it, ``("password", …)`` only the
    strings under those input fields; for tools that are handed a secret and may print
    it back (a login step, a ``curl -u``), whatever its shape.

    ``scan_limit``: an output cap outside this layer keeps that many characters, so only
    those (and ``SCAN_MARGIN`` more) are read; what the cap would drop is dropped here. A
    pipeline file sets it from the ``output_limit`` layer outside; 0 reads everything."""

    name = "redaction"
    patterns: SecretPatternSet
    echoed_inputs: bool | tuple[str, ...]
    min_echo: int
    scan_limit: int

    def __init__(self, patterns: SecretPatternSet | None = None, *,
                 echoed_inputs: bool | Iterable[str] = False, min_echo: int = 8,
                 scan_limit: int = 0) -> None:
        if patterns is not None and not isinstance(patterns, SecretPatternSet):
            raise ConfigError(f"patterns must be a SecretPatternSet, got {patterns!r:.60}")
        if not isinstance(echoed_inputs, bool):
            if isinstance(echoed_inputs, str) or not all(
                    isinstance(f, str) and f for f in echoed_inputs):
                raise ConfigError("echoed_inputs must be true, false or a list of input "
                                  f"field names, got {echoed_inputs!r:.60}")
            echoed_inputs = tuple(echoed_inputs)
        if isinstance(min_echo, bool) or not isinstance(min_echo, int) or min_echo < 1:
            raise ConfigError(f"min_echo must be a positive int, got {min_echo!r}")
        self.__attrs_init__(
            patterns if patterns is not None else SecretPatternSet.default_common(),
            echoed_inputs, min_echo, non_negative_int("scan_limit", scan_limit))

    def __repr__(self) -> str:
        return f"RedactingMiddleware(kinds={self.patterns.kinds()})"

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        result = yield from next(ctx)
        echoed = echoed_values(ctx.input, self.echoed_inputs, self.min_echo)
        scrubbed = redact_content(self.patterns, result.output, echoed, self.scan_limit)
        if scrubbed is result.output:
            return result
        return attrs.evolve(result, output=scrubbed)


# --- pipeline-file options ------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class RedactionOptions:
    """This layer's options in a pipeline file (see toolpipe.config)."""

    entropy: bool = True
    patterns: dict[str, str] = attrs.Factory(dict)
    echoed_inputs: list[str] = attrs.Factory(list)  # ["*"]: every input field
    # None: the max_chars of an output_limit layer outside this one (0: read everything)
    scan_limit: int | None = None

    def build(self, registry: ToolRegistry) -> Middleware:
        patterns = SecretPatternSet.default_common()
        if not self.entropy:
            patterns = patterns.without_entropy()
        for kind, regex in self.patterns.items():
            try:
                patterns = patterns.with_pattern(kind, regex)
            except ConfigError as exc:
                raise ConfigError(f"patterns: {exc}") from None
        echoed: bool | tuple[str, ...] = (
            True if "*" in self.echoed_inputs else tuple(self.echoed_inputs))
        if echoed == ():
            echoed = False
        return RedactingMiddleware(patterns, echoed_inputs=echoed,
                                   scan_limit=self.scan_limit or 0)
