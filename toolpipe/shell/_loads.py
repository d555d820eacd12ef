"""Code a program is told by an option to load before its own work: a Java agent, a
compiler plugin, a module required first, a debugger's command file, a build tool's init
script, an editor's script (``vim -S``, ``emacs -l``). Each counts as a file the command
runs (an ``exec`` effect), so that the session's flow judges one an earlier call wrote,
and one of unknown content in a scratch folder is asked about, as ``bash /tmp/x.sh`` is.
And the file of code a program is named to run (``java -jar F``, ``wine F``, ``awk -f F``:
the program table's ``[[file]]`` rows), and a folder of programs registered for later
commands (``rustup toolchain link``). And perl's module options that hold more than a
module: code perl runs (``-Mstrict;system(…)``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolpipe.shell._model import Command
from toolpipe.shell._table import FILE_RUNNERS
from toolpipe.shell._words import Word

_COMPILERS = ("gcc", "g++", "cc", "c++", "clang", "clang++")
# options whose value (the next word, or after `=`) is a file of code the program loads
_SEPARATE: dict[str, frozenset[str]] = {
    "node": frozenset({"--require", "-r", "--import", "--loader", "--experimental-loader"}),
    "gdb": frozenset({"-x", "--command", "-ix", "--init-command"}),
    "lldb": frozenset({"-s", "-S", "--source", "--source-before-file"}),
    "gradle": frozenset({"-I", "--init-script"}),
    "ant": frozenset({"-f", "-file", "-buildfile"}),
    "ruby": frozenset({"-r"}),
    **dict.fromkeys(_COMPILERS, frozenset({"-fplugin", "-fpass-plugin"})),
    # editors told to load a script of their own language (`vim -S x.vim`, `-u vimrc`)
    **dict.fromkeys(("vim", "vi", "nvim", "ex", "view", "gvim", "vim.basic", "vim.tiny",
                     "vim.nox"), frozenset({"-S", "-u", "-U"})),
    "emacs": frozenset({"-l", "--load", "--script"}),
    # a program run for each of the toolchain's (`go build -toolexec T`, `go test -exec T`)
    "go": frozenset({"-toolexec", "--toolexec", "-exec"}),
    # a template whose hooks a new repository gets, run by its later commands
    "git": frozenset({"--template"}),
}
_CLUSTERED = frozenset({"vim", "vi", "nvim", "ex", "view", "gvim", "vim.basic", "vim.tiny",
                        "vim.nox", "emacs"})  # `vim -eS x.vim`: the last letter's value
# options glued to their value: -javaagent:/x.jar, -fplugin=/x.so, ruby's -r/x.rb
_GLUED: dict[str, tuple[str, ...]] = {
    "java": ("-javaagent:", "-agentpath:"),
    "ruby": ("-r",),
    **dict.fromkeys(_COMPILERS, ("-fplugin=", "-fpass-plugin=")),
    "git": ("--exec-path=",),  # (its subcommands run from there; alone, it prints it)
}


def _as_word(like: Word, text: str) -> Word:
    return Word(text, like.raw, like.glob, like.tame, like.sources)


def option_loads(cmd: Command) -> list[Word]:
    """The files ``cmd`` is told by an option to load and run, as words."""
    name = cmd.name
    separate, glued = _SEPARATE.get(name), _GLUED.get(name)
    if separate is None and glued is None:
        return []
    args = cmd.args
    out: list[Word] = []
    for i, a in enumerate(args):
        t = a.text
        option, eq, value = t.partition("=")
        if separate and option in separate:
            if eq:
                out.append(_as_word(a, value))
            elif i + 1 < len(args):
                out.append(args[i + 1])
            continue
        if name in _CLUSTERED and separate and t[:1] == "-" and t[1:].isalpha() and (
                "-" + t[-1]) in separate and i + 1 < len(args):
            out.append(args[i + 1])
            continue
        for prefix in glued or ():
            if t.startswith(prefix) and len(t) > len(prefix):
                path = t[len(prefix):].split("=", 1)[0]
                if "/" in path or name != "ruby":  # ruby -rjson: a library by name
                    out.append(_as_word(a, path))
        if name.startswith("clang") and t == "-load" and i >= 1 and args[i - 1].text == (
                "-Xclang") and i + 2 < len(args) and args[i + 1].text == "-Xclang":
            out.append(args[i + 2])  # clang -Xclang -load -Xclang /x.so
    return out


def file_runs(cmd: Command) -> list[Word]:
    """The files of code a ``[[file]]`` row of the program table says this command runs:
    the word after one of its options (or glued to a long one after `=`), or its first
    operand."""
    row = FILE_RUNNERS.get(cmd.name)
    if row is None:
        return []
    args = cmd.args
    out = []
    for i, a in enumerate(args):
        option, glued, value = a.text.partition("=")
        if glued and option.startswith("--") and option in row.options:  # (--gemfile=F)
            out.append(Word(value, a.raw, a.glob, a.tame, a.sources))
        elif a.text in row.options:  # (the first word after it that is not an option)
            named = next((b for b in args[i + 1:] if not b.text.startswith("-")), None)
            if named is not None:
                out.append(named)
    if row.operand:
        ops = [a for a in args if not a.text.startswith("-")]
        if ops and (not row.endings or ops[0].text.endswith(row.endings)):
            out.append(ops[0])
    return out


# a subcommand that registers a folder of programs, run by later commands: the words that
# name it, the index of the folder among the operands after them, and the program there
# that later commands run (`rustup toolchain link NAME PATH`: cargo runs PATH/bin/rustc
# for a project that names the toolchain)
_REGISTERS: dict[str, tuple[tuple[str, ...], int, str]] = {
    "rustup": (("toolchain", "link"), 1, "bin/rustc")}


def registered(cmd: Command) -> list[Word]:
    """The program in a folder ``cmd`` registers, run by later commands (see
    ``_REGISTERS``)."""
    row = _REGISTERS.get(cmd.name)
    if row is None:
        return []
    words, index, program = row
    ops = [a for a in cmd.args if not a.text.startswith("-")]
    if tuple(a.text for a in ops[:len(words)]) != words or len(ops) <= len(words) + index:
        return []
    folder = ops[len(words) + index]
    return [_as_word(folder, folder.text.rstrip("/") + "/" + program)]


# A module perl's -M or -m loads, by its grammar: a name and the words it imports
# (`-MList::Util=sum,max`); anything else in the option is code perl runs as written
# (`-Mstrict;system("…")` is `use strict;system("…");`)
PERL_MODULE = r"-?[A-Za-z_][\w:]*(?:=[\w,:.+/-]*)?"  # (PERL5OPT's reading spells it so too)
_PERL_MODULE = re.compile(PERL_MODULE)


def module_code(args: Sequence[Word]) -> list[str]:
    """The specs of perl's -M/-m options (before its program) that are more than a module's
    name and imports: code perl runs, as ``use SPEC;``; an unknown spec is code too."""
    out: list[str] = []
    i = 0
    while i < len(args):
        t = args[i].text
        if t == "--" or not t.startswith("-") or t == "-":
            break
        if t in ("-e", "-E", "-x", "-I", "-i") or (t[1:].isalpha() and t[-1] in "eE"):
            i += 2  # (an option with its operand: -e's code is read by code_flag)
            continue
        if t[:2] in ("-M", "-m") and len(t) > 2 and (
                not args[i].known or not _PERL_MODULE.fullmatch(t[2:])):
            out.append(t[2:])
        i += 1
    return out
