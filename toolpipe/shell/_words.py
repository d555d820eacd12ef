"""Words after the shell's expansions: what a command really receives as its arguments.

A :class:`Word` is built from segments (literal text, quoted or not, and unknown parts such
as an unresolved ``$var``). Expansion follows bash where it can be done without running
anything: quote removal, backslashes, ``$'…'`` escapes, brace expansion of literals, known
variables (``$IFS`` included, with word splitting of unquoted expansions). What stays
unknown is marked, never guessed: ``text`` holds ``UNKNOWN`` in its place.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

UNKNOWN = "\x00"
IFS = " \t\n"
GLOB_CHARS = frozenset("*?[")
MAX_BRACE_WORDS = 256


class Segment(NamedTuple):
    """A piece of one shell word (a tuple: the walk makes hundreds per script)."""

    text: str
    quoted: bool = False
    known: bool = True
    # For an unknown part: may it contain ``..`` or ``/`` (a variable may; a name from
    # ``find``'s output under a known root may not climb out of it).
    tame: bool = False
    expanded: bool = False  # the value of an expansion (split at the script's IFS)


class Word(NamedTuple):
    """One argument: ``text`` (with ``UNKNOWN`` for what is not known), its source text.
    Immutable; a tuple, as a walk makes hundreds of them per script."""

    text: str
    raw: str = ""
    glob: bool = False  # an unquoted *, ? or [ : a pattern, not a name
    tame: bool = True  # every unknown part is tame (see Segment)
    # Texts of the commands whose output is spliced into this word ($(…), `…`, <(…)).
    sources: tuple[str, ...] = ()

    @property
    def known(self) -> bool:
        return UNKNOWN not in self.text

    @property
    def shown(self) -> str:
        """For messages: the text, or the source text where part of it is unknown."""
        return self.text if self.known else (self.raw or self.text.replace(UNKNOWN, "…"))

    def __str__(self) -> str:
        return self.shown


def replaced(word: Word, mark: str, by: Word) -> Word:
    """``word`` with each ``mark`` in it put as ``by`` (xargs -I's ``{}/x`` for the names
    it reads): ``by`` itself for the mark alone."""
    if word.text == mark or not mark:
        return by if word.text == mark else word
    if mark not in word.text:
        return word
    return Word(word.text.replace(mark, by.text), word.raw, word.glob or by.glob,
                word.tame and by.tame, word.sources + by.sources)


def glob_part(text: str) -> tuple[int, int] | None:
    """Where a pattern's first part with a pattern character starts and ends
    (``build/*.o/x``: 6 and 9); None for a text with none."""
    at = min((text.find(c) for c in GLOB_CHARS if c in text), default=-1)
    if at < 0:
        return None
    end = text.find("/", at)
    return text.rfind("/", 0, at) + 1, end if end >= 0 else len(text)


def dot_parent(text: str) -> str | None:
    """A pattern whose first part with a pattern character may match `..` (`.*`, `.?`,
    `build/.*`; not `.[!.]*` nor `.??*`): where it may lead, the folder above that part's
    (itself when it is the last part, else anything under it; a shell whose `.*` matches
    `.` and `..`, as dash and bash before 5.2 do, and `find`, `chmod -R` and `chown -R`,
    which do not refuse them as `rm` does, go there)."""
    span = glob_part(text)
    if span is None:
        return None
    start, end = span
    part = text[start:end]
    if not part.startswith(".") or not fnmatch.fnmatchcase("..", part):  # (a leading dot
        # is matched only by one written)
        return None
    return text[:start] + (".." if end == len(text) else "../" + UNKNOWN)


def names_folder(text: str) -> bool:
    """Does a destination name a folder (``.``, ``..``, a trailing ``/``): what a copy or a
    program's output puts there lands under it."""
    return text in (".", "..") or text.endswith("/")


def shell_word(word: str) -> str:
    """``word`` as one word of a shell line: as it is when it needs no quotes, else quoted."""
    return word if re.fullmatch(r"[\w./~=+-]+", word) else "'" + word.replace("'", "'\\''") + "'"


def literal(text: str) -> Word:
    return Word(text, text)


def unknown(raw: str, *, tame: bool = False, prefix: str = "") -> Word:
    return Word(prefix + UNKNOWN, raw, tame=tame)


_ANSI_SIMPLE = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n",
                "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}
_ANSI = re.compile(r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|"
                   r"c.|.)", re.S)


def ansi_c(body: str) -> str:
    """The value of ``$'body'``."""

    def one(m: re.Match[str]) -> str:
        e = m.group(1)
        if e[0] in "xuU":
            try:
                return chr(int(e[1:], 16))
            except (ValueError, OverflowError):
                return UNKNOWN
        if e[0].isdigit():
            return chr(int(e, 8) & 0xFF)
        if e[0] == "c":
            return chr(ord(e[1]) & 0x1F)
        return _ANSI_SIMPLE.get(e, "\\" + e)

    return _ANSI.sub(one, body)


def unescape_unquoted(text: str) -> str:
    """Backslash removal outside quotes (``\\<newline>`` joins lines)."""
    if "\\" not in text:
        return text
    return re.sub(r"\\(\n|.)", lambda m: "" if m.group(1) == "\n" else m.group(1), text,
                  flags=re.S)


def unescape_double(text: str) -> str:
    """Inside double quotes a backslash escapes only ``$ ` " \\`` and newline."""
    if "\\" not in text:
        return text
    return re.sub(r'\\([$`"\\\n])', lambda m: "" if m.group(1) == "\n" else m.group(1), text)


def _brace_items(chars: list[tuple[str, bool]]) -> list[list[tuple[str, bool]]] | None:
    """Brace-expand a word given as (char, quoted) pairs; None when nothing expands."""
    depth, start = 0, -1
    commas: list[int] = []
    for i, (c, q) in enumerate(chars):
        if q:
            continue
        if c == "{":
            if depth == 0:
                start, commas = i, []
            depth += 1
        elif c == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                inner = chars[start + 1 : i]
                pre, post = chars[:start], chars[i + 1 :]
                if commas:
                    parts, last = [], start + 1
                    for comma in [*commas, i]:
                        parts.append(chars[last:comma])
                        last = comma + 1
                    return [pre + p + post for p in parts]
                seq = _sequence("".join(c for c, _ in inner))
                if seq is not None:
                    return [pre + [(ch, True) for ch in s] + post for s in seq]
        elif c == "," and depth == 1:
            commas.append(i)
    return None


def _sequence(text: str) -> list[str] | None:
    m = re.fullmatch(r"(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?", text)
    if m is None:
        return None
    a, b, step = m.group(1), m.group(2), abs(int(m.group(3) or 1)) or 1
    if a.lstrip("-").isdigit() and b.lstrip("-").isdigit():
        lo, hi = int(a), int(b)
        if abs(hi - lo) // step > MAX_BRACE_WORDS:
            return None
        rng = range(lo, hi + 1, step) if lo <= hi else range(lo, hi - 1, -step)
        return [str(n) for n in rng]
    if a.isalpha() and b.isalpha():
        lo, hi = ord(a), ord(b)
        rng = range(lo, hi + 1, step) if lo <= hi else range(lo, hi - 1, -step)
        return [chr(n) for n in rng]
    return None


def brace_expand(chars: list[tuple[str, bool]]) -> list[list[tuple[str, bool]]]:
    out: list[list[tuple[str, bool]]] = []
    todo = [chars]
    while todo and len(out) + len(todo) <= MAX_BRACE_WORDS:
        item = todo.pop(0)
        expanded = _brace_items(item)
        if expanded is None:
            out.append(item)
        else:
            todo[:0] = expanded
    return out + todo


_SPLITS = re.compile(r"[ \t\n{]")


def _one_word(segments: Sequence[Segment], raw: str, srcs: tuple[str, ...], split: bool,
              ifs: str) -> Word | None:
    """The word, when nothing in it splits or brace-expands (most words); else None."""
    parts: list[str] = []
    glob, tame = False, True
    for seg in segments:
        if not seg.known:
            parts.append(UNKNOWN)
            tame = tame and seg.tame
        elif seg.quoted:
            parts.append(seg.text)
        else:
            if (seg.expanded and ifs != IFS) or (
                    _SPLITS.search(seg.text) if split else "{" in seg.text):
                return None
            glob = glob or any(c in seg.text for c in GLOB_CHARS)
            parts.append(seg.text)
    text = "".join(parts)
    return Word(text, raw, glob, tame, srcs) if text else None


def build(segments: Sequence[Segment], raw: str, sources: Iterable[str] = (),
          *, split: bool = True, ifs: str = IFS) -> list[Word]:
    """Turn the segments of one shell word into the words the command receives.

    Unquoted known text is brace-expanded and split at IFS (an unquoted ``${IFS}`` splits
    the word, as bash does); quoted text never splits. Unknown parts stay in place.
    """
    srcs = tuple(sources)
    if len(segments) == 1 and segments[0].known and not segments[0].expanded:
        # the common case, one plain word: nothing to expand or split
        text = segments[0].text
        if segments[0].quoted:
            return [Word(text, raw, False, True, srcs)]
        if text and "{" not in text and not (split and any(c in IFS for c in text)):
            return [Word(text, raw, any(c in GLOB_CHARS for c in text), True, srcs)]
    one = _one_word(segments, raw, srcs, split, ifs)
    if one is not None:
        return [one]
    chars: list[tuple[str, bool]] = []
    tame = True
    for seg in segments:
        if not seg.known:
            chars.append((UNKNOWN, True))
            tame = tame and seg.tame
            continue
        for c in seg.text:
            if not seg.quoted and seg.expanded and ifs != IFS and c in ifs:
                c = " "  # a custom IFS character in an expansion splits like a blank
            elif not seg.quoted and seg.expanded and ifs != IFS and c in IFS and c not in ifs:
                chars.append((c, True))  # a blank the custom IFS does not split on
                continue
            chars.append((c, seg.quoted))
    if not chars:
        # "" is one empty word; an unquoted expansion to nothing is no word at all.
        return [Word("", raw, sources=srcs)] if any(s.quoted for s in segments) else []
    variants = brace_expand(chars) if any(c == "{" and not q for c, q in chars) else [chars]
    words: list[Word] = []
    for variant in variants:
        fields: list[list[tuple[str, bool]]] = [[]]
        for c, q in variant:
            if split and not q and c in IFS:
                if fields[-1]:
                    fields.append([])
                continue
            fields[-1].append((c, q))
        for field in fields:
            if not field:
                continue
            text = "".join(c for c, _ in field)
            glob = any(c in GLOB_CHARS and not q for c, q in field)
            words.append(Word(text, raw, glob, tame, srcs))
    return words
