"""Code carried where a command does not say it runs code: in an option of a known program
(``tar --checkpoint-action=exec=…``, ``git -c core.sshCommand=…``: the table's ``[[code]]``
rows), in a variable a program runs (``GIT_SSH_COMMAND``, ``PAGER``), after a reserved word
tree-sitter read as a command name (``time { … }``, ``coproc``), behind an alias or a
``hash -p``, in the arguments of a program the wing does not know, and on a shell's or an
interpreter's input (here-documents, ``echo X | sh``, ``sh < <(…)``).

Loops too: a ``for`` over plain names of the workspace is read once, not once per name;
one with no ``in`` runs over the positional parameters (``set -- a b; for d; do``).

Fail closed: a program that is neither inert nor modelled is judged at least as strictly
as any command its arguments hold, as a command line (``acme-run rm -rf /``) or as a string
(``acme-run 'rm -rf /'``)."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import Any

from toolpipe.shell._code_rows import carried_code, input_code
from toolpipe.shell._effects import _HANDLERS, POWER, formats_a_volume
from toolpipe.shell._folders import code_folder, moved_to
from toolpipe.shell._functions import _matters
from toolpipe.shell._helpers import _COMMAND_INPUT, _PROGRAM_KEY, _Helpers, candidates
from toolpipe.shell._loaders import (
    SEARCH_OPTIONS,
    SETTINGS_OPTIONS,
    loaded_from,
    scratch,
    scratch_location,
    search_options,
    settings_files,
    settings_options,
)
from toolpipe.shell._loads import RUNS_PROJECTS
from toolpipe.shell._model import Command, Redirect
from toolpipe.shell._oneliners import ALERT_TEXTS, LANGUAGES, alerts, code_flag, shell_strings
from toolpipe.shell._option_env import stands_for
from toolpipe.shell._outputs import installer_words
from toolpipe.shell._parse import _text
from toolpipe.shell._places import classify
from toolpipe.shell._printed import _unknown_of, fed_input
from toolpipe.shell._table import (
    CODE,
    CODE_ENV,
    FILE_ENV,
    FOREIGN,
    INERT,
    IRREVERSIBLE,
    OUTPUTS,
)
from toolpipe.shell._told import (
    acts_off_the_machine,
    named_for_deleting,
    named_for_deleting_data,
    project_program,
    windows_code,
)
from toolpipe.shell._told import destroying as _destroying
from toolpipe.shell._told import told as _told
from toolpipe.shell._windows import as_shell
from toolpipe.shell._wipes import drops, wipes
from toolpipe.shell._words import Word, literal
from toolpipe.shell._wrappers import PEELED, PEELED_ONE_MODE, SHELLS

# Words tree-sitter-bash can leave in command position (`time { … }` becomes a command
# named `{`); what follows them is read again as the command it is.
RESERVED = frozenset({"{", "}", "(", ")", "coproc", "then", "do", "done", "fi", "else",
                      "elif", "esac", "in", "function", "select", "!", "until", "while",
                      "if"})
# Programs with a modelled effect: one of them among an unknown program's arguments is
# read as the command it would run.
RUNNABLE = (frozenset(_HANDLERS) | PEELED | SHELLS | frozenset(LANGUAGES) | frozenset(CODE)
            | frozenset(p for p, rows in OUTPUTS.items() if any(r.understood for r in rows))
            | frozenset(IRREVERSIBLE) | POWER | frozenset(FOREIGN))
KNOWN = INERT | RUNNABLE | RESERVED | {"time"}
# Programs whose every argument the wing reads: the rest (a program known only by a row of
# what cannot be undone, `op read …`) is still read as an unknown one for what it runs
# (`op run -- rm -rf /opt`).
UNDERSTOOD = KNOWN - (frozenset(IRREVERSIBLE) - frozenset(_HANDLERS) - PEELED - SHELLS
                      - frozenset(LANGUAGES) - frozenset(CODE) - POWER - INERT) - frozenset(
    name for name, row in CODE.items() if row.unknown) - PEELED_ONE_MODE
# Programs that run a command or shell code they are given (wrappers, shells, `script`,
# `su`): not the code table's rows (their grammars read clustered options) nor other
# languages' interpreters (a one-liner's strings are data unless a call runs them)
_CARRIERS = (PEELED | SHELLS) - frozenset(LANGUAGES) - INERT
_LANGUAGE_ENV = {"PERL5DB": "perl -e", "LUA_INIT": "lua -e", "VIMINIT": "", "EXINIT": "",
                 "GVIMINIT": ""}
_EX_BANG = re.compile(r"^[\s:|]*(?:sil(?:ent)?!?\s+)?!(.+)$", re.S)
_HISTORY = frozenset({"HISTFILE", "HISTSIZE", "HISTFILESIZE"})


def _module_program(name: str, args: tuple[Word, ...]) -> str | None:
    """The program a Python interpreter's ``-m MODULE`` runs as, when the wing models a
    program of that name (`python -m pip`, `python3 -m pytest`; not `-m http.server`)."""
    if not name.startswith(("python", "pypy")) or len(args) < 2 or args[0].text != "-m":
        return None
    module = args[1].text  # (known, and no language: `python -m perl` is none)
    known = args[1].known and (modelled(module) or module in RUNS_PROJECTS)
    return module if known and module not in LANGUAGES else None


def modelled(name: str) -> bool:
    """Does the wing know what this program does (``mkfs.xfs`` is one of ``mkfs``)?"""
    return name in RUNNABLE or formats_a_volume(name)


def unreserved(argv: tuple[Word, ...]) -> tuple[tuple[Word, ...], str]:
    """The command behind reserved words tree-sitter left in command position (``time {
    rm -rf /; }`` is read as a command ``{ rm -rf /``; ``coproc NAME { … }``), and the
    first such word ('' if none); a lone closing ``)`` or ``}`` at the end is dropped."""
    if len(argv) < 2 or (argv[0].text not in RESERVED and argv[-1].text not in (")", "}")):
        return argv, ""  # the common case
    first = ""
    rest = list(argv)
    while len(rest) > 1 and rest[0].known and rest[0].text in RESERVED:
        first = first or rest[0].text
        word = rest.pop(0).text
        if word == "coproc" and len(rest) >= 2 and rest[1].text in ("{", "("):
            rest = rest[2:]
    while len(rest) > 1 and rest[-1].text in (")", "}"):
        rest.pop()
    return tuple(rest), first


def _base(word: Word) -> str:
    return word.text.rpartition("/")[2].lower() if word.known else ""


class _Carriers(_Helpers):
    """The walk's readings of carried code (mixed into the walk of ``_grammar``)."""

    def run(self, argv: tuple[Word, ...], upstream: tuple[Command, ...],
            redirects: tuple[Redirect, ...], label: str = "") -> list[Command]:
        raise NotImplementedError  # the walk's

    def code(self, code: Word, where: tuple[str, ...], label: str,
             positional: Sequence[Word] = ()) -> None:
        raise NotImplementedError  # the walk's

    def fed_stdin(self, cmd: Command, where: tuple[str, ...]) -> None:
        """``bash < <(echo 'rm -rf /')``: code read from a process substitution; what it
        prints is read as code when plain, and is code it cannot read otherwise."""
        for r in cmd.redirects:
            if not r.reads or r.target is None or not r.target.raw.startswith("<("):
                continue
            label = (*where, f"< <(…) to {cmd.name}")
            text = self.out.fed.get(r.target.raw)
            if text is None:
                self.out.problem("dynamic-code", f"runs code it cannot read "
                                 f"({r.target.raw[:40]})", label, r.target.sources)
            elif cmd.name in LANGUAGES:
                for code in shell_strings(cmd.name, text):
                    self.nested(code, label)
            else:
                self.nested(text, label)

    def stdin(self, cmd: Command, where: tuple[str, ...]) -> None:
        """Code fed to a shell or interpreter on its input: here-documents, here-strings,
        ``echo 'X' | sh``."""
        for label, data in fed_input(cmd):
            if cmd.name in LANGUAGES and data.known:
                for text in shell_strings(cmd.name, data.text):
                    self.nested(text, (*where, label))
                for kind in alerts(cmd.name, data.text):
                    self.out.problem(kind, ALERT_TEXTS[kind],  # type: ignore[arg-type]
                                     (*where, label))
            else:
                self.code(data, where, label)

    def for_loop(self, node: Any, upstream: tuple[Command, ...],
                 redirects: tuple[Redirect, ...]) -> list[Command]:
        var = node.child_by_field_name("variable")
        # (`for d; do …`, with no `in`, runs over "$@")
        values = [] if any(c.type == "in" for c in node.children) else list(self.positional)
        for child in node.children_by_field_name("value"):
            values += self.words(child)
        body = node.child_by_field_name("body")
        if body is None:
            return []
        got: list[Command] = []
        name = _text(var) if var is not None else ""
        choices = values[:3] if values and len(values) <= 3 else [_unknown_of(values)]
        if len(choices) > 1 and all(_alike(v, self.cwd) for v in choices):
            choices = choices[:1]  # `for f in a.txt b.txt`: the body reads the same for each
        for value in choices:
            self.env[name] = value
            got += self.statements(body, upstream, redirects)
        return got

    def aliased(self, argv: tuple[Word, ...]) -> tuple[Word, ...]:
        """``ll /`` after ``alias ll='rm -rf'`` (or ``hash -p /bin/rm ll``)."""
        if argv and argv[0].known and argv[0].text in self.out.aliases:
            return (*self.out.aliases[argv[0].text], *argv[1:])
        return argv

    def remember(self, cmd: Command) -> None:
        """What ``alias`` and ``hash -p`` make a name run."""
        if cmd.name == "alias":
            for a in cmd.args:
                if "=" in a.text and a.known:
                    name, body = a.text.split("=", 1)
                    self.out.aliases[name] = tuple(literal(t) for t in body.split())
        elif cmd.name == "hash":
            texts = [a.text for a in cmd.args]
            if "-p" in texts:
                k = texts.index("-p")
                if k + 2 < len(texts):
                    self.out.aliases[texts[k + 2]] = (cmd.args[k + 1],)

    def carried(self, cmd: Command, upstream: tuple[Command, ...],
                redirects: tuple[Redirect, ...], where: tuple[str, ...],
                read_code: bool = False) -> None:
        """``read_code``: the wrapper's own reading found the code it runs."""
        name = cmd.name
        self.settings(cmd, where)
        if name in LANGUAGES and wipes(" ".join([a.text for a in cmd.args if a.known])) and (
                code_flag(name, cmd.args) is None):
            # `python manage.py shell -c "Order.objects.all().delete()"`: code handed to
            # the script, which runs it (code given to the interpreter is read as code)
            self.out.problem("destroys", f"{ALERT_TEXTS['destroys']} (handed to a {name} "
                             "script)", where)
        for settings in settings_options(cmd) if name in SETTINGS_OPTIONS else ():
            self.run((literal("source"), settings), (), (), f"{name}'s settings")
        if name == "git" and self.cwd not in (None, ".") and scratch(
                self.cwd, classify(literal(self.cwd), ".").kind):  # (a repository there:
            # its own config, `cd /tmp/x && git status`)
            self.run((literal("source"), literal(f"{self.cwd}/.git/config")), (), (),
                     "git's settings")
        for folder in search_options(cmd) if name in SEARCH_OPTIONS else ():
            if scratch(folder.text, classify(folder, self.cwd).kind):
                self.out.problem("dynamic-code", f"loads code from {folder.text}, a folder "
                                 f"anyone may write ({name}'s module search path)", where,
                                 folder.sources)
                break
        flags = FOREIGN.get(name)
        if flags is not None:
            # PowerShell, cmd, julia…: code of a language this wing does not read, unless
            # it is PowerShell that only reads and prints (Get-ChildItem ., Write-Output)
            texts = [a.text for a in cmd.args]
            at = [i for i, t in enumerate(texts[:-1]) if t.lower() in flags]
            # (PowerShell's and cmd's command is the rest of the line: `cmd /c rd /s /q
            # DIR`, `pwsh -c Remove-Item -Recurse DIR`)
            given = ([" ".join(texts[at[0] + 1:])] if at else []) if name in (
                "pwsh", "powershell", "cmd") else [texts[i + 1] for i in at]
            # (or fed on its input with no script named: `jshell <<< '…'`, `echo … | julia`)
            fed = bool(cmd.stdin_data or upstream) and not any(
                not t.startswith("-") for t in texts)
            shell = [as_shell(name, c) for c in given] if name in (
                "pwsh", "powershell", "cmd") else []
            read = bool(shell) and all(t is not None for t in shell)
            if "" in flags or fed or (any(t.lower() in flags or t.lower().split(":")[0] in flags
                                          for t in texts) and not read):
                self.out.problem("dynamic-code", f"runs {name} code it cannot read",
                                 where)
            elif read:  # judged as the shell's commands are (`Get-Content C:\Users\me\
                # .ssh\id_ed25519` is `cat ~/.ssh/id_ed25519`: shell/_windows.py)
                for t in shell:
                    self.nested(t or "", (*where, f"{name} code"))
            return
        found = False
        if name in CODE:
            runs_in = code_folder(name, cmd.args)
            outer = self.cwd
            if runs_in is not None:  # (`tmux new -c ~ 'CMD'`: the code runs from there)
                self.cwd = moved_to("cd", (runs_in,), cmd.cwd)
            for label, code in carried_code(name, [a.text for a in cmd.args]):
                self.helper(code, (*where, label), label)
                found = True
            # its input, as a shell's is read: `psql <<< '\\! rm -rf ~'`, `echo '!rm -rf
            # ~' | sftp -b - host`, `psql < <(echo …)` (a pipe from echo and a process
            # substitution went unread before the ninth sitting)
            inputs = fed_input(cmd) if cmd.redirects or cmd.upstream else []
            inputs += [("< <(…)", literal(self.out.fed[r.target.raw])) for r in cmd.redirects
                       if r.reads and r.target is not None and r.target.raw in self.out.fed]
            for _, data in inputs:
                if data.known:
                    for label, code in input_code(name, data.text):
                        self.nested(code, (*where, label))
            self.cwd = outer
        if name in _CARRIERS and not (read_code or found):
            # a program known to run code whose own reading found none (`script -qc 'rm
            # -rf ~'`: the options clustered; a form no row describes): every argument that
            # reads as a command is judged as one, as an unknown program's are
            for a in cmd.args:
                if a.known:
                    for text in candidates(a.text):
                        self.probe(text, (*where, f"argument of {name}"))
        run = project_program(name, cmd.args)
        if run is not None:  # `cargo run -- --wipe ~`: the project's own program, unknown
            target, start = run
            self.unknown_program(Command((literal(target), *cmd.args[start:]),
                                         cwd=cmd.cwd), (*where, f"run by {name}"))
        if (module := _module_program(name, cmd.args)) is not None:  # `python -m pip …`
            self.run(cmd.args[1:], (), (), f"{name} -m {module}")  # runs pip as `pip …`
        if name and name not in UNDERSTOOD and not formats_a_volume(name) and (
                name not in self.functions):
            self.unknown_program(cmd, where)
        elif name in _COMMAND_INPUT:
            self.probed_input(cmd, where)

    def unknown_program(self, cmd: Command, where: tuple[str, ...]) -> None:
        label = f"argument of {cmd.name}"
        args = cmd.args
        verb = _destroying(args) or named_for_deleting_data(cmd.name, args)
        if verb is not None:  # `flyctl apps destroy x --yes`, `mc rb --force s3/b`
            self.out.problem("destroys", f"{cmd.name} {verb}: a program this wing does not "
                             "know, told to delete or destroy", where)
        if wipes(" ".join([a.text for a in args if a.known])) or any(
                a.known and drops(a.text) for a in args):  # `rails runner 'User.delete_all'`
            self.out.problem("destroys", f"{cmd.name}: a program this wing does not know, "
                             f"handed code that {ALERT_TEXTS['destroys']}", where)
        acts = acts_off_the_machine(args)
        if acts is not None:  # `stripe refunds create …`, `amtool silence add …`
            self.out.problem("destroys", f"{cmd.name} {acts}: a program this wing does not "
                             "know, acting off this machine", where)
        told = _told(args, self.cwd)
        if told is not None:  # `frob -o /etc/hosts`, `frob --delete /home`, `frob sync ~/ s3:…`
            self.out.problem("destroys", f"{cmd.name}: a program this wing does not know, "
                             f"told to {told}", where)
        program = windows_code(args, self.cwd)
        if program is not None:  # `pcalua -a C:\Users\Public\p.exe`, `regasm /U …\p.dll`
            self.out.problem("dynamic-code", f"{cmd.name}: a program this wing does not "
                             f"know, handed a Windows program from outside the workspace, "
                             f"{program}, that it may run", where)
        handed = named_for_deleting(cmd.name, args, self.cwd, cmd.argv[0] if cmd.argv else None)
        if handed is not None:  # `./cleanup --root /`, `wipe.sh ~`
            self.out.problem("destroys", f"{cmd.name}: a program this wing does not know, "
                             f"named for deleting, handed {handed}", where)
        skip = installer_words(cmd)  # (`nimble install ./p`: no `install` of coreutils)
        for k, a in enumerate(args):
            if k >= skip and not a.text.startswith("-") and modelled(_base(a)) and not (
                    "/" in a.text and _base(a) == cmd.name):  # (`restic -r /srv/restic`)
                self.run(tuple(args[k:]), (), (), label)
                break
        for a in args:
            if a.known:
                for text in candidates(a.text):
                    self.probe(text, (*where, label))
                if "(" in a.text:  # `frob -e 'unlink("/home", recursive=TRUE)'`: code of
                    # some language, read for the calls every language spells alike
                    for text in shell_strings("", a.text):
                        self.nested(text, (*where, f"code in an argument of {cmd.name}"))
        self.probed_input(cmd, where)

    def carrying_variable(self, name: str, value: Word) -> None:
        """``GIT_SSH_COMMAND='…'``: the value is code; ``BASH_ENV=f``: ``f`` is run;
        ``HISTFILE=/dev/null``: the history is not kept."""
        if name in _HISTORY and value.text in ("", "/dev/null", "0"):
            self.run((literal("history"), literal("-c")), (), (), f"${name}={value.text}")
        elif (name in CODE_ENV or _PROGRAM_KEY.search(name)) and value.known and (
                value.text.strip()):
            self.helper(value.text.lstrip("|"), (*self.where, f"${name}"), f"${name}")
        elif name in FILE_ENV and value.text.strip():
            self.run((literal("source"), value), (), (), f"${name}")
        elif name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG") and (
                value.text.strip()):  # a file git loads as its settings: read as git does
            self.run((literal("git"), literal("config"), literal("--file"), value,
                      literal("--list")), (), (), f"${name}")
        elif name == "LUA_INIT" and value.text.startswith("@"):  # a file lua runs first
            self.run((literal("lua"), Word(value.text[1:], value.raw, value.glob, value.tame,
                                           value.sources)), (), (), f"${name}")
        elif name in _LANGUAGE_ENV and value.known and value.text.strip():
            # code of a language the program runs at start (PERL5DB, LUA_INIT) or ex
            # commands an editor runs (VIMINIT, EXINIT: `:!cmd` is shell)
            runner = _LANGUAGE_ENV[name]
            bang = _EX_BANG.match(value.text)
            code = bang.group(1) if bang else (
                f"{runner} {shlex.quote(value.text)}" if runner else "")
            if code:
                self.nested(code, (*self.where, f"${name}"))
        command = stands_for(name, value)  # (PIP_TARGET=DIR: pip install --target DIR)
        if isinstance(command, str):
            self.nested(command, (*self.where, f"${name}"))
        elif command is not None:
            self.run(command, (), (), f"${name}")
        if value.text:
            self.runtime_variable(name, value)
        shown = loaded_from(name, value, self.cwd)
        if shown is not None:  # (a library from a scratch folder is how a hijack looks)
            self.out.problem("dynamic-code", f"makes every program started after it load "
                             f"code from {shown} (${name})", self.where, value.sources)
        place = scratch_location(name, value, self.cwd)
        if place is not None:  # R_PROFILE_USER=/tmp/x.R, JULIA_DEPOT_PATH=/tmp/d, …
            self.out.problem("dynamic-code", f"makes a program load code or settings from "
                             f"{place}, a folder anyone may write (${name})", self.where,
                             value.sources)
        for settings in settings_files(name, value):  # XDG_CONFIG_HOME=DIR, MAKEFILES=F:
            # loaded, as a file a command runs is (judged by the session's flow)
            self.run((literal("source"), settings), (), (), f"${name}")


def _alike(value: Word, cwd: str | None) -> bool:
    """A loop value that reads like any other plain name of the workspace: not an option,
    a number, a program the wing knows, a secret or a path out of the workspace."""
    return value.known and not modelled(value.text.lower()) and (
        value.text.lower() not in KNOWN) and not _matters(value, cwd)
