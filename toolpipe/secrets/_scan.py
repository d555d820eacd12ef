"""The scanner: find every secret's span in time linear in the text.

1. One re2 pass over the UTF-8 bytes finds every *trigger* of every rule (re2 is linear
   by construction; a union of literals runs at several hundred MB/s).
2. At each trigger, the rules it belongs to match their own regex, anchored there, and
   their context test decides. An accepted span swallows the triggers inside it.
3. A second re2 pass finds runs of base64/url-safe characters of at least 32; a run is a
   secret by the entropy guess unless it is public by construction (an SRI or go.sum
   hash, a data: URI, an ssh public key, a certificate or public key block, a file's
   magic bytes in base64) or has no mix of upper case, lower case and digits.
4. Overlapping spans merge and take the label of the most specific rule.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Sequence

import re2  # type: ignore[import-untyped]
from re2 import _re2

from toolpipe.secrets._rules import GUESS, PROVIDER, PUBLIC, PUBLIC_ZONE, RULES, Rule
from toolpipe.secrets._values import CHECKS

_UNANCHORED = re2._Anchor.UNANCHORED


def _compile(pattern: bytes) -> _re2.RE2:
    options = re2.Options()
    options.max_mem = 64 << 20
    options.never_capture = True
    options.log_errors = False
    # bytes are bytes: a class such as [^A-Za-z0-9] takes one byte, never a whole UTF-8
    # character, so a boundary is always one byte before what follows it
    options.encoding = re2.Options.Encoding.LATIN1
    compiled = _re2.RE2(pattern, options)
    if not compiled.ok():  # pragma: no cover - the patterns are ours
        raise ValueError(compiled.error())
    return compiled


Span = tuple[int, int, str, int]  # start, end, kind, priority


class Triggers:
    """Where each rule may fire: one re2 union of every trigger followed by its rule's
    shape (``ghp_`` then 36 letters or digits), and for each literal the rules whose
    trigger it starts with (``sk-ant-`` also starts ``sk-``). A trigger that begins with
    a letter or digit must not follow one (``xAKIA…`` is no AWS key): re2 checks that
    too, so a run of ``AKIAAKIA…`` or ``ghp_ghp_…`` never leaves the C scan."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules = tuple(rules)
        literals = sorted({t for r in rules for t in r.triggers}, key=len, reverse=True)
        self.by_literal: dict[bytes, tuple[Rule, ...]] = {
            lit.encode(): tuple(r for r in rules
                                if any(lit.startswith(t) for t in r.triggers))
            for lit in literals
        }
        self.by_head: dict[bytes, list[bytes]] = {}
        for lit in literals:  # longest first
            self.by_head.setdefault(lit.encode()[:2], []).append(lit.encode())
        self.fragments = [(re.compile(f.encode()), r) for r in rules for f in r.case_triggers]
        self.longest = max((len(t) for t in literals), default=1)
        bounded: list[bytes] = []
        free: list[bytes] = []
        for rule in rules:
            for lit in rule.triggers:
                alt = b"(?i:" + re2.escape(lit.encode()) + b")" + rule.shape.encode()
                (bounded if rule.bounded and lit[0].isalnum() else free).append(alt)
            free += [f.encode() for f in rule.case_triggers]
        parts = []
        if bounded:
            parts.append(b"(?:^|[^A-Za-z0-9])(?:" + b"|".join(dict.fromkeys(bounded)) + b")")
        parts += list(dict.fromkeys(free))
        self.regex = _compile(b"|".join(parts))
        # a cluster: triggers (literals or fragments) each within 64 bytes of the last
        any_trigger = b"(?:(?i:" + b"|".join(re2.escape(t.encode()) for t in literals) + b")"
        any_trigger += b"".join(b"|" + f.encode() for r in rules for f in r.case_triggers)
        any_trigger += b")"
        self.cluster = _compile(any_trigger + b"(?:[^\n]{0,64}?" + any_trigger + b")*")

    def rules_at(self, buf: bytes, lo: int) -> tuple[int, tuple[Rule, ...]]:
        """Where the trigger found at ``lo`` starts (after its boundary character, if
        any), and the rules to try there."""
        chunk = buf[lo:lo + self.longest + 1].lower()
        for skip in (0, 1):
            for lit in self.by_head.get(chunk[skip:skip + 2], ()):
                if chunk.startswith(lit, skip):
                    return lo + skip, self.by_literal[lit]
        return lo, tuple(rule for fragment, rule in self.fragments
                         if fragment.match(buf, lo))


