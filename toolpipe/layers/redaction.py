"""RedactingMiddleware: scrub secrets from tool output, post-execution.

Curated patterns run in order, then an entropy heuristic over whitespace-separated tokens.
Every replacement contains ``[``, ``:`` and ``]``, which no pattern and no token can
contain, so redacting twice changes nothing (idempotence).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Protocol

import attrs

from toolpipe._checks import finite_number
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

DEFAULT_PATTERNS: tuple[tuple[str, str], ...] = (
    ("bearer", r"(?i)authorization:\s*bearer\s+[A-Za-z0-9\-._~+/=]+"),
    ("api_key_kv", r"""(?i)(?:api[_-]?key|token|secret)\s*[=:]\s*["']?[A-Za-z0-9]{16,}["']?"""),
    ("aws_access_key", r"A(?:KIA|SIA|GPA)[0-9A-Z]{16}"),
    ("pem_private_key",
     r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----"),
    ("github_pat", r"gh[pousr]_[A-Za-z0-9]{36,}"),
    ("gitlab_pat", r"glpat-[A-Za-z0-9_\-]{20}"),
)

# Same match sets as DEFAULT_PATTERNS; a leading lookahead lets the regex engine skip
# positions that cannot start a match (the api_key_kv scan gets about 40% faster).
_FAST_FORMS = {
    "api_key_kv": (
        r"""(?i)(?=[ast])(?:api[_-]?key|token|secret)\s*[=:]\s*["']?[A-Za-z0-9]{16,}["']?"""
    ),
}

class Matcher(Protocol):
    """What a pattern of the set must do (a compiled ``re.Pattern`` does)."""

    def sub(self, repl: str, string: str) -> str: ...

    def finditer(self, string: str) -> Iterator[re.Match[str]]: ...

    def search(self, string: str) -> re.Match[str] | None: ...


class _BlockPattern:
    """A BEGIN … END block pattern in linear time. The plain regex retries its lazy scan
    from every BEGIN that has no END after it, which is quadratic (a 128 KB run of BEGIN
    lines took 8 s); here only the text up to the last END is searched, so every attempt
    ends at an END."""

    def __init__(self, regex: str, end: str) -> None:
        self.regex = re.compile(regex)
        self.end = re.compile(end)
        self.pattern = regex

    def _cut(self, string: str) -> int:
        cut = 0
        for found in self.end.finditer(string):
            cut = found.end()
        return cut

    def sub(self, repl: str, string: str) -> str:
        cut = self._cut(string)
        return self.regex.sub(repl, string[:cut]) + string[cut:] if cut else string

    def finditer(self, string: str) -> Iterator[re.Match[str]]:
        cut = self._cut(string)
        return self.regex.finditer(string, 0, cut) if cut else iter(())

    def search(self, string: str) -> re.Match[str] | None:
        return next(iter(self.finditer(string)), None)


_PEM_END = r"-----END [A-Z ]{0,40}PRIVATE KEY-----"
_BLOCKS = {
    "pem_private_key": (r"-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[\s\S]*?" + _PEM_END,
                        _PEM_END),
}

TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_")
_KIND = re.compile(r"[a-z0-9_]+")
_RUNS: dict[int, re.Pattern[str]] = {}


def _runs(min_length: int) -> re.Pattern[str]:
    """Tokens: maximal runs of base64/url-safe characters (whitespace never belongs)."""
    pattern = _RUNS.get(min_length)
    if pattern is None:
        pattern = _RUNS[min_length] = re.compile(rf"[A-Za-z0-9+/=_\-]{{{min_length},}}")
    return pattern


def shannon_entropy(token: str) -> float:
    """``-Σ p·log2 p`` over the token's character frequencies, in bits per character."""
    n = len(token)
    if n == 0:
        return 0.0
    return -sum((c / n) * math.log2(c / n) for c in Counter(token).values())


@attrs.frozen
class SecretPatternSet:
    """Named regexes applied in order, plus the entropy heuristic (on by default)."""

    patterns: tuple[tuple[str, Matcher], ...] = ()
    entropy: bool = True
    min_length: int = 32
    min_entropy: float = 4.5

    @classmethod
    def default_common(cls) -> SecretPatternSet:
        return cls(tuple(
            (kind, _BlockPattern(*_BLOCKS[kind]) if kind in _BLOCKS
             else re.compile(_FAST_FORMS.get(kind, rx))) for kind, rx in DEFAULT_PATTERNS
        ))

    @classmethod
    def empty(cls) -> SecretPatternSet:
        return cls((), entropy=False)

    def with_pattern(self, kind: str, regex: str | re.Pattern[str]) -> SecretPatternSet:
        """Add a pattern after the existing ones; ``kind`` names it in the replacement."""
        if not isinstance(kind, str) or not _KIND.fullmatch(kind) or len(kind) > 24:
            raise ConfigError(
                f"kind must be 1-24 lower-case letters, digits or _, got {kind!r}"
            )
        compiled: Matcher
        if isinstance(regex, re.Pattern):
            compiled = regex
        else:
            try:
                compiled = re.compile(regex)
            except (re.error, TypeError) as exc:
                raise ConfigError(f"regex for {kind!r} is invalid: {exc}") from None
        if compiled.search(""):
            raise ConfigError(f"regex for {kind!r} matches the empty string")
        return attrs.evolve(self, patterns=(*self.patterns, (kind, compiled)))

    def with_entropy(self, enabled: bool = True, *, min_length: int = 32,
                     min_entropy: float = 4.5) -> SecretPatternSet:
        if isinstance(min_length, bool) or not isinstance(min_length, int) or min_length < 1:
            raise ConfigError(f"min_length must be a positive int, got {min_length!r}")
        bits = finite_number("min_entropy", min_entropy, minimum=0.0)
        return attrs.evolve(self, entropy=enabled, min_length=min_length, min_entropy=bits)

    def without_entropy(self) -> SecretPatternSet:
        return attrs.evolve(self, entropy=False)

    def kinds(self) -> list[str]:
        return [k for k, _ in self.patterns] + (["high_entropy"] if self.entropy else [])

    def redact(self, text: str) -> str:
        for kind, pattern in self.patterns:
            text = pattern.sub(f"[REDACTED:{kind}]", text)
        if self.entropy:
            text = self._redact_entropy(text)
        return text

    def find(self, text: str) -> list[tuple[str, str]]:
        """(kind, secret) pairs that ``redact`` would replace, in pattern order."""
        found: list[tuple[str, str]] = []
        for kind, pattern in self.patterns:
            found.extend((kind, m.group(0)) for m in pattern.finditer(text))
            text = pattern.sub(f"[REDACTED:{kind}]", text)
        if self.entropy:
            found.extend(("high_entropy", t) for t in self._entropy_tokens(text))
        return found

    def _is_secret(self, token: str) -> bool:
        # Entropy is at most log2(distinct characters): most tokens fail this at C speed.
        if len(set(token)) < 2 ** self.min_entropy:
            return False
        return shannon_entropy(token) >= self.min_entropy

    def _entropy_tokens(self, text: str) -> Iterable[str]:
        for match in _runs(self.min_length).finditer(text):
            if self._is_secret(match.group(0)):
                yield match.group(0)

    def _redact_entropy(self, text: str) -> str:
        is_secret = self._is_secret

        def replace(match: re.Match[str]) -> str:
            token = match.group(0)
            return "[REDACTED:high_entropy]" if is_secret(token) else token

        return _runs(self.min_length).sub(replace, text)


def redact_content(patterns: SecretPatternSet, content: ToolContent) -> ToolContent:
    if isinstance(content, TextContent):
        scrubbed = patterns.redact(content.text)
        return content if scrubbed == content.text else TextContent(scrubbed)
    if isinstance(content, ImageContent):
        return content
    parts: list[Part] = []
    changed = False
    for part in content.parts:
        if isinstance(part, TextContent):
            scrubbed = patterns.redact(part.text)
            if scrubbed != part.text:
                changed = True
                part = TextContent(scrubbed)
        parts.append(part)
    return MultipartContent(tuple(parts)) if changed else content


@attrs.frozen(init=False, repr=False)
class RedactingMiddleware:
    """Replaces secrets in the output with ``[REDACTED:<kind>]``. Never sets errors;
    images, ``is_error``, duration and display hint are untouched."""

    name = "redaction"
    patterns: SecretPatternSet

    def __init__(self, patterns: SecretPatternSet | None = None) -> None:
        if patterns is not None and not isinstance(patterns, SecretPatternSet):
            raise ConfigError(f"patterns must be a SecretPatternSet, got {patterns!r:.60}")
        self.__attrs_init__(
            patterns if patterns is not None else SecretPatternSet.default_common())

    def __repr__(self) -> str:
        return f"RedactingMiddleware(kinds={self.patterns.kinds()})"

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        result = yield from next(ctx)
        scrubbed = redact_content(self.patterns, result.output)
        if scrubbed is result.output:
            return result
        return attrs.evolve(result, output=scrubbed)


# --- pipeline-file options ------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class RedactionOptions:
    """This layer's options in a pipeline file (see toolpipe.config)."""

    entropy: bool = True
    patterns: dict[str, str] = attrs.Factory(dict)

    def build(self, registry: ToolRegistry) -> Middleware:
        patterns = SecretPatternSet.default_common()
        if not self.entropy:
            patterns = patterns.without_entropy()
        for kind, regex in self.patterns.items():
            try:
                patterns = patterns.with_pattern(kind, regex)
            except ConfigError as exc:
                raise ConfigError(f"patterns: {exc}") from None
        return RedactingMiddleware(patterns)
