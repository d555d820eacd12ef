"""The scanner: find every secret's span in time linear in the text.

1. One pass over the UTF-8 bytes finds every *trigger* of every rule (``_triggers``: an
   Aho-Corasick automaton for the literals, re2 for what must follow them).
2. At each trigger, the rules it belongs to match their own regex, anchored there, and
   their context test decides.
3. A second re2 pass (``_entropy``) finds the runs the entropy guess judges.
4. Overlapping spans merge and take the label of the most specific rule.
"""

from __future__ import annotations

import re

from toolpipe.secrets._entropy import entropy_spans
from toolpipe.secrets._entropy import shannon_entropy as shannon_entropy
from toolpipe.secrets._escapes import near_quoted_printable, uncoloured, unescaped
from toolpipe.secrets._named import PUBLIC_PREFIXES
from toolpipe.secrets._re2 import ANCHOR_START, UNANCHORED
from toolpipe.secrets._rule import PROVIDER, PUBLIC_ZONE, Span
from toolpipe.secrets._rules import PUBLIC, RULES
from toolpipe.secrets._several import SEVERAL
from toolpipe.secrets._triggers import Triggers
from toolpipe.secrets._values import CHECKS, sample  # (_rules imports _code: its checks)

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
# ``[REDACTED:dense]``: the guard fails closed. Ordinary text stays below (the layer reads
# only what the output cap keeps). The budgets are counts, not rates: redacting never adds
# a trigger or a run outside a label, so a second pass stays under them and changes
# nothing (Redact∘Redact = Redact). The count bounds a text's time: the slowest judges
# (a password in prose, an SQL row) cost about 16 µs each, so 5,120 of them stayed under
# 100 ms on a 1 MB input (measured since: about 20 µs, the slowest input 101–104 ms, so
# 4,864 since the seventh sitting); this repository's own sources and the tldr pages,
# 1.5 MB full of the triggers' words, needed 4,404 (5,106 before Discord's two-letter
# fragments were bounded, 2,577 when the rules' own sources were smaller), and about
# 4,900 since the fifteenth sitting's rules (a default, a getter, a list: words this
# package's own sources are full of), so 5,120 again: finding a trigger no longer costs a
# call of re2's union (_triggers), which was part of each trigger's 20 µs. 5,632 since the
# twenty-second sitting: the same 1.5 MB held 5,110 triggers, then 5,117 with that
# sitting's rules (the window is a fixed size of sources that grow; see the closing note).
TRIGGER_BUDGET = 5_632
# And where triggers come thick (``WINDOW`` of them within ``WINDOW * SPACING`` bytes, no
# label between: ``password=password=…``, a table of ``| password |`` rows), the rest of
# the text is read as clusters at once, as past the budget: each trigger judged costs
# microseconds, and 8,192 of them took a 1 MB text past 200 ms. Ordinary text, even 10 MB
# of logs with a secret every few lines, has its triggers kilobytes apart. Why a second
# pass changes nothing: a window it finds dense holds no label, so nothing was redacted
# inside it, and the first pass saw the same triggers at the same distances: it went
# dense there or before, and every trigger after that point is inside a label now.
WINDOW = 512
SPACING = 16