_TRIGGERS = Triggers(RULES + PUBLIC)
_LABEL_CHARS = frozenset(b":_abcdefghijklmnopqrstuvwxyz0123456789")


def _in_label(buf: bytes, start: int) -> bool:
    opened = buf.rfind(b"[REDACTED:", max(0, start - 40), start)
    return opened >= 0 and _LABEL_KIND.fullmatch(buf, opened + 10, start) is not None


_LABEL_KIND = re.compile(rb"[a-z0-9_]*")
MAX_BARE = 128  # a bare value's length the key-value rules read before the tail scan
_BARE_TAIL = re.compile(rb"""[^\s"'`,;<>(){}\[\]\\|&]*""")
_TOKEN_TAIL = re.compile(rb"""[^\s"'<>]*""")
# Work allowed per text before the scanner stops judging triggers one by one: each costs a
# few microseconds of Python, so a text made of triggers (``token: token: …``) would
# otherwise take seconds. Past it, every cluster of triggers is redacted whole, as
# ``[REDACTED:dense]``: the guard fails closed. Ordinary text stays far below (10 MB of
# mixed tool output has about 3,500 triggers and 2,400 runs to judge). The budgets are
# counts, not rates: redacting never adds a trigger or a run outside a label, so a second
# pass stays under them and changes nothing (Redact∘Redact = Redact).
TRIGGER_BUDGET = 8_192
RUN_BUDGET = 4_096


def rule_spans(triggers: Triggers, buf: bytes) -> tuple[list[Span], list[tuple[int, int]]]:
    """The rules' secrets, and the public zones the entropy guess must leave alone."""
    spans: list[Span] = []
    public: list[tuple[int, int]] = []
    # Every trigger is judged, inside an accepted span too: a span may end in the middle
    # of a token that a later trigger's rule would cover (merge unites them). The budget,
    # not skipping, keeps a text made of triggers linear.
    zone = 0
    reach = 0  # where the furthest accepted span ends
    next_end = -1  # where the END line after the last block looked at ends (size+1: none)
    name = ""
    match = triggers.regex.Match
    pos, size = 0, len(buf)
    left = TRIGGER_BUDGET
    while pos < size:
        lo = match(_UNANCHORED, buf, pos, size)[0][0]
        if lo < 0:
            break
        pos = lo + 1
        start, rules = triggers.rules_at(buf, lo)
        if start and buf[start - 1] in _LABEL_CHARS and _in_label(buf, start):
            continue  # "token" in [REDACTED:…_token]: redacting twice changes nothing
        left -= 1
        if left < 0:
            spans += dense_spans(triggers, buf, lo)
            break
        for rule in rules:
            if rule.priority == PUBLIC_ZONE:
                if start >= zone:
                    found = rule.regex.match(buf, start)
                    if found is not None:
                        public.append(found.span())
                        zone = found.end()
                continue
            found = rule.regex.match(buf, start)
            if found is None:
                continue
            kind = rule.kind
            if rule.check is not None:
                checked = CHECKS[rule.check](rule.kind, found, buf, rule.value)
                if checked is None:
                    continue
                kind = checked
            lo, hi = found.span()
            for name in rule.value:
                if found.group(name) is not None:
                    lo, hi = found.span(name)
                    break
            if buf.startswith(b"[REDACTED:", lo):
                continue  # already a label: redacting twice changes nothing
            if rule.check == "pem" and b"-----END" not in buf[hi - 40:hi]:
                # cut short here, or a body we could not read: the block runs to the next
                # END line, as the spec's pattern said (one forward search for all BEGINs)
                if next_end < hi:
                    next_end = _find_end(buf, hi)
                if next_end <= size:
                    hi = max(hi, next_end)
            elif name == "bare" and hi - lo >= MAX_BARE:
                # a long bare value runs on to the end of its word; scanning from what is
                # already redacted keeps a text of nested keys (password=password=…) linear
                tail = _BARE_TAIL.match(buf, max(hi, reach))
                hi = max(hi, tail.end()) if tail is not None else hi
            reach = max(reach, hi)
            spans.append((lo, hi, kind, rule.priority))
            break
    return spans, public


