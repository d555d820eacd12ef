"""The parse and the walk's record: tree-sitter-bash access, the limits of one analysis,
what the walk found so far (``_Out``), and small readings of nodes that need no state."""

from __future__ import annotations

import bisect
import re
import shlex
from collections.abc import Iterator, Sequence
from typing import Any

import tree_sitter

from toolpipe.shell._model import Command, Problem, ProblemKind
from toolpipe.shell._words import Word

MAX_DEPTH = 8  # nested code strings and function calls

MAX_CALLS = 64  # function bodies expanded at their call sites, per analysis

MAX_COMMANDS = 800  # commands read in one analysis (so that any input is decided quickly)


class _TooMany(Exception):
    """Raised through the walk when it has read as many commands as it may."""


_LANGUAGE: list[Any] = []  # the grammar, loaded on first use


# Statements whose named children are simply statements (or words to expand) in order.
_SEQUENCES = frozenset({
    "program", "compound_statement", "do_group", "else_clause", "elif_clause", "list",
    "if_statement", "while_statement", "negated_command", "case_item", "c_style_for_statement",
    "test_command", "unary_expression", "binary_expression", "parenthesized_expression",
    "ternary_expression", "postfix_expression", "arithmetic_expansion", "expression",
})


_QUIET = frozenset({"comment", "heredoc_body", "heredoc_start", "heredoc_end", "variable_name",
                    "file_descriptor", "test_operator", "regex", "number", "word",
                    "special_variable_name", "string_content", "raw_string"})


_PARSERS: list[Any] = []  # idle parsers (list.pop and list.append are atomic)


def parse_tree(text: str) -> Any:
    """tree-sitter-bash's parse of ``text``. A parser is not safe to share between threads,
    so each parse takes an idle one (or makes one) and gives it back."""
    if not _LANGUAGE:
        import tree_sitter_bash

        _LANGUAGE.append(tree_sitter.Language(tree_sitter_bash.language()))
    try:
        parser = _PARSERS.pop()
    except IndexError:
        parser = tree_sitter.Parser(_LANGUAGE[0])
    try:
        source = text.encode("utf-8", "surrogatepass")
        tree = parser.parse(source)
        if b"<<" in source and b"\\" in source and _BACKSLASH_BODY.search(source):
            for _ in range(MAX_REPAIRS):
                repaired = _heredocs_repaired(tree.root_node, source)
                if repaired is None:
                    break
                source = repaired
                tree = parser.parse(source)
        if b"\\\n" in source and _MID_WORD.search(source):
            joined = _continuations_joined(tree.root_node, source)
            if joined is not None:
                tree = parser.parse(joined)
        return tree
    finally:
        _PARSERS.append(parser)


# A backslash that ends a line inside a word joins the lines, as bash reads them before
# any word is made (`r\⏎m -rf ~` is `rm -rf ~`); tree-sitter-bash reads it as a blank, and
# the shield read a program `r` handed `m` (allowed). Outside quotes that keep it (single
# quotes, a comment, a here-document under a quoted delimiter) each is taken out and the
# text parsed again.
_MID_WORD = re.compile(rb"[^\s\\]\\\n[^\s]")
_KEEPS_IT = frozenset({"raw_string", "comment", "ansi_c_string"})


def _continuations_joined(root: Any, source: bytes) -> bytes | None:
    kept: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in _KEEPS_IT or (node.type == "heredoc_body" and _quoted_delimiter(node)):
            kept.append((node.start_byte, node.end_byte))
            continue
        stack.extend(node.children)
    kept.sort()  # (disjoint: a kept node's children are not walked)
    starts = [lo for lo, _ in kept]
    out, last, changed = [], 0, False
    at = source.find(b"\\\n")
    while at >= 0:
        run = 1  # the backslashes that end at `at` (an even run escapes itself)
        while run <= at and source[at - run] == 0x5C:
            run += 1
        k = bisect.bisect_right(starts, at) - 1  # (the kept range that starts before it)
        if run % 2 == 1 and not (k >= 0 and at < kept[k][1]):
            out.append(source[last:at])
            last, changed = at + 2, True
        at = source.find(b"\\\n", at + 2)
    return b"".join([*out, source[last:]]) if changed else None


def _heredoc_start(node: Any) -> Any:
    """A here-document redirection's delimiter node (``None``: none)."""
    return next((c for c in node.children if c.type == "heredoc_start"), None)


def _quoted_delimiter(body: Any) -> bool:
    start = _heredoc_start(body.parent) if body.parent is not None else None
    return start is not None and any(q in _text(start) for q in ("'", '"', "\\"))