def rule_spans(triggers: Triggers, buf: bytes) -> tuple[list[Span], list[tuple[int, int]]]:
    """The rules' secrets, and the public zones the entropy guess must leave alone."""
    spans: list[Span] = []
    public: list[tuple[int, int]] = []
    # Every trigger is judged, inside an accepted span too: a span may end in the middle
    # of a token that a later trigger's rule would cover (merge unites them). The budget,
    # not skipping, keeps a text made of triggers linear.
    zone = 0
    # where the last region read by each rule of several secrets ends (each rule its own,
    # not each check: a command's assignments read to its end must not hide a credential
    # flag after them, nor sshpass's row, read to the command's end, redis-cli's after it)
    region_end: dict[bytes, int] = {}
    reach = 0  # where the furthest accepted span ends
    next_end = -1  # where the END line after the last block looked at ends (size+1: none)
    size = len(buf)
    left = TRIGGER_BUDGET
    recent: list[int] = []  # where the last WINDOW judged triggers were (then a ring)
    judged = 0
    for lo in triggers.starts(buf):
        start, rules = triggers.rules_at(buf, lo)
        if start and buf[start - 1] in _LABEL_CHARS and _in_label(buf, start):
            continue  # "token" in [REDACTED:…_token]: redacting twice changes nothing
        left -= 1
        if judged < WINDOW:  # (grown as triggers come: most texts have few or none)
            recent.append(lo)
            oldest = 0
        else:
            slot = judged % WINDOW
            oldest = recent[slot]
            recent[slot] = lo
        judged += 1
        if left < 0 or (judged > WINDOW and lo - oldest < WINDOW * SPACING
                        and buf.find(b"[REDACTED:", oldest, lo) < 0):
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
            if rule.back[0]:
                found = None
                for at in range(start - rule.back[0], start - rule.back[1] + 1):
                    found = rule.regex.match(buf, at) if at >= 0 else None
                    if found is not None:
                        break
            else:
                found = rule.regex.match(buf, start)
            if found is None:
                continue
            if rule.check in SEVERAL:
                # a rule that finds several secrets at once (a table's column, a list of
                # user:password lines): each region is read once
                own = rule.regex.pattern
                floor = region_end.get(own, 0)
                if start >= floor:
                    cells, region_end[own] = SEVERAL[rule.check](buf, start, found, floor)
                    spans += [(lo, hi, rule.kind, rule.priority) for lo, hi in cells]
                continue
            kind = rule.kind
            if rule.check is None and sample(buf, found.start(),
                                             min(found.end(), found.start() + 160)):
                # sk_test_placeholder, ghp_xxxxxxxxxxxx: a sample, not a token (read as far
                # as a webhook's address, whose token comes last: `…/B00000000/XXXXXXXX`)
                continue
            if rule.check is not None:
                checked = CHECKS[rule.check](rule.kind, found, buf, rule.value)
                if checked is None:
                    continue
                kind = checked
            lo, hi = found.span()
            name = ""  # the value's group (none: the whole match), this match's own
            last = found.lastgroup
            if last is not None and last in rule.value:
                name = last  # the value's group, when it closes the regex
                lo, hi = found.span(name)
            else:
                for group in rule.value:
                    if found.group(group) is not None:
                        name = group
                        lo, hi = found.span(group)
                        break
            if buf.find(b"[REDACTED:", lo, hi) >= 0 or buf.startswith(b"[REDACTED:", lo) or (
                    lo and buf[lo - 1] in _LABEL_CHARS and _in_label(buf, lo)):
                # a label in it (or starting it, a value that stops at the label's colon,
                # or one that starts inside a label: `user … [REDACTED:github_pat]`):
                # this is a redaction read again, where a label may stand
                # for what made the first reading differ (a line break inside a redacted
                # block): leaving it changes nothing (Redact∘Redact = Redact)
                continue
            if rule.check == "pem" and _END_LINE_AT_END.search(buf, max(lo, hi - 80),
                                                               hi) is None:
                # cut short here, or a body we could not read: the block runs to the next
                # END line, as the spec's pattern said (one forward search for all BEGINs);
                # an END line the match stopped inside counts (a header's text can run
                # into it: `Authorization: Bearer -----END RSA PRIVATE KEY-----`, found by
                # hypothesis), so the search starts a line's length back
                if next_end < hi:
                    next_end = _find_end(buf, max(lo, hi - 80))
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
_END_LINE_AT_END = re.compile(rb"-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----\Z")


def _find_end(buf: bytes, pos: int) -> int:
    found = _END_LINE.search(buf, pos)
    return found.end() if found is not None else len(buf) + 1


GAP = 64  # a cluster's triggers: each within this many bytes of the end of the last
CHAINED = 8  # triggers chained one by one before the cluster's regex reads the rest