_END_LINE = re.compile(rb"-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")


def _find_end(buf: bytes, pos: int) -> int:
    found = _END_LINE.search(buf, pos)
    return found.end() if found is not None else len(buf) + 1


def dense_spans(triggers: Triggers, buf: bytes, pos: int) -> list[Span]:
    """Past the budget: each cluster of triggers (each within 64 bytes of the last), with
    the word after its last trigger, is one ``dense`` span. One C scan per cluster."""
    spans: list[Span] = []
    match = triggers.cluster.Match
    size = len(buf)
    while pos < size:
        lo, hi = match(_UNANCHORED, buf, pos, size)[0]
        if lo < 0:
            break
        tail = _TOKEN_TAIL.match(buf, hi)
        hi = tail.end() if tail is not None else hi
        spans.append((lo, max(hi, lo + 1), "dense", PROVIDER))
        pos = max(hi, lo + 1)
    return spans


# --- the entropy guess -------------------------------------------------------------------------

_MAGIC = (b"iVBORw0KGgo", b"/9j/", b"R0lGOD", b"UklGR", b"PHN2Zy", b"PD94bWwg", b"JVBERi0",
          b"UEsDB", b"H4sI", b"AAAA", b"T2dnUw", b"SUQz", b"d09GR", b"d09GMg", b"Qk0")
_SRI = (b"sha1-", b"sha256-", b"sha384-", b"sha512-")  # skipped inside the scan
_SKIP_STARTS = (*_SRI, b"sha224-", b"md5-", *_MAGIC)
_HASH_LEADS = (b"h1:", b"W/\"", b"W/\\\"", b"sha256:", b"sha512:", b"sha1:", b"md5:",
               b"base64,", b"base64:")
_UPPER = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LOWER = frozenset(b"abcdefghijklmnopqrstuvwxyz")
_DIGIT = frozenset(b"0123456789")
_ENV_KEY = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*=(?=[^=])")
MAX_RUN = 1024  # longer runs are data (images, archives, bundles), not credentials
_RUNS: dict[int, _re2.RE2] = {}


_RUN_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+=_-/")
_BOUNDARY = frozenset(range(256)) - _RUN_CHARS
_ATOM = rb"[A-Za-z0-9+=_\-/]"


def _class_without(chars: set[int]) -> bytes:
    keep = sorted(_RUN_CHARS - chars)
    return b"[" + b"".join(re2.escape(bytes([c])) for c in keep) + b"]"


def _not_starting(prefixes: tuple[bytes, ...], length: int, depth: int = 0) -> bytes:
    """A run of at least ``length`` atoms that starts with none of ``prefixes``, as one
    re2 expression: SRI hashes and file magics never leave the C scan."""
    if not prefixes:
        return _ATOM + b"{" + str(max(length - depth, 0)).encode() + b",}"
    nexts = sorted({p[depth] for p in prefixes})
    branches = [_class_without(set(nexts)) + _ATOM + b"{" +
                str(max(length - depth - 1, 0)).encode() + b",}"]
    for c in nexts:
        rest = tuple(p for p in prefixes if p[depth] == c)
        if any(len(p) == depth + 1 for p in rest):
            continue  # this character completes a prefix: no run starts this way
        branches.append(re2.escape(bytes([c])) + b"(?:" + _not_starting(rest, length,
                                                                        depth + 1) + b")")
    return b"(?:" + b"|".join(branches) + b")"


def _runs(min_length: int) -> _re2.RE2:
    found = _RUNS.get(min_length)
    if found is None:
        # the character before a run is not a run character (or the text starts)
        found = _RUNS[min_length] = _compile(
            rb"(?:^|[^A-Za-z0-9+=_\-/])" + _not_starting(_SRI, min_length))
    return found


def _ascending(token: bytes) -> bool:
    """An alphabet or a counting run (ABCDEFGH…, 0123456789…) is not random."""
    steps = sum(1 for a, b in itertools.pairwise(token) if b == a + 1)
    return steps * 2 > len(token)