# A here-document whose body's first line starts with a backslash (`bash <<'EOF'` then
# `\\rm -rf ~`, `psql <<'EOF'` then `\\! rm -rf ~`) is misread by tree-sitter-bash: that
# line comes out as words of the redirection or of the command after it, and the body as
# empty (the shield read `bash <<'EOF'⏎\\rm -rf ~⏎EOF` as harmless). The backslash is put
# back as STAND_IN, a byte no grammar rule gives a meaning, and the text parsed again (the
# same length: every offset holds); the body's text turns it back (``body_text``).
STAND_IN = b"\x01"
# (a line with `<<` then, past blank lines, one that starts with a backslash: only then is
# the tree walked for a misread body, a walk that cost as much as the parse of a script)
_BACKSLASH_BODY = re.compile(rb"<<[^\n]*\n(?:[ \t]*\n)*[ \t]*\\")
MAX_REPAIRS = 8  # here-documents mended on one text (each a parse: a bound on the work)


def _heredocs_repaired(root: Any, source: bytes) -> bytes | None:
    """``source`` with the first misread body's leading backslash stood in for, or
    ``None`` when no body is misread."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in ("heredoc_redirect", "ERROR"):  # (ERROR: `<<'EOF' > f` then `\\;(`)
            at = _misread_body(node)
            if at is not None:  # (the body's first line that is not blank)
                first = len(source) - len(source[at + 1:].lstrip(b" \t\n"))
                if source[first:first + 1] == b"\\":
                    return source[:first] + STAND_IN + source[first + 1:]
        stack.extend(node.children)
    return None


def _line_break_after_start(node: Any) -> int | None:
    """Where the line that holds a here-document's delimiter ends (the body follows it),
    in the source's bytes; ``None`` for a node with no delimiter or no line break."""
    start = _heredoc_start(node)
    if start is None:
        return None
    line_end: int = node.text.find(b"\n", start.end_byte - node.start_byte)
    return None if line_end < 0 else node.start_byte + line_end


def _misread_body(node: Any) -> int | None:
    """Where the line break before a here-document's body is, when something other than
    the body spans it (the body read as words), else ``None``."""
    at = _line_break_after_start(node)
    if at is not None and any(c.end_byte > at and c.type not in ("heredoc_body", "heredoc_end")
                              for c in node.children):
        return at
    return None


def body_text(node: Any) -> str:
    """A here-document body's text as bash reads it: from the line after the redirection
    to the delimiter's line (tree-sitter's body node leaves out the blanks and empty lines
    that start it), tabs that start its lines taken off after ``<<-``, and a stood-in
    backslash given back."""
    parent = node.parent
    text = _text(node)
    at = _line_break_after_start(parent) if parent is not None else None
    if at is not None and at < node.start_byte:
        text = parent.text[at + 1 - parent.start_byte:node.end_byte - parent.start_byte].decode(
            "utf-8", "replace")
        if any(c.type == "<<-" for c in parent.children):
            text = "\n".join(line.lstrip("\t") for line in text.split("\n"))
    return text.replace(STAND_IN.decode(), "\\")


def _text(node: Any) -> str:
    return node.text.decode("utf-8", "replace")  # type: ignore[no-any-return]


def _errors(node: Any) -> Iterator[Any]:
    cursor = [node]
    while cursor:
        n = cursor.pop()
        if n.is_error or n.is_missing:
            yield n
            continue
        if n.has_error:
            cursor.extend(n.children)