def dense_spans(triggers: Triggers, buf: bytes, pos: int) -> list[Span]:
    """Past the budget: each cluster of triggers (each within 64 bytes of the last), with
    the word after its last trigger, is one ``dense`` span. The triggers are found one by
    one, each next one looked for only in the 64 bytes after the last (and its own length):
    matched as one regex (``any(.{0,64}?any)*``) from its start, a cluster cost 200 µs
    over 10 MB of typed code (the lazy gap's 64 copies of every trigger, too many states for
    re2's DFA on varied text). A long cluster (a text made of triggers) is read by that
    regex after its first few triggers: one C call instead of one per trigger."""
    spans: list[Span] = []
    find, chain = triggers.any.Match, triggers.cluster.Match
    reach = GAP + 1024  # (a trigger that is a pattern, not a word, may run long)
    size = len(buf)
    ahead = -1  # where the next trigger starts, found past the last cluster's gap
    while pos < size:
        if ahead >= pos:  # found already: matched where it starts, not looked for again
            lo, hi = find(ANCHOR_START, buf, ahead, size)[0]
        else:
            lo, hi = find(UNANCHORED, buf, pos, size)[0]
        if lo < 0:
            break
        steps = 0
        ahead = -1
        while hi < size:
            at, end = find(UNANCHORED, buf, hi, min(size, hi + reach))[0]
            if at < 0 or at - hi > GAP:
                ahead = at
                break
            steps += 1
            if steps == CHAINED:  # a long cluster (`sk-sk-sk-…`): the rest in one C call
                hi = max(chain(ANCHOR_START, buf, at, size)[0][1], at + 1)
                break
            hi = max(end, at + 1)
        tail = _TOKEN_TAIL.match(buf, hi)
        hi = tail.end() if tail is not None else hi
        spans.append((lo, max(hi, lo + 1), "dense", PROVIDER))
        pos = max(hi, lo + 1)
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


_A_QUOTES_ENTITY = re.compile(rb"(?:&(?:quot|apos|#0*3[49]|#[xX]0*2[27]);?){1,2}")  # (or `""`)


def scan(buf: bytes, *, builtin: bool, entropy: bool, min_length: int,
         min_entropy: float) -> list[Span]:
    buf = uncoloured(unescaped(buf))
    # quoted-printable's `=` (a mail's `password=3DHunter2`): read as `=` and two blanks,
    # three bytes for three, so a key's value is found where it stands (one C pass)
    written = buf
    if b"=3D" in buf:
        buf = buf.replace(b"=3D", b"=  ")
    spans, public = rule_spans(_TRIGGERS, buf)
    # a key made to be public is left whichever rule found it (`the project key is phc_…`:
    # the sentence says a key, its prefix that it is one to publish)
    spans = [s for s in spans if not buf.startswith(PUBLIC_PREFIXES, s[0])]
    # (a value ending at an escaped quote leaves its backslash, JSON's `\"`; one that is a
    # quote's HTML entity is none, `-p&#x27;…`: its line is read again decoded)
    # (and a value in a word diff's marks leaves their `-` and `+`: `[-old-]`, `{+new+}`)
    spans = [(lo, hi - 1, k, p) if hi - lo > 1 and (
        (buf[hi - 1] == 0x5C and buf[hi:hi + 1] == b'"') or (
            buf[hi - 1:hi + 1] in (b"-]", b"+}") and buf[lo - 2:lo] in (b"[-", b"{+")))
             else (lo, hi, k, p) for lo, hi, k, p in spans
             if buf[lo:lo + 1] != b"&" or _A_QUOTES_ENTITY.fullmatch(buf, lo, hi) is None]
    if written is not buf:  # (or it was no mail: `password=3Dx9…` is a value that starts
        # with 3D, hidden whole: a span right after a `=3D` read so takes its `3D` too)
        spans = [(lo - 2, hi, k, p) if lo >= 3 and written[lo - 3:lo] == b"=3D" else
                 (lo, hi, k, p) for lo, hi, k, p in spans]
        spans += near_quoted_printable(written, lambda text: rule_spans(_TRIGGERS, text)[0])
    if not builtin:
        spans = []
    if entropy:  # (base64 of JSON is judged by what it says: one level, no reader inside)
        spans += entropy_spans(buf, public, spans, min_length, min_entropy, lambda d: bool(
            rule_spans(_TRIGGERS, d)[0] or entropy_spans(d, [], [], min_length, min_entropy)))
    return spans
