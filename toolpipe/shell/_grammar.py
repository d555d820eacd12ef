"""From shell text to :class:`Command` facts, on the tree-sitter-bash grammar.

The walk follows the script in text order and keeps what a reader can know without running
anything: variables assigned literal values (``a=rm; $a -rf /``), functions and their calls
with literal arguments, the directory after ``cd``, what each pipeline feeds into what.
Every code string it can see (``bash -c``, ``eval``, ``$(…)``, here-documents fed to a shell,
function bodies, ``find -exec``…) is walked too, with a note of where it was found. Text the
grammar could not parse becomes a ``Problem``: analysed as far as it parsed, never ignored.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from toolpipe.shell._abbreviations import unabbreviated
from toolpipe.shell._carried import RESERVED, _Carriers, unreserved
from toolpipe.shell._effects import stdin_code
from toolpipe.shell._expand import _unquoted, backquoted
from toolpipe.shell._folders import MOVERS, moved_to
from toolpipe.shell._hooks import assigned, hooked
from toolpipe.shell._model import Command, Redirect, Script
from toolpipe.shell._oneliners import ALERT_TEXTS, LANGUAGES
from toolpipe.shell._option_env import with_env_options
from toolpipe.shell._parameters import moved_parameters
from toolpipe.shell._parse import (
    _QUIET,
    MAX_COMMANDS,
    MAX_DEPTH,
    _errors,
    _Out,
    _plain_argv,
    _plain_commands,
    _spawns_forever,
    _spawns_many,
    _text,
    _TooMany,
    parse_tree,
)
from toolpipe.shell._words import Word, build, literal
from toolpipe.shell._wrappers import PEELED, SHELLS, peel

_ARGUMENT = re.compile(r'^"?\$\{?[@*0-9]')  # "$@", $1, ${2}: a function's arguments

# Commands whose run() has more to do than record them: the names peel() looks into and
# the ones that read their input as code or change the walk's state.
_BUILTINS = frozenset({"builtin", "command"})  # wrappers that run a builtin in this shell
_SPECIAL = PEELED | SHELLS | frozenset(LANGUAGES) | MOVERS | {"source", ".", "at", "batch",
                                                              "", "make", "gmake"}
_ASSIGNED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:%%)?")
_SUBSTITUTED = re.compile(r"`((?:[^`\\]|\\.)*)`|\$\(([^()]*)\)")  # in text not parsed


class _Walk(_Carriers):
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

    def statements(self, node: Any, upstream: tuple[Command, ...] = (),
                   redirects: tuple[Redirect, ...] = ()) -> list[Command]:
        """Walk a statement; returns the commands it runs at its own level (for pipes)."""
        kind = node.type
        if node.is_error or node.is_missing:
            self.unparsed(node)
        endless = _spawns_forever(node) if kind in ("while_statement", "until_statement") \
            else _spawns_many(node) if kind in ("for_statement", "c_style_for_statement") else ""
        if endless:
            self.out.problem(*(("fork-bomb", "fork bomb (a loop of background jobs, endless "
                                             "or of a thousand turns and more)")
                               if endless == "spawns" else ("exhausts", "an endless loop that "
                                                            "never pauses")), self.where)
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
            argv = tuple(literal(_text(c)) for c in node.children)
            if not any(c.type in ("variable_assignment", "variable_name") for c in (
                    node.named_children)) or {"-p", "-f"} & {a.text for a in argv}:
                return self.run(argv, upstream, redirects)  # (`declare -p x`: it prints)
            return []
        if kind == "unset_command":
            for child in node.named_children:
                self.env.pop(_text(child), None)
                self.carrying_variable(_text(child), literal(""))
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
                 redirects: tuple[Redirect, ...], last: tuple[Redirect, ...] = ()
                 ) -> list[Command]:
        """``last``: redirections of the pipeline's last command only (see ``redirected``)."""
        self.out.pipeline_id += 1
        got: list[Command] = []
        feed = upstream
        children = node.named_children
        for i, child in enumerate(children):
            made = (self.on_last(child, feed, redirects, last) if i == len(children) - 1
                    else self.statements(child, feed, redirects))
            got += made
            feed = feed + tuple(made)
        return got

    def on_last(self, node: Any, upstream: tuple[Command, ...],
                redirects: tuple[Redirect, ...], last: tuple[Redirect, ...]) -> list[Command]:
        """Walk ``node`` with ``last`` applied to its last simple command: tree-sitter-bash
        hangs a trailing redirection on a whole ``a && b > f`` or ``a | b > f``, where bash
        gives it to ``b`` alone."""
        if not last:
            return self.statements(node, upstream, redirects)
        if node.type == "pipeline":
            return self.pipeline(node, upstream, redirects, last)
        if node.type == "list":
            children = node.named_children
            got: list[Command] = []
            for child in children[:-1]:
                got += self.statements(child, upstream, redirects)
            return got + self.on_last(children[-1], upstream, redirects, last)
        return self.statements(node, upstream, redirects + last)

    def redirected(self, node: Any, upstream: tuple[Command, ...],
                   redirects: tuple[Redirect, ...]) -> list[Command]:
        own: list[Redirect] = []
        rest: list[Any] = []
        for child in node.children_by_field_name("redirect"):
            r, tail = self.redirect(child)
            own += r
            rest += tail
        body = node.child_by_field_name("body")
        got = (self.on_last(body, upstream, redirects, tuple(own)) if body else
               self.run((), upstream, redirects + tuple(own)) if own else [])  # `> /etc/hosts`
        for tail in rest:  # `cat <<EOF | sh`: the rest of the line after the here-document
            is_pipe = bool(tail.children) and tail.children[0].type in ("|", "|&")
            got += self.statements(tail, tuple(got) if is_pipe else (), ())
        return got

    def command(self, node: Any, upstream: tuple[Command, ...],
                redirects: tuple[Redirect, ...]) -> list[Command]:
        plain = _plain_argv(node)
        if plain is not None:  # the common case: plain words only, no redirections
            return self.run(with_env_options(plain, self.env), upstream, redirects)
        env = self.env
        argv: list[Word] = []
        own: list[Redirect] = []
        named = False
        end = -1
        for index, child in enumerate(node.children):
            if child.start_byte == end and child.type != "heredoc_body":
                # two words with nothing between them are one to bash: tree-sitter split
                # `rm$IFS-rf$IFS/etc` after a lone `$`; what it misread is asked about
                self.unparsed(node)
            end = child.end_byte
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
            elif child.type in ("subshell", "compound_statement"):  # `time ( a | b )`
                self.statements(child, upstream, redirects)
            elif child.type == "command_name" or field == "argument" or named:
                named = True
                argv += self.words(child)
            elif child.is_error:
                self.unparsed(child)
            else:
                argv += self.words(child)
        argv = list(with_env_options(tuple(argv), env))  # (`TAR_OPTIONS=… tar …`: its own)
        return self.run(tuple(argv), upstream, redirects + tuple(own)) if argv else []

    def run(self, argv: tuple[Word, ...], upstream: tuple[Command, ...],
            redirects: tuple[Redirect, ...], label: str = "") -> list[Command]:
        argv, reserved = unreserved(argv)  # `time { a; }` read as a command `{ a`
        where = self.where + ((label,) if label else ()) + (
            (f"after '{reserved}'",) if reserved else ())
        if self.out.aliases:
            argv = self.aliased(argv)
        peeled = peel(argv, upstream)
        if peeled.wrappers and peeled.argv and peeled.argv[0].text in RESERVED:
            inner, _ = unreserved(peeled.argv)  # `time -p { … }`: after the wrapper
            again = peel(inner, upstream)
            peeled = again._replace(wrappers=peeled.wrappers + again.wrappers,
                                    privileged=peeled.privileged or again.privileged,
                                    codes=peeled.codes + again.codes)
        if peeled.wrappers and len(peeled.argv) < len(argv):
            # `env A=… cmd`, `sudo A=… cmd`: what a wrapper sets, the command runs with
            for w in argv[:len(argv) - len(peeled.argv)]:
                name, eq, value = w.text.partition("=")
                if eq and _ASSIGNED.fullmatch(name):
                    self.carrying_variable(name, Word(value, value, w.glob, w.tame,
                                                      w.sources))
        cwd = self.cwd if peeled.chdir is None else moved_to("cd", (peeled.chdir,), self.cwd)
        cmd = Command(unabbreviated(peeled.argv), peeled.wrappers, redirects, upstream, where, cwd,
                      self.out.pipeline_id, self.out.position(), peeled.privileged)
        self.out.commands.append(cmd)
        first = peeled.argv[0] if peeled.argv else None
        if first is not None and not first.known and self.defining and _ARGUMENT.match(
                first.raw):
            self.out.runs_arguments.update(self.out.defining)
        elif first is not None and not first.known:
            self.out.problem("dynamic-command", f"runs a command whose name is not known "
                             f"({first.shown})", where, first.sources)
        elif first is not None and first.glob and first.text not in ("[", "[[", "]]"):
            self.out.problem("dynamic-command", f"runs a command whose name is a pattern "
                             f"({first.shown}): which program it matches is not known", where)
        name = cmd.name
        if name in ("alias", "hash"):
            self.remember(cmd)
        elif name in ("printf", "read", "readarray", "mapfile"):  # printf -v d '%s' build,
            # read -r d <<< build, readarray -t a < <(ls -d build/*)
            self.env.update(assigned(cmd, self.out.listed, self.out.fed))
        elif name in ("git", "npm", "pnpm", "yarn", "pip", "pip3", "go", "conda", "composer",
                      "enable"):
            self.tool_facts(cmd, where)
        elif name in ("set", "shift", "getopts") and not cmd.wrappers:  # "$@", $OPTARG
            self.positional = moved_parameters(cmd, self.positional, self.env)
        self.carried(cmd, upstream, redirects, where, bool(peeled.codes or peeled.subcommands))
        if name not in _SPECIAL and name not in self.functions and not (
                peeled.codes or peeled.alerts or peeled.subcommands):
            return [cmd]  # nothing inside it to read, and it runs no function
        outer_cwd, self.cwd = self.cwd, cmd.cwd  # (what it runs, from its wrapper's folder)
        for code_label, code, positional in peeled.codes:
            self.code(code, where, code_label, positional)
        for kind, alert_label in peeled.alerts:
            text = ALERT_TEXTS[kind]
            self.out.problem(kind, text, (*where, alert_label))  # type: ignore[arg-type]
        if peeled.sub_chdir is not None:  # (`find ~ -execdir CMD`: from its entries' folders)
            self.cwd = moved_to("cd", (peeled.sub_chdir,), cmd.cwd)
        for sub_label, sub_argv in peeled.subcommands:
            if sub_argv:
                self.run(sub_argv, (), (), sub_label)
        if stdin_code(cmd):
            self.stdin(cmd, where)
        if name in SHELLS or name in ("source", "."):
            for a in cmd.args:  # bash <(echo 'rm -rf /'), source <(printf …)
                if a.raw in self.out.fed:
                    self.nested(self.out.fed[a.raw], (*where, f"<(…) to {name}"))
                elif a.raw.startswith("<(") and not hooked(a.raw):
                    # what another command prints, run as code: unknown, so asked about
                    # (a shell's start-up hook, `source <(kubectl completion bash)`, is not)
                    self.out.problem("dynamic-code", f"runs code it cannot read ({a.raw})",
                                     (*where, f"<(…) to {name}"), a.sources)
        if name in SHELLS or name in LANGUAGES:
            self.fed_stdin(cmd, where)
        self.cwd = outer_cwd
        if name in MOVERS and set(cmd.wrappers) <= _BUILTINS:  # (`builtin cd ~` moves too)
            self.cwd = moved_to(name, cmd.args, self.cwd, self.env)
        elif name in self.functions:
            self.call(name, cmd.args)
        return [cmd]

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
        for m in _SUBSTITUTED.finditer(_text(node)):  # and what it substitutes runs too
            body = m.group(2) if m.group(1) is None else backquoted(
                m.group(1))  # (`v=`{rm,-rf,/}``)
            self.nested(body, (*self.where, "unparsed text"))

    def code(self, code: Word, where: tuple[str, ...], label: str,
             positional: Sequence[Word] = ()) -> None:
        if not code.known:
            if hooked(code.raw):
                return  # eval "$(direnv hook bash)": a start-up hook, as its program gives it
            if self.defining and _ARGUMENT.match(code.raw):
                self.out.runs_arguments.update(self.out.defining)
            else:
                self.out.problem("dynamic-code", f"runs code it cannot read ({code.shown})",
                                 (*where, label), code.sources)
            return
        if label == "trap on exit":  # `trap 'rm -rf "$tmp"' EXIT; tmp=$(mktemp -d)`
            return self.out.deferred.append((code.text, (*where, label)))
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

    def inner(self, where: tuple[str, ...], env: dict[str, Word],
              positional: Sequence[Word] | None = None, defining: bool | None = None
              ) -> _Walk:
        """A walk one level down (a substitution's code, a function's body), sharing the
        output; it keeps this walk's arguments and mode unless told otherwise."""
        return _Walk(self.depth + 1, where, self.out, env,
                     self.positional if positional is None else positional, self.cwd,
                     self.functions, self.defining if defining is None else defining)


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
        for text, where in out.deferred:  # (an EXIT trap's code: its variables at the end)
            walk.nested(text, where)
    except _TooMany:
        out.problem("too-long", f"more than {max_commands} commands to read (function "
                    "calls included)", ())
        return Script(text, tuple(out.commands), tuple(out.problems), workspace)
    if tree.root_node.has_error:
        for node in _errors(tree.root_node):
            walk.unparsed(node)
    for name, (commands, problems) in out.definitions.items():
        if name not in out.called or name in out.unread:  # never read with its arguments
            out.commands += commands
            out.problems += problems
    return Script(text, tuple(out.commands), tuple(out.problems), workspace)