class _Out:
    def __init__(self, max_commands: int = MAX_COMMANDS) -> None:
        self.max_commands = max_commands
        self.commands: list[Command] = []
        self.problems: list[Problem] = []
        self.pipeline_id = 0
        self.fed: dict[str, str] = {}  # what a plain <(echo …) gives, by its text
        self.listed: dict[str, Word] = {}  # each name a <(ls ROOT) lists, by its text
        self.aliases: dict[str, tuple[Word, ...]] = {}  # alias and hash -p: name → words
        self.deferred: list[tuple[str, tuple[str, ...]]] = []  # EXIT traps' code, read last
        self.calls = 0
        self.active: set[str] = set()
        # functions: the reading of each definition (kept aside), the ones read at a call
        # with their arguments, the ones a call could not be read for, the ones that run
        # their arguments, the definitions being read, the calls read (by what they
        # depend on), and the variable names in each body
        self.definitions: dict[str, tuple[list[Command], list[Problem]]] = {}
        self.called: set[str] = set()
        self.unread: set[str] = set()
        self.runs_arguments: set[str] = set()
        self.defining: list[str] = []
        self.walked: set[tuple[object, ...]] = set()
        self.body_names: dict[int, frozenset[str]] = {}
        self._position = 0
        # (the parsed text, start, end) of each text reported unparsed: offsets are a
        # parse's own, so only a report in the same text covers another (an eval's code
        # parsed after another's was once covered by the first's offsets)
        self._unparsed: set[tuple[int, int, int]] = set()
        self.git_keys: dict[str, str] = {}  # GIT_CONFIG_KEY_<n> → its key, for VALUE_<n>

    def position(self) -> int:
        self._position += 1
        if self._position > self.max_commands:
            raise _TooMany
        return self._position

    def problem(self, kind: ProblemKind, text: str, where: tuple[str, ...],
                sources: Sequence[str] = ()) -> None:
        self.problems.append(Problem(kind, text, where, tuple(sources)))

    def unparsed(self, node: Any, where: tuple[str, ...]) -> bool:
        root = node
        while root.parent is not None:
            root = root.parent
        parsed, start, end = hash(root.text), node.start_byte, node.end_byte
        if any(t == parsed and a <= start and end <= b for t, a, b in self._unparsed):
            return False  # already reported, or inside what was
        self._unparsed.add((parsed, start, end))
        snippet = _text(node).strip()[:40] or node.type
        line = node.start_point[0] + 1
        self.problem("unparsed", f"shell text it could not parse: {snippet!r} (line {line})",
                     where)
        return True

    def downstream_of(self, cmd: Command) -> bool:
        return any(c.pipeline == cmd.pipeline and c.position > cmd.position and c.piped
                   for c in self.commands)


def _plain_commands(line: str) -> list[list[str]]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        tokens = list(lexer)
    except ValueError:
        tokens = line.split()
    out: list[list[str]] = [[]]
    for t in tokens:
        if t and all(c in ";&|()<>" for c in t):
            out.append([])
        else:
            out[-1].append(t)
    return [c for c in out if c]


_PLAIN = re.compile(r"[^\\{}$'\"`\s]+")


_GLOB = re.compile(r"[*?\[]")


_PLAIN_COMMAND = re.compile(r"[^\\{}$'\"`\s;&|<>()#]+(?:[ \t]+[^\\{}$'\"`\s;&|<>()#]+)*")


def _plain_argv(node: Any) -> tuple[Word, ...] | None:
    """The words of a command made only of plain words (no quotes, expansions, escapes,
    assignments or redirections), or None."""
    text = _text(node)
    if not _PLAIN_COMMAND.fullmatch(text) or "=" in text.split(None, 1)[0] or "~-" in text:
        return None  # (`~-` is $OLDPWD: the walk's)
    return tuple(Word(t, t, _GLOB.search(t) is not None) for t in text.split())


_ENDLESS = {"while_statement": ("true", ":", "[ 1 ]", "((1))", "/bin/true"),
            "until_statement": ("false", "/bin/false", "! :", "! true")}


_MANY = 1000  # background jobs one loop may start before it is a flood
_COUNTS = re.compile(r"\$\(\s*seq\s+(?:(-?\d+)\s+)?(?:-?\d+\s+)?(\d+)\s*\)|\{(-?\d+)\.\.(-?\d+)\}"
                     r"|<=?\s*(\d+)")


def _spawns_many(node: Any) -> str:
    """A counted loop (``for i in $(seq 1 100000)``, ``{1..5000}``, ``for ((…; i<N; …))``)
    that starts a background job on each of a thousand turns or more: "spawns"."""
    body = node.child_by_field_name("body") or next(
        (c for c in node.children if c.type == "do_group"), None)
    if body is None or not any(c.type == "&" for c in body.children):
        return ""
    whole = _text(node)
    head = whole[:len(whole) - len(_text(body))]
    for m in _COUNTS.finditer(head):
        lo, hi = (m.group(1) or m.group(3) or "0"), (m.group(2) or m.group(4) or m.group(5))
        if hi is not None and abs(int(hi) - int(lo)) >= _MANY:
            return "spawns"
    return ""


def _spawns_forever(node: Any) -> str:
    """An endless loop with no way out (no break, exit, return or wait): "spawns" when it
    starts a background job on each turn (``while true; do bash & done``), "busy" when it
    never pauses either (no sleep, read or wait: ``while :; do mkdir d; cd d; done`` fills
    the disk or the process table); "" otherwise."""
    condition, body = node.child_by_field_name("condition"), node.child_by_field_name("body")
    if condition is None or body is None:
        return ""
    if _text(condition).strip().rstrip(";").strip() not in _ENDLESS[node.type]:
        return ""
    text = _text(body)
    if re.search(r"\b(break|exit|return|wait)\b", text):
        return ""
    if any(c.type == "&" for c in body.children):
        return "spawns"
    return "" if re.search(r"\b(sleep|read|timeout|inotifywait|select|usleep)\b", text) \
        else "busy"
