"""toolpipe.secrets: what a secret looks like, and how to find every one in linear time.

Layout (the face re-exports what users need; the rest is private):

    _rule       a detector's row (triggers, regex, groups, context test) and its helpers
    _rules      the detectors: provider shapes, secret-named keys, public zones
    _keywords   the words that name a secret, in every convention a name is written in
    _providers  more providers' token shapes (gitleaks' prefixes), one row each
    _contexts   credentials known by position: config files, SQL, command lines, calls
    _code       credentials known by their place in code and listings: calls named for one,
                wrapped literals, name/value pairs, Terraform defaults, positional passwords
    _several    rules that find several secrets at once (a table's column, chpasswd lines)
    _said       a value said before its label, a user / password pair in prose
    _declared   a default where an option or a property named for a credential is declared
    _answers    a value a command was asked for by a credential's name, on the next line
    _connect    a connect string written user/password@service (Oracle's)
    _lists      the elements of a list under a key named for credentials
    _addresses  an address that is its own credential (a webhook's, a ping's URL)
    _copies     a secret found once, redacted wherever the text repeats it
    _values     context tests: a variable, a call, a type, a placeholder is not a secret
    _schemes    context tests of a scheme or format: Bearer, Basic, key blocks, pgpass
    _triggers   where the rules may fire: the literals' automaton, their shapes by re2
    _scan       the scanner: the triggers, the rules at each, merge
    _escapes    escape sequences read as breaks (``\\n`` in JSON and logs), length kept
    _percent    a line percent-encoded whole, read as a URL's reader reads it
    _audit      an audit record's fields in hex, read as the text they spell
    _panes      a debugger's variables pane, read without each value's type
    _tags       a line HTML's tags hold, the text between them read as lines
    _shape      a text read without its lines' trailing blanks, returns, shared indent
    _wide       full-width forms read as NFKC; the labels a redaction writes
    _embedded   a line held in another (a string, CDATA, a tab's field), read as a line
    _lines      where a key stands on its line (a setting alone on it, a line's start)
    _entropy    the entropy guess: one re2 pass for the runs that could be random
    _echo       a call's own input echoed back, in every form
    _memo       what redaction gave for the texts it read last (a cached answer comes back)
    _re2        the one place that talks to re2 (compile for bytes, match)

The redaction layer (``toolpipe.layers.redaction``), the trace recorder and the shield's
warnings all use ``SecretPatternSet``; the labels it writes, ``[REDACTED:<kind>]``, are
stable (the kinds are listed in ``KINDS`` and in docs/layers/redaction.md).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from typing import Protocol

import attrs

from toolpipe._checks import finite_number
from toolpipe._text import character
from toolpipe.errors import ConfigError
from toolpipe.secrets._audit import audit_line, audit_lines
from toolpipe.secrets._continued import continued
from toolpipe.secrets._copies import copies
from toolpipe.secrets._disguise import disguises, odd, undisguised
from toolpipe.secrets._dumps import dump_spans
from toolpipe.secrets._echo import redact_echoes as redact_echoes
from toolpipe.secrets._embedded import embedded_line, embedded_lines, held_lines
from toolpipe.secrets._escapes import (
    html_lines,
    html_unescaped_line,
    json_held_lines,
    json_string_lines,
    json_unescaped_line,
    read_again,
    read_escapes,
)
from toolpipe.secrets._memo import TextMemo
from toolpipe.secrets._panes import pane_line, pane_lines
from toolpipe.secrets._percent import percent_encoded_lines, percent_unescaped_line
from toolpipe.secrets._rule import CONTEXT
from toolpipe.secrets._rules import RULES as _RULES
from toolpipe.secrets._scan import merge as _merge
from toolpipe.secrets._scan import scan as _scan
from toolpipe.secrets._scan import shannon_entropy as shannon_entropy
from toolpipe.secrets._shape import back, trimmed
from toolpipe.secrets._tags import tagged_lines, untagged_line
from toolpipe.secrets._wide import _NARROW, _labelled, full_width

__all__ = [
    "KINDS",
    "Matcher",
    "SecretPatternSet",
    "redact_echoes",
    "shannon_entropy",
]

# Every label a redaction may write: the detectors' kinds, the entropy guess, "dense" (a
# text too full of candidates to judge one by one, redacted whole) and "tool_input" (a
# call's own input echoed back, by the redaction layer's option).
KINDS: tuple[str, ...] = tuple(dict.fromkeys(
    [r.kind for r in _RULES] + ["pgp_private_key", "high_entropy", "dense", "tool_input"]))

_KIND = re.compile(r"[a-z0-9_]+")


class Matcher(Protocol):
    """What an added pattern must do (a compiled ``re.Pattern`` does)."""

    def sub(self, repl: str, string: str) -> str: ...

    def finditer(self, string: str) -> Iterator[re.Match[str]]: ...

    def search(self, string: str) -> re.Match[str] | None: ...


# an escape of a letter, a digit, ":" or "=": JSON's
# \u0070, HTML's &#x70; or &#112; (a URL's %70: every line with a percent escape is read
# decoded, `percent_encoded_lines`)
_ESCAPES = (
    re.compile(r"\\u00(?:3[0-9aAdD]|[46][1-9a-fA-F]|[57][0-9aA])"),
    re.compile(r"&#(?:[xX]0{0,2}(?:3[0-9aAdD]|[46][1-9a-fA-F]|[57][0-9aA]);"
               r"|0{0,2}(?:4[89]|5[0-8]|61|6[5-9]|[7-9][0-9]|1[01][0-9]|12[0-2]);)"),
)
# Characters the escapes of the lines judged again may save (each escape saves 3 to 9),
# past which the rest of those lines are redacted whole: a count redaction never raises
# (a label holds no escape), so a second pass stays under it and changes nothing.
ESCAPE_BUDGET = 1 << 13
# Look-alike and invisible characters of the lines read again plain (``_disguise``): no
# text but one made to be slow holds many (each line read again costs a second scan's work)
DISGUISE_BUDGET = 1 << 10
_ANY_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|&#[xX]([0-9a-fA-F]{1,6});|&#([0-9]{1,7});")


def _escapes(text: str) -> list[int]:
    """Where each escape of a letter, a digit, ``:`` or ``=`` starts, in order: one regex
    for each of the two forms, each led by its literal prefix (which ``re`` looks for at
    speed; one alternation of both read every character)."""
    return sorted(m.start() for form in _ESCAPES for m in form.finditer(text))


def _escape(m: re.Match[str]) -> str:
    hexa, hexb, dec = m.groups()
    return character(int(hexa or hexb, 16) if (hexa or hexb) else int(dec))


def _unescape_line(line: str, limit: int) -> tuple[str, list[int], int] | None:
    """The line with its JSON and HTML character escapes read (``read_escapes``)."""
    return read_escapes(line, limit, _ANY_ESCAPE, _escape)


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


@attrs.frozen
class SecretPatternSet:
    """The built-in detectors (``builtin``), the entropy guess (``entropy``), and patterns
    added with ``with_pattern``, which run after them on the redacted text, in order."""

    patterns: tuple[tuple[str, Matcher], ...] = ()
    entropy: bool = True
    min_length: int = 32
    min_entropy: float = 4.5
    builtin: bool = True
    # what ``redact`` gave for each of the last texts it read (a cached answer's text comes
    # back again and again, the same object): not part of the value
    _memo: TextMemo = attrs.field(factory=TextMemo, init=False, eq=False, repr=False)

    @classmethod
    def default_common(cls) -> SecretPatternSet:
        return cls()

    @classmethod
    def empty(cls) -> SecretPatternSet:
        return cls((), entropy=False, builtin=False)

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

    def without_builtin(self) -> SecretPatternSet:
        return attrs.evolve(self, builtin=False)

    def kinds(self) -> list[str]:
        built = [k for k in KINDS if k not in ("high_entropy", "tool_input")] \
            if self.builtin else []
        return built + [k for k, _ in self.patterns] + (
            ["high_entropy"] if self.entropy else [])

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, kind) of each secret the built-in detectors and the entropy guess
        find, in order, as offsets into ``text`` (added patterns are not included)."""
        if not (self.builtin or self.entropy) or not text:
            return []
        buf = _encode(text)
        shaped = trimmed(buf)  # (read without the blanks and returns that end its lines)
        found = self._found(buf if shaped is None else shaped[0])
        if shaped is not None:
            _, cuts, removed = shaped
            found = [(back(lo, cuts, removed, False), back(hi, cuts, removed, True), kind, p)
                     for lo, hi, kind, p in found]
        if not found or len(buf) == len(text):
            return [(lo, hi, kind) for lo, hi, kind, _ in found]
        # offsets into the bytes → offsets into the text, in one pass
        out: list[tuple[int, int, str]] = []
        at_byte = at_char = 0
        for lo, hi, kind, _ in found:
            # a rule's length bound may end (or a lookback start) inside a character:
            # the span takes the whole character (found by CI: a YAML block value cut at
            # 256 bytes in the middle of a fullwidth letter)
            while lo > at_byte and buf[lo] & 0xC0 == 0x80:
                lo -= 1
            while hi < len(buf) and buf[hi] & 0xC0 == 0x80:
                hi += 1
            at_char += len(buf[at_byte:lo].decode("utf-8", "surrogatepass"))
            start = at_char
            at_char += len(buf[lo:hi].decode("utf-8", "surrogatepass"))
            at_byte = hi
            out.append((start, at_char, kind))
        return out

    def _found(self, buf: bytes) -> list[tuple[int, int, str, int]]:
        """The spans of ``buf``'s secrets, as the detectors find them (see ``spans``)."""
        found = _scan(buf, builtin=self.builtin, entropy=self.entropy,
                      min_length=self.min_length, min_entropy=self.min_entropy)
        # hex dumps and wrapped base64: the bytes they stand for, judged as text
        found = _merge(found + dump_spans(buf, self.spans, CONTEXT))
        if found:  # a value that goes on (`TOKEN=abc\` then a line, `"abc" + "def"`), and
            # every other place a value found by its context stands (`_copies`)
            more = continued(buf, found)
            found = _merge(found + more) if more else found
            more = copies(buf, found)  # (a merge only when there is more: 5,000 spans, 3 ms)
            found = _merge(found + more) if more else found
        return found

    def redact(self, text: str) -> str:
        """``text`` with every secret replaced by its ``[REDACTED:<kind>]`` label. A text
        read lately (``_memo``) is answered as it was then, without reading it again."""
        done = self._memo.get(text)
        if done is not None:
            return done
        out = self._redacted(text)
        self._memo.put(text, out)
        return out

    def _redacted(self, text: str) -> str:
        if not text.isascii() or "\x1b" in text:
            # pass\u200bword, pаssword, a terminal's colours: the lines with a word in
            # disguise, read plain first (read as written, a disguised key could be taken
            # for a value)
            text = self._escaped(text, disguises, undisguised, DISGUISE_BUDGET)
        text = _labelled(text, self.spans(text))
        if not text.isascii():
            text = full_width(text, self.spans)
        if "\\" in text or "&" in text or "%" in text or "+" in text:  # (found at speed)
            text = self._escaped(text)
            if '\\"' in text or "\\u" in text:  # a line inside a JSON string, read so
                text = self._escaped(text, json_string_lines, json_unescaped_line)
                text = self._escaped(text, json_held_lines, json_unescaped_line)
            if "&" in text:  # a line inside HTML, read as a browser shows it
                text = self._escaped(text, html_lines, html_unescaped_line)
            if "%" in text or "+" in text:  # a line percent-encoded whole, read decoded
                text = self._escaped(text, percent_encoded_lines, percent_unescaped_line)
        if "audit(" in text:  # an audit record's fields in hex, read as the text they spell
            text = self._escaped(text, audit_lines, audit_line)
        if " = {" in text:  # a debugger's pane: `password = {str} '…'`, read without the type
            text = self._escaped(text, pane_lines, pane_line)
        if "<" in text:  # a line that tags hold, each stretch between them a line (not
            # guessed at: a run read alone has lost the element that judged it, `<Modulus>`)
            text = self._escaped(text, tagged_lines, untagged_line, guess=False)
        # a line held in a string, CDATA or after a tab, read as the line it holds (not
        # guessed at again: a value read alone has lost the key that judged it,
        # `"NextToken": "…"`)
        text = self._escaped(text, embedded_lines, embedded_line, guess=False)
        text = self._escaped(text, held_lines, embedded_line, guess=False)
        for kind, pattern in self.patterns:
            text = pattern.sub(f"[REDACTED:{kind}]", text)
        return text

    def _escaped(self, text: str, marks: Callable[[str], list[int]] = _escapes,
                 read_line: Callable[[str, int], tuple[str, list[int], int] | None] = (
                     _unescape_line), budget: int = ESCAPE_BUDGET, guess: bool = True) -> str:
        """``{"\\u0070assword": …}``, ``password: &#x4B;…``: each line where a letter, a
        digit, ``:`` or ``=`` is written as a JSON or HTML escape (which ordinary text does
        not do: an encoder escapes only what it must) is judged again as it reads
        unescaped, all such lines in one scan (its budgets bound it as they bound the
        first), and what is found there is redacted where it stands in its line.
        (``marks`` and ``read_line`` find such lines and read them: a line with a word in
        disguise is read the same way, ``_disguise``)."""
        lines: list[tuple[int, int]] = []
        at = 0
        for start in marks(text):
            if start < at:
                continue  # in a line taken already
            end = text.find("\n", start)
            lo, at = text.rfind("\n", at, start) + 1, len(text) if end < 0 else end
            lines.append((lo, at))
        if not lines:
            return text
        plains: list[str] = []
        origins: list[list[int]] = []
        starts: list[int] = []
        size = escapes = 0
        dense = len(lines)  # the first line past the budget, redacted whole with the rest
        for k, (lo, hi) in enumerate(lines):
            read = read_line(text[lo:hi], budget)
            if read is not None:
                escapes += read[2]  # the characters its escapes (or disguises) took
            if read is None or escapes > budget:
                dense = k
                break
            if read_line is not undisguised and odd(read[0]):  # (`pass\u200bword` read from
                # its escapes: read plain too, the disguise reading's way)
                read = read_again(read, undisguised(read[0], budget)) or read
            plain, origin, _ = read
            starts.append(size)
            plains.append(plain)
            origins.append(origin)
            size += len(plain) + 1
        found: dict[int, list[tuple[int, int, str]]] = {}
        joined = "\n".join(plains)  # (full-width forms read as NFKC reads them)
        for a, b, kind in self.spans(joined if joined.isascii() else joined.translate(_NARROW)):
            if not guess and kind == "high_entropy":
                continue
            # a span may run over several lines (a cluster redacted whole): each its part
            for k in range(bisect.bisect_right(starts, a) - 1,
                           bisect.bisect_right(starts, b - 1)):
                origin = origins[k]
                lo, hi = max(a - starts[k], 0), min(b - starts[k], len(origin))
                if lo >= hi:
                    continue
                end = origin[hi] if hi < len(origin) else lines[k][1] - lines[k][0]
                found.setdefault(k, []).append((origin[lo], end, kind))
        if not found and dense == len(lines):
            return text
        out: list[str] = []
        at = 0
        for k in sorted(found):
            lo, hi = lines[k]
            spans = _merge([(a, b, kind, 0) for a, b, kind in found[k]])  # (read twice: one)
            out += [text[at:lo], _labelled(text[lo:hi], [span[:3] for span in spans])]
            at = hi
        for lo, hi in lines[dense:]:
            out += [text[at:lo], "[REDACTED:dense]"]
            at = hi
        out.append(text[at:])
        return "".join(out)

    def redact_value(self, key: object, value: str) -> str:
        """A string stored under ``key`` (a dict, a JSON object), judged with its key as
        the detectors read ``key: "value"``: ``{"password": "hunter22x"}`` holds a password
        though ``hunter22x`` alone is not one."""
        if isinstance(key, str) and 0 < len(key) <= 64 and value and "\n" not in key:
            probe = f'{key}: "{value}"'
            start = len(key) + 3
            for lo, hi, kind in self.spans(probe):
                if lo <= start and start + len(value) <= hi:
                    return f"[REDACTED:{kind}]"
        return self.redact(value)

    def find(self, text: str) -> list[tuple[str, str]]:
        """(kind, secret) pairs that ``redact`` would replace, in order."""
        spans = self.spans(text)
        found = [(kind, text[lo:hi]) for lo, hi, kind in spans]
        if self.patterns:
            text = _labelled(text, spans)  # the built-in detectors' work, done once
            for kind, pattern in self.patterns:
                found.extend((kind, m.group(0)) for m in pattern.finditer(text))
                text = pattern.sub(f"[REDACTED:{kind}]", text)
        return found