def shannon_entropy(token: str | bytes) -> float:
    """``-Σ p·log2 p`` over the token's character frequencies, in bits per character."""
    n = len(token)
    if n == 0:
        return 0.0
    return -sum((c / n) * math.log2(c / n) for c in Counter(token).values())


def entropy_spans(buf: bytes, public: list[tuple[int, int]], found: list[Span],
                  min_length: int, min_entropy: float) -> list[Span]:
    """High-entropy runs. A run part of which a rule already redacted is judged on what
    is left of it (the rest of ``Zx9Q…ghp_…`` is not protected by the token in it)."""
    spans: list[Span] = []
    match = _runs(min_length).Match
    pos, end = 0, len(buf)
    shelter = iter(public)
    zone = next(shelter, (end, end))
    covers = sorted((lo, hi) for lo, hi, _, _ in found)
    ci = 0
    left = RUN_BUDGET
    while pos < end:
        lo, hi = match(_UNANCHORED, buf, pos, end)[0]
        if lo < 0:
            break
        pos = hi
        left -= 1
        if left < 0:  # a text made of random-looking words: fail closed, as for triggers
            spans += _dense_runs(buf, lo)
            break
        if buf[lo] in _BOUNDARY:
            lo += 1
        if hi - lo > MAX_RUN or buf.startswith(_SKIP_STARTS, lo):
            continue
        while zone[1] <= lo:
            zone = next(shelter, (end, end))
        if zone[0] <= lo:
            continue
        while ci < len(covers) and covers[ci][1] <= lo:
            ci += 1
        if ci < len(covers) and covers[ci][0] < hi:  # rules took part of it
            start, j = lo, ci
            while j < len(covers) and covers[j][0] < hi:
                if covers[j][0] - start >= min_length:
                    spans += _judge(buf, start, covers[j][0], min_entropy)
                start = max(start, covers[j][1])
                j += 1
            if hi - start >= min_length:
                spans += _judge(buf, start, hi, min_entropy)
            continue
        spans += _judge(buf, lo, hi, min_entropy, min_length)
    return spans


def _judge(buf: bytes, lo: int, hi: int, min_entropy: float, min_length: int = 0
           ) -> list[Span]:
    token = buf[lo:hi]
    if min_length and b"=" in token[:-2]:
        key = _ENV_KEY.match(token)
        if key is not None:  # NAME=value: the name is not part of the secret
            lo += key.end()
            token = token[key.end():]
            if len(token) < min_length:
                return []
    chars = set(token)
    if len(chars) < 2 ** min_entropy or chars.isdisjoint(_UPPER) or \
            chars.isdisjoint(_LOWER) or chars.isdisjoint(_DIGIT):
        return []
    if buf[max(0, lo - 8):lo].endswith(_HASH_LEADS):
        return []
    if shannon_entropy(token) < min_entropy or _ascending(token):
        return []
    return [(lo, hi, "high_entropy", GUESS)]


_RUN_CLUSTER = _compile(
    rb"[A-Za-z0-9+/=_\-]{32,}(?:[^A-Za-z0-9+/=_\-]{1,8}[A-Za-z0-9+/=_\-]{32,})*")


def _dense_runs(buf: bytes, pos: int) -> list[Span]:
    spans: list[Span] = []
    match = _RUN_CLUSTER.Match
    size = len(buf)
    while pos < size:
        lo, hi = match(_UNANCHORED, buf, pos, size)[0]
        if lo < 0:
            break
        spans.append((lo, hi, "dense", GUESS))
        pos = hi
    return spans


def merge(spans: list[Span]) -> list[Span]:
    """Overlapping spans become one, labelled by the most specific rule among them."""
    spans.sort()
    out: list[Span] = []
    for lo, hi, kind, priority in spans:
        if out and lo < out[-1][1]:
            plo, phi, pkind, ppri = out[-1]
            if priority < ppri:
                pkind, ppri = kind, priority
            out[-1] = (plo, max(phi, hi), pkind, ppri)
        else:
            out.append((lo, hi, kind, priority))
    return out


def scan(buf: bytes, *, builtin: bool, entropy: bool, min_length: int,
         min_entropy: float) -> list[Span]:
    spans, public = rule_spans(_TRIGGERS, buf)
    if not builtin:
        spans = []
    if entropy:
        spans += entropy_spans(buf, public, spans, min_length, min_entropy)
    return spans
