"""From shell text to :class:`Command` facts, on the tree-sitter-bash grammar.

The walk follows the script in text order and keeps what a reader can know without running
anything: variables assigned literal values (``a=rm; $a -rf /``), functions and their calls
with literal arguments, the directory after ``cd``, what each pipeline feeds into what.
Every code string it can see (``bash -c``, ``eval``, ``$(…)``, here-documents fed to a shell,
function bodies, ``find -exec``…) is walked too, with a note of where it was found. Text the
grammar could not parse becomes a ``Problem``: analysed as far as it parsed, never ignored.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterator, Sequence
from typing import Any

import tree_sitter

from toolpipe.shell._effects import stdin_code
from toolpipe.shell._model import Command, Problem, ProblemKind, Redirect, Script
from toolpipe.shell._oneliners import LANGUAGES, alerts, shell_strings
from toolpipe.shell._words import (
    IFS,
    UNKNOWN,
    Segment,
    Word,
    ansi_c,
    build,
    literal,
    unescape_double,
)
from toolpipe.shell._wrappers import PEELED, SHELLS, peel

_PLAIN = re.compile(r"[^\\{}$'\"`\s]+")
_GLOB = re.compile(r"[*?\[]")
_PLAIN_COMMAND = re.compile(r"[^\\{}$'\"`\s;&|<>()#]+(?:[ \t]+[^\\{}$'\"`\s;&|<>()#]+)*")
MAX_DEPTH = 8  # nested code strings and function calls
MAX_CALLS = 64  # function bodies expanded at their call sites, per analysis
MAX_COMMANDS = 1000  # commands read in one analysis (so that any input is decided quickly)


class _TooMany(Exception):
    """Raised through the walk when it has read as many commands as it may."""
_ARGUMENT = re.compile(r'^"?\$\{?[@*0-9]')  # "$@", $1, ${2}: a function's arguments
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
        return parser.parse(text.encode("utf-8", "surrogatepass"))
    finally:
        _PARSERS.append(parser)


def _text(node: Any) -> str:
    return node.text.decode("utf-8", "replace")  # type: ignore[no-any-return]


class _Walk:
    """One analysis: the shared output, and the state of the shell being read."""

    def __init__(self, depth: int, where: tuple[str, ...], out: _Out,
                 env: dict[str, Word], positional: Sequence[Word], cwd: str | None,
                 functions: dict[str, Any], defining: bool = False) -> None:
        # defining: reading a function's body where it is defined, before any call gives
        # its arguments (a command or code made only of them is judged at the call)
        self.defining = defining
        self.depth = depth
        self.where = where
        self.out = out
        self.env = env
        self.positional = tuple(positional)
        self.cwd = cwd
        self.functions = functions

    # --- statements ---------------------------------------------------------------------

    def statements(self, node: Any, upstream: tuple[Command, ...] = (),
                   redirects: tuple[Redirect, ...] = ()) -> list[Command]:
        """Walk a statement; returns the commands it runs at its own level (for pipes)."""
        kind = node.type
        if node.is_error or node.is_missing:
            self.unparsed(node)
        if kind in ("while_statement", "until_statement") and _spawns_forever(node):
            self.out.problem("fork-bomb", "fork bomb (an endless loop of background jobs)",
                             self.where)
        if kind == "command":
            return self.command(node, upstream, redirects)
        if kind == "pipeline":
            return self.pipeline(node, upstream, redirects)
        if kind == "redirected_statement":
            return self.redirected(node, upstream, redirects)
        if kind == "variable_assignment":
            self.assign(node, self.env)
            return []
        if kind == "variable_assignments":
            for child in node.named_children:
                self.assign(child, self.env)
            return []
        if kind == "declaration_command":
            self.declare(node)
            return []
        if kind == "unset_command":
            for child in node.named_children:
                self.env.pop(_text(child), None)
            return []
        if kind == "function_definition":
            self.function(node)
            return []
        if kind == "subshell":
            saved_cwd, saved_env = self.cwd, dict(self.env)
            got = self.sequence(node, upstream, redirects)
            self.cwd, self.env = saved_cwd, saved_env
            return got
        if kind == "for_statement":
            return self.for_loop(node, upstream, redirects)
        if kind == "case_statement":
            value = node.child_by_field_name("value")
            if value is not None:
                self.words(value)
            return self.sequence(node, upstream, redirects, skip=value)
        if kind in _QUIET:
            return []
        if kind in ("command_substitution", "process_substitution", "expansion",
                    "simple_expansion", "string", "concatenation"):
            self.words(node)
            return []
        return self.sequence(node, upstream, redirects)

    def sequence(self, node: Any, upstream: tuple[Command, ...],
                 redirects: tuple[Redirect, ...], skip: Any = None) -> list[Command]:
        got: list[Command] = []
        for child in node.children:
            if child.is_missing:  # `[[ -e / ]] && rm -rf /`: the whole statement is unsure
                self.unparsed(node)
            elif child.is_error:
                self.unparsed(child)
            if child.is_named and (skip is None or child != skip):
                got += self.statements(child, upstream, redirects)
        return got

    def pipeline(self, node: Any, upstream: tuple[Command, ...],
                 redirects: tuple[Redirect, ...]) -> list[Command]:
        self.out.pipeline_id += 1
        got: list[Command] = []
        feed = upstream
        for child in node.named_children:
            made = self.statements(child, feed, redirects)
            got += made
            feed = feed + tuple(made)
        return got

    def redirected(self, node: Any, upstream: tuple[Command, ...],
                   redirects: tuple[Redirect, ...]) -> list[Command]:
        own: list[Redirect] = []
        rest: list[Any] = []
        for child in node.children_by_field_name("redirect"):
            r, tail = self.redirect(child)
            own += r
            rest += tail
        body = node.child_by_field_name("body")
        got = (self.statements(body, upstream, redirects + tuple(own)) if body else
               self.run((), upstream, redirects + tuple(own)) if own else [])  # `> /etc/hosts`
        for tail in rest:  # `cat <<EOF | sh`: the rest of the line after the here-document
            is_pipe = bool(tail.children) and tail.children[0].type in ("|", "|&")
            got += self.statements(tail, tuple(got) if is_pipe else (), ())
        return got

    def redirect(self, node: Any) -> tuple[list[Redirect], list[Any]]:
        fd: int | None = None
        op = ""
        targets: list[Word] = []
        data: Word | None = None
        tails: list[Any] = []
        for child in node.children:
            if child.type == "file_descriptor":
                fd = int(_text(child)) if _text(child).isdigit() else None
            elif not child.is_named:
                op += child.type
            elif child.type == "heredoc_body":
                data = self.heredoc(child)
            elif child.type in ("heredoc_start", "heredoc_end"):
                continue
            elif child.type in ("pipeline", "list", "command", "redirected_statement"):
                tails.append(child)
            elif child.is_error:
                self.unparsed(child)
            else:
                words = self.words(child)
                if node.type == "herestring_redirect":
                    data = _join(words, _text(child))
                else:
                    targets += words
        if node.type in ("heredoc_redirect", "herestring_redirect"):
            return [Redirect(op or "<<", fd, None, data or literal(""))], tails
        return [Redirect(op, fd, t) for t in targets] or [Redirect(op, fd, None)], tails

    def heredoc(self, node: Any) -> Word:
        for child in node.named_children:
            if child.type in ("command_substitution", "expansion", "simple_expansion"):
                self.words(child)
        segs = [Segment(_text(node), quoted=True)]
        if any(c.type != "heredoc_content" for c in node.named_children):
            segs.append(Segment("", known=False))  # expansions in the body: not all known
        return build(segs, _text(node), split=False)[0]

    # --- simple commands ------------------------------------------------------------------

    def command(self, node: Any, upstream: tuple[Command, ...],
                redirects: tuple[Redirect, ...]) -> list[Command]:
        plain = _plain_argv(node)
        if plain is not None:  # the common case: plain words only, no redirections
            return self.run(plain, upstream, redirects)
        env = self.env
        argv: list[Word] = []
        own: list[Redirect] = []
        named = False
        for index, child in enumerate(node.children):
            if not child.is_named:
                continue
            field = node.field_name_for_child(index)
            if child.type == "variable_assignment" and not named:
                env = dict(env) if env is self.env else env
                self.assign(child, env)
            elif child.type in ("file_redirect", "herestring_redirect", "heredoc_redirect"):
                r, tails = self.redirect(child)
                own += r
                for tail in tails:
                    self.statements(tail)
            elif child.type == "command_name" or field == "argument" or named:
                named = True
                argv += self.words(child)
            elif child.is_error:
                self.unparsed(child)
            else:
                argv += self.words(child)
        if not argv:
            return []
        return self.run(tuple(argv), upstream, redirects + tuple(own))

    def run(self, argv: tuple[Word, ...], upstream: tuple[Command, ...],
            redirects: tuple[Redirect, ...], label: str = "") -> list[Command]:
        where = self.where + ((label,) if label else ())
        peeled = peel(argv, upstream)
        cmd = Command(peeled.argv, peeled.wrappers, redirects, upstream, where, self.cwd,
                      self.out.pipeline_id, self.out.position(), peeled.privileged)
        self.out.commands.append(cmd)
        first = peeled.argv[0] if peeled.argv else None
        if first is not None and not first.known and not (
                self.defining and _ARGUMENT.match(first.raw)):
            self.out.problem("dynamic-command", f"runs a command whose name is not known "
                             f"({first.shown})", where, first.sources)
        name = cmd.name
        if name not in _SPECIAL and name not in self.functions:
            return [cmd]  # nothing inside it to read, and it runs no function
        for code_label, code, positional in peeled.codes:
            self.code(code, where, code_label, positional)
        for kind, alert_label in peeled.alerts:
            text = {"reverse-shell": "connects a socket to a shell",
                    "socket": "opens a network socket",
                    "fork-bomb": "fork bomb (a loop of forks)"}[kind]
            self.out.problem(kind, text, (*where, alert_label))  # type: ignore[arg-type]
        for sub_label, sub_argv in peeled.subcommands:
            if sub_argv:
                self.run(sub_argv, (), (), sub_label)
        if stdin_code(cmd):
            self.stdin(cmd, where)
        if name in SHELLS or name in ("source", "."):
            for a in cmd.args:  # bash <(echo 'rm -rf /'), source <(printf …)
                if a.raw in self.out.fed:
                    self.nested(self.out.fed[a.raw], (*where, f"<(…) to {name}"))
        if name == "cd" and not cmd.wrappers:
            self.cd(cmd.args)
        elif name in self.functions and self.out.calls < MAX_CALLS:
            self.call(name, cmd.args)
        return [cmd]

    def stdin(self, cmd: Command, where: tuple[str, ...]) -> None:
        """Code fed to a shell or interpreter on its input: here-documents, here-strings,
        ``echo 'X' | sh``."""
        feeds = [(f"here-document to {cmd.name}", data) for data in cmd.stdin_data]
        last = cmd.upstream[-1] if cmd.upstream else None
        if last is not None and last.name == "cat" and not last.args and last.stdin_data:
            feeds += [(f"here-document | {cmd.name}", d) for d in last.stdin_data]
        if cmd.upstream and not feeds:
            echoed = _echoed(cmd.upstream[-1:])
            if echoed is not None and len(cmd.upstream) == 1:
                feeds.append((f"{cmd.upstream[0].name} | {cmd.name}", literal(echoed)))
        for label, data in feeds:
            if cmd.name in LANGUAGES and data.known:
                for text in shell_strings(cmd.name, data.text):
                    self.nested(text, (*where, label))
                for kind in alerts(cmd.name, data.text):
                    self.out.problem(kind, "connects a socket to a shell" if kind ==  # type: ignore[arg-type]
                                     "reverse-shell" else kind, (*where, label))
            elif cmd.name in LANGUAGES:
                self.code(data, where, label)
            else:
                self.code(data, where, label)

    def unparsed(self, node: Any) -> None:
        """Report text the grammar could not parse, then read it the plain way: split into
        words (``shlex``, the standard library's POSIX splitter) at ; | & and run each
        piece as a command. This is the one place a hand reading stands in for the grammar:
        ``{rm,-rf,/}`` is an ERROR node to tree-sitter, and ``rm -rf /`` to bash."""
        if not self.out.unparsed(node, self.where):
            return
        for line in _text(node).splitlines():
            for words in _plain_commands(line):
                argv = [w for t in words for w in build(_unquoted(t), t)]
                if argv:
                    self.run(tuple(argv), (), (), "unparsed text")

    def code(self, code: Word, where: tuple[str, ...], label: str,
             positional: Sequence[Word] = ()) -> None:
        if not code.known:
            if not (self.defining and _ARGUMENT.match(code.raw)):
                self.out.problem("dynamic-code", f"runs code it cannot read ({code.shown})",
                                 (*where, label), code.sources)
            return
        zero = None
        if label.endswith(" -c") and positional:  # sh -c CODE $0 $1…
            zero, positional = positional[0], positional[1:]
        self.nested(code.text, (*where, label), positional, zero)

    def nested(self, text: str, where: tuple[str, ...], positional: Sequence[Word] = (),
               zero: Word | None = None) -> None:
        if self.depth + 1 > MAX_DEPTH:
            self.out.problem("too-deep", f"code nested more than {MAX_DEPTH} levels deep",
                             where)
            return
        env = dict(self.env)
        if zero is not None:
            env["0"] = zero
        inner = _Walk(self.depth + 1, where, self.out, env, positional, self.cwd,
                      self.functions, self.defining)
        inner.statements(parse_tree(text).root_node)

    def cd(self, args: tuple[Word, ...]) -> None:
        operands = [a for a in args if not a.text.startswith("-") or a.text == "-"]
        if not operands:
            self.cwd = "~"
            return
        target = operands[0]
        if not target.known or target.text == "-" or self.cwd is None:
            self.cwd = None
        elif target.text.startswith(("/", "~")):
            self.cwd = posixpath.normpath(target.text)
        else:
            self.cwd = posixpath.normpath(posixpath.join(self.cwd, target.text))

    # --- functions and loops ----------------------------------------------------------------

    def function(self, node: Any) -> None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is None or body is None:
            return
        name = _text(name_node)
        self.functions[name] = body
        before = len(self.out.commands)
        inner = _Walk(self.depth + 1, (*self.where, f"function {name}"), self.out,
                      dict(self.env), (), self.cwd, self.functions, defining=True)
        if self.depth + 1 <= MAX_DEPTH:
            self.out.active.add(name)
            inner.statements(body)
            self.out.active.discard(name)
        calls = [c for c in self.out.commands[before:] if c.name == name.lower()]
        if len(calls) >= 2 or any(c.piped or self.out.downstream_of(c) for c in calls):
            self.out.problem("fork-bomb", f"fork bomb (function {name} runs itself "
                             f"{len(calls)} times)", self.where)

    def call(self, name: str, args: Sequence[Word]) -> None:
        if name in self.out.active or self.depth + 1 > MAX_DEPTH:
            return
        self.out.calls += 1
        self.out.active.add(name)
        inner = _Walk(self.depth + 1, (*self.where, name), self.out, dict(self.env), args,
                      self.cwd, self.functions)
        inner.statements(self.functions[name])
        self.out.active.discard(name)

    def for_loop(self, node: Any, upstream: tuple[Command, ...],
                 redirects: tuple[Redirect, ...]) -> list[Command]:
        var = node.child_by_field_name("variable")
        values: list[Word] = []
        for child in node.children_by_field_name("value"):
            values += self.words(child)
        body = node.child_by_field_name("body")
        if body is None:
            return []
        got: list[Command] = []
        name = _text(var) if var is not None else ""
        choices = values[:3] if values and len(values) <= 3 else [_unknown_of(values)]
        for value in choices:
            self.env[name] = value
            got += self.statements(body, upstream, redirects)
        return got

    # --- assignments --------------------------------------------------------------------------

    def assign(self, node: Any, env: dict[str, Word]) -> None:
        name_node = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name_node is None:
            return
        name = _text(name_node).split("[", 1)[0]
        if value is None:
            env[name] = literal("")
            return
        if value.type == "array":
            words = [w for c in value.named_children for w in self.words(c)]
            env[name] = _join(words, _text(value))
            env[name + "[]"] = Word(_ELEMENTS.join(w.text for w in words), _text(value),
                                    False, env[name].tame, env[name].sources)
            return
        words = self.words(value, split=False)
        env[name] = words[0] if words else literal("")
        if _text(node).startswith(name + "+="):
            env[name] = _unknown_of([env[name]])

    def declare(self, node: Any) -> None:
        for child in node.named_children:
            if child.type == "variable_assignment":
                self.assign(child, self.env)
            elif child.type == "variable_name":
                self.env.setdefault(_text(child), literal(""))
            else:
                self.words(child)

    # --- words ---------------------------------------------------------------------------

    def words(self, node: Any, split: bool = True) -> list[Word]:
        if node.type == "command_name" and node.child_count == 1:
            node = node.children[0]
        if node.type == "word":
            text = _text(node)
            if _PLAIN.fullmatch(text):  # the common case: nothing to expand, quote or split
                return [Word(text, text, _GLOB.search(text) is not None)]
        sources: list[str] = []
        segs = self.segments(node, False, sources)
        ifs = self.env.get("IFS")
        return build(segs, _text(node), sources, split=split,
                     ifs=ifs.text if ifs is not None and ifs.known else IFS)

    def segments(self, node: Any, quoted: bool, sources: list[str]) -> list[Segment]:
        kind = node.type
        if kind in ("word", "number", "special_variable_name"):
            return _unquoted(_text(node)) if not quoted else [Segment(_text(node), True)]
        if kind == "raw_string":
            return [Segment(_text(node)[1:-1], True)]
        if kind == "ansi_c_string":
            return [Segment(ansi_c(_text(node)[2:-1]), True)]
        if kind in ("string", "translated_string"):
            out: list[Segment] = []
            for child in node.children:
                if child.type == "string_content":
                    out.append(Segment(unescape_double(_text(child)), True))
                elif child.is_named:
                    out += self.segments(child, True, sources)
            return out or [Segment("", True)]
        if kind == "concatenation" or kind == "command_name":
            return [s for c in node.children for s in self.segments(c, quoted, sources)]
        if kind == "simple_expansion":
            return self.variable(_text(node)[1:], quoted)
        if kind == "expansion":
            return self.expansion(node, quoted)
        if kind in ("command_substitution", "process_substitution"):
            return self.substitution(node, quoted, sources)
        if kind == "arithmetic_expansion":
            self.sequence(node, (), ())
            return [Segment("", quoted, known=False, tame=True)]
        if node.is_error:
            self.unparsed(node)
        if not node.is_named:
            return [Segment(_text(node), quoted)] if kind not in ('"', "'") else []
        return _unquoted(_text(node)) if not quoted else [Segment(_text(node), True)]

    def variable(self, name: str, quoted: bool) -> list[Segment]:
        if name == "0" and "0" in self.env:
            return _value(self.env["0"], quoted)
        if name.isdigit():
            i = int(name)
            if 1 <= i <= len(self.positional):
                return _value(self.positional[i - 1], quoted)
            return [Segment("", quoted, known=False)]
        if name in ("@", "*") and self.positional:
            return _value(_join(list(self.positional), "$@"), quoted)
        if name in self.env:
            return _value(self.env[name], quoted)
        if name == "IFS":
            return [Segment(IFS, quoted)]
        if name == "HOME":
            return [Segment("~", quoted)]
        if name == "PWD":
            return [Segment(self.cwd or UNKNOWN, quoted, known=self.cwd is not None)]
        return [Segment("", quoted, known=False)]

    def expansion(self, node: Any, quoted: bool) -> list[Segment]:
        inner = [c for c in node.children if c.type not in ("${", "}")]
        if len(inner) == 1 and inner[0].type in ("variable_name", "special_variable_name"):
            return self.variable(_text(inner[0]), quoted)
        if (len(inner) >= 2 and inner[0].type == "variable_name"
                and inner[1].type in (":-", "-", ":=", "=")):
            # ${a:-default}: the value when the script set one, else the default (what runs
            # unless the environment says otherwise).
            name = _text(inner[0])
            if name in self.env and (self.env[name].text or inner[1].type in ("-", "=")):
                return _value(self.env[name], quoted)
            sources: list[str] = []
            return [s for c in inner[2:] for s in self.segments(c, quoted, sources)]
        if len(inner) == 1 and inner[0].type == "subscript":
            return self.element(inner[0], quoted)
        for child in node.named_children:  # ${x/$(cmd)/y}: still walk what runs
            if child.type in ("command_substitution", "process_substitution"):
                self.substitution(child, quoted, [])
        return [Segment("", quoted, known=False)]

    def element(self, node: Any, quoted: bool) -> list[Segment]:
        """``${a[@]}``, ``"${a[@]}"`` (one word per element), ``${a[1]}`` of an array the
        script set."""
        name, index = node.child_by_field_name("name"), node.child_by_field_name("index")
        array = self.env.get(_text(name) + "[]") if name is not None else None
        if array is None or index is None:
            return [Segment("", quoted, known=False)]
        elements = array.text.split(_ELEMENTS)
        at = _text(index)
        if at in ("@", "*"):  # word-split, which keeps plain elements apart
            return _value(Word(" ".join(elements), array.raw, False, array.tame), False)
        if at.isdigit() and int(at) < len(elements):
            return _value(Word(elements[int(at)], array.raw, False, array.tame), quoted)
        return [Segment("", quoted, known=False)]

    def substitution(self, node: Any, quoted: bool, sources: list[str]) -> list[Segment]:
        before = len(self.out.commands)
        label = "$(…)" if node.type == "command_substitution" else "<(…)"
        if node.type == "command_substitution" and _text(node).startswith("`"):
            label = "`…`"
        inner = _Walk(self.depth + 1, (*self.where, label), self.out, dict(self.env),
                      self.positional, self.cwd, self.functions, self.defining)
        ran: list[Command] = []
        for child in node.named_children:
            ran += inner.statements(child)
        made = self.out.commands[before:]
        sources += [c.name for c in made if c.name]
        echoed = _echoed(ran)
        if node.type == "process_substitution":
            if echoed is not None and len(made) == 1:
                self.out.fed[_text(node)] = echoed
            return [Segment("/dev/fd/", quoted), Segment("", quoted, known=False, tame=True)]
        if echoed is not None and len(made) == 1:
            return [Segment(echoed, quoted)]
        if len(made) == 1 and len(ran) == 1 and ran[0].name == "pwd" and self.cwd is not None:
            return [Segment(self.cwd, quoted)]
        return [Segment("", quoted, known=False, tame=bool(made) and made[0].name == "mktemp")]


class _Out:
    def __init__(self, max_commands: int = MAX_COMMANDS) -> None:
        self.max_commands = max_commands
        self.commands: list[Command] = []
        self.problems: list[Problem] = []
        self.pipeline_id = 0
        self.fed: dict[str, str] = {}  # what a plain <(echo …) gives, by its text
        self.calls = 0
        self.active: set[str] = set()
        self._position = 0
        self._unparsed: set[tuple[int, int]] = set()

    def position(self) -> int:
        self._position += 1
        if self._position > self.max_commands:
            raise _TooMany
        return self._position

    def problem(self, kind: ProblemKind, text: str, where: tuple[str, ...],
                sources: Sequence[str] = ()) -> None:
        self.problems.append(Problem(kind, text, where, tuple(sources)))

    def unparsed(self, node: Any, where: tuple[str, ...]) -> bool:
        key = (node.start_byte, node.end_byte)
        if key in self._unparsed:
            return False
        self._unparsed.add(key)
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


def _unquoted(text: str) -> list[Segment]:
    """An unquoted word: escaped characters become quoted ones (``c\\ d`` is one word)."""
    if "\\" not in text:
        return [Segment(text)]
    out: list[Segment] = []
    i = 0
    while i < len(text):
        j = text.find("\\", i)
        if j < 0:
            out.append(Segment(text[i:]))
            break
        if j > i:
            out.append(Segment(text[i:j]))
        if j + 1 < len(text) and text[j + 1] != "\n":
            out.append(Segment(text[j + 1], True))
        i = j + 2
    return out


# Commands whose run() has more to do than record them: the names peel() looks into and
# the ones that read their input as code or change the walk's state.
_SPECIAL = PEELED | SHELLS | frozenset(LANGUAGES) | {"source", ".", "at", "batch", "cd", ""}


def _plain_argv(node: Any) -> tuple[Word, ...] | None:
    """The words of a command made only of plain words (no quotes, expansions, escapes,
    assignments or redirections), or None."""
    text = _text(node)
    if not _PLAIN_COMMAND.fullmatch(text) or "=" in text.split(None, 1)[0]:
        return None
    return tuple(Word(t, t, _GLOB.search(t) is not None) for t in text.split())


_ENDLESS = {"while_statement": ("true", ":", "[ 1 ]", "((1))", "/bin/true"),
            "until_statement": ("false", "/bin/false", "! :", "! true")}


def _spawns_forever(node: Any) -> bool:
    """``while true; do bash & done``: an endless loop that starts a background job on
    each turn and has no way out (no break, exit, return or wait)."""
    condition, body = node.child_by_field_name("condition"), node.child_by_field_name("body")
    if condition is None or body is None:
        return False
    if _text(condition).strip().rstrip(";").strip() not in _ENDLESS[node.type]:
        return False
    if re.search(r"\b(break|exit|return|wait)\b", _text(body)):
        return False
    return any(c.type == "&" for c in body.children)


_ELEMENTS = "\x01"  # between the elements of an array (env[NAME + '[]'])


def _value(word: Word, quoted: bool) -> list[Segment]:
    if word.known:
        return [Segment(word.text, quoted, expanded=True)]
    parts = word.text.split(UNKNOWN)
    out: list[Segment] = []
    for i, part in enumerate(parts):
        if part:
            out.append(Segment(part, quoted, expanded=True))
        if i < len(parts) - 1:
            out.append(Segment("", quoted, known=False, tame=word.tame))
    return out


def _join(words: Sequence[Word], raw: str) -> Word:
    text = " ".join(w.text for w in words)
    return Word(text, raw, False, all(w.tame for w in words),
                tuple(s for w in words for s in w.sources))


def _unknown_of(values: Sequence[Word]) -> Word:
    """One word standing for several: their common directory, then something unknown."""
    texts = [v.text.split(UNKNOWN, 1)[0] for v in values]
    prefix = posixpath.commonpath(texts) if texts and all(texts) and len(
        {t.startswith("/") for t in texts}) == 1 else ""
    prefix = prefix + "/" if prefix and not prefix.endswith("/") else prefix
    return Word(prefix + UNKNOWN, " ".join(v.raw for v in values), tame=bool(prefix))


def _echoed(ran: Sequence[Command]) -> str | None:
    """``$(echo rm)``, ``$(printf rm)``: a substitution whose output is plain to read."""
    if len(ran) != 1 or ran[0].name not in ("echo", "printf") or ran[0].redirects:
        return None
    args = [a for a in ran[0].args]
    if not all(a.known for a in args) or (args and args[0].text.startswith("-")):
        return None
    if ran[0].name == "printf":
        if not args or "%" in args[0].text or "\\" in args[0].text:
            return None
    return " ".join(a.text for a in args)


def analyse(text: str, *, workspace: str = ".", max_length: int = 1 << 16,
            max_commands: int = MAX_COMMANDS) -> Script:
    """The commands of ``text`` at every depth, and what could not be analysed.

    A text longer than ``max_length`` characters is not read at all, and the walk stops
    after ``max_commands`` commands: either is a ``too-long`` problem (which the shield
    blocks), so that every input is decided in bounded time."""
    out = _Out(max_commands)
    if len(text) > max_length:
        out.problem("too-long", f"command is {len(text)} characters, more than the "
                    f"{max_length} analysed", ())
        return Script(text, (), tuple(out.problems), workspace)
    walk = _Walk(0, (), out, {}, (), ".", {})
    tree = parse_tree(text)
    try:
        walk.statements(tree.root_node)
    except _TooMany:
        out.problem("too-long", f"more than {max_commands} commands to read (function "
                    "calls included)", ())
        return Script(text, tuple(out.commands), tuple(out.problems), workspace)
    if tree.root_node.has_error:
        for node in _errors(tree.root_node):
            walk.unparsed(node)
    return Script(text, tuple(out.commands), tuple(out.problems), workspace)


def _errors(node: Any) -> Iterator[Any]:
    cursor = [node]
    while cursor:
        n = cursor.pop()
        if n.is_error or n.is_missing:
            yield n
            continue
        if n.has_error:
            cursor.extend(n.children)
