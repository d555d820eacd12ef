"""Code a program is told by an option to load before its own work: a Java agent, a
compiler plugin, a module required first, a debugger's command file, a build tool's init
script, an editor's script (``vim -S``, ``emacs -l``), a configuration that is code
(``eslint -c F``, ``webpack --config F``, ``pylint --rcfile F``). Each counts as a file the command
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
    # a configuration that is code (JavaScript's, Python's), or that names code it loads
    # (pylint's init-hook, mkdocs' hooks, coverage's plugins, rubocop's require; Sphinx's
    # -c folder holds conf.py)
    **dict.fromkeys(("eslint", "webpack", "jest", "rollup", "vite", "vitest", "playwright",
                     "rubocop"), frozenset({"-c", "--config"})),
    **dict.fromkeys(("prettier", "mocha", "stylelint", "postcss", "nodemon"),
                    frozenset({"--config"})),
    "babel": frozenset({"--config-file"}), "cypress": frozenset({"-C", "--config-file"}),
    "pylint": frozenset({"--rcfile"}), "coverage": frozenset({"--rcfile"}),
    "mkdocs": frozenset({"-f", "--config-file"}), "sphinx-build": frozenset({"-c"}),
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
    operand (every operand with the row's endings, where it has some)."""
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
    if row.operand:  # (with endings: each operand so named, `go run a.go b.go`,
        # `ansible-playbook -i hosts, site.yml`, after an option's value)
        ops = [a for a in args if not a.text.startswith("-")]
        out += [a for a in ops if a.text.endswith(row.endings)] if row.endings else ops[:1]
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


# A tool that runs a project's code (its tests, its build's scripts, its install hooks),
# and where it is told the project is: the options naming its folder or its file, by
# program (`make -C DIR`, `mvn -f F`, `cargo --manifest-path F`, `npm --prefix DIR`)
PROJECT_OPTIONS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("make", "gmake"), frozenset({"-C", "--directory"})),
    **dict.fromkeys(("npm", "pnpm"), frozenset({"--prefix", "-C", "--dir"})),
    **dict.fromkeys(("yarn", "bun"), frozenset({"--cwd"})),
    **dict.fromkeys(("gradle", "gradlew"), frozenset({"-p", "--project-dir", "-b",
                                                      "--build-file"})),
    **dict.fromkeys(("mvn", "mvnw"), frozenset({"-f", "--file"})),
    "cargo": frozenset({"--manifest-path"}), "dotnet": frozenset({"--project"}),
    "rake": frozenset({"-f", "--rakefile", "-C", "--directory"}),
    "tox": frozenset({"-c", "--conf", "--root"}), "nox": frozenset({"-f", "--noxfile"}),
    "just": frozenset({"--justfile", "-f", "-d", "--working-directory"}),
    "task": frozenset({"-d", "--dir", "-t", "--taskfile"}),
    "composer": frozenset({"-d", "--working-dir"}),
    "jest": frozenset({"--rootDir", "--config", "-c"}),
    "vitest": frozenset({"--root", "-r", "--config", "--dir"}),
    "cmake": frozenset({"-S"}), "go": frozenset({"-C"}), "mise": frozenset({"-C", "--cd"}),
    # a salt state tree's folders (`salt-call --local --file-root=/tmp/s state.apply`)
    "salt-call": frozenset({"--file-root", "--pillar-root", "-c", "--config-dir"}),
    "unittest": frozenset({"-s", "--start-directory", "-t", "--top-level-directory"}),
}
# test runners whose operands are the tests they run (after these subcommands, if any)
_TEST_OPERANDS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("pytest", "py.test", "rspec", "phpunit", "jest", "vitest", "mocha",
                     "ava", "tap", "behave", "nose2", "ward", "trial", "robot"), ()),
    "go": ("test", "run", "build", "generate", "vet", "install"),
    "deno": ("test", "bench"), "bun": ("test",),
    "dotnet": ("test", "build", "run", "pack", "publish", "msbuild"),
    "gem": ("build",),
}
# a project's runner in the folder it runs in: the subcommands that run the project (none:
# every use of the program but its help and version)
_IN_ITS_FOLDER: dict[str, frozenset[str]] = {
    **dict.fromkeys(("make", "gmake", "pytest", "py.test", "rspec", "phpunit", "jest",
                     "vitest", "tox", "nox", "rake", "just", "task", "gradle", "gradlew",
                     "mvn", "mvnw", "ninja", "mocha"), frozenset()),
    **dict.fromkeys(("npm", "pnpm", "yarn", "bun"), frozenset({
        "run", "test", "t", "install", "i", "ci", "start", "exec", "build", "run-script"})),
    "cargo": frozenset({"build", "b", "test", "t", "run", "r", "bench", "check", "c"}),
    "go": frozenset({"build", "test", "run", "generate", "vet", "install"}),
    "dotnet": frozenset({"build", "test", "run", "pack", "publish"}),
    "composer": frozenset({"install", "i", "update", "u", "run", "run-script"}),
    "meson": frozenset({"setup", "compile", "test"}), "deno": frozenset({"task", "test"}),
    "bundle": frozenset({"exec", "install"}),
    # Python's project tools: installing the project runs its build (setup.py, a backend)
    **dict.fromkeys(("poetry", "pdm", "uv", "rye"), frozenset({"install", "sync", "build"})),
    "pipenv": frozenset({"install", "sync"}), "hatch": frozenset({"build", "test", "env"}),
}
# project environments whose `run` (peeled off: the command is what they run) runs the
# project's own scripts, or installs the project first (`uv run`, `hatch run`)
PROJECT_ENVIRONMENTS = frozenset({"uv", "poetry", "pdm", "pipenv", "hatch", "rye"})
_NOT_RUNNING = frozenset({"--help", "-h", "--version", "-V", "version", "help"})


def project_places(cmd: Command) -> list[Word]:
    """Where the project is that ``cmd`` runs the code of (see above; ``python -m
    pytest`` is read as pytest by the walk): the folder or file an option names, a test
    runner's operands, the second operand of ``meson setup`` (its source folder), else
    the folder the command runs in when a ``cd`` moved it (a folder anyone may write, no
    call of the session wrote: what it holds is not known)."""
    name, args = cmd.name, list(cmd.args)
    texts = [a.text for a in args]
    if _NOT_RUNNING & set(texts):
        return []
    out: list[Word] = []
    options = PROJECT_OPTIONS.get(name, frozenset())
    for i, a in enumerate(args):
        option, eq, value = a.text.partition("=")
        if eq and option in options:
            out.append(_as_word(a, value))
        elif a.text in options and i + 1 < len(args):
            out.append(args[i + 1])
    operands = [a for i, a in enumerate(args) if not a.text.startswith("-") and not (
        i and (texts[i - 1] in options or _value_of(name, texts[i - 1])))]
    if name in _TEST_OPERANDS:
        after = _TEST_OPERANDS[name]
        if not after:
            out += [a for a in operands if "/" in a.text or a.text.startswith(".")]
        elif operands and operands[0].text in after:
            out += [a for a in operands[1:] if a.text.startswith(("/", "./", "../", "~"))]
    if name == "meson" and texts[:1] == ["setup"] and len(operands) >= 3:
        out.append(operands[2])
    runs_here = (name in _IN_ITS_FOLDER and (not _IN_ITS_FOLDER[name] or (
        bool(operands) and operands[0].text in _IN_ITS_FOLDER[name]))) or bool(
        PROJECT_ENVIRONMENTS & {*cmd.wrappers})
    if not out and runs_here and cmd.cwd is not None and cmd.cwd.startswith("/"):
        out.append(Word(cmd.cwd, cmd.cwd, tame=True))
    return out


# an option naming where a runner puts its output (`--junitxml F`, `--outputFile F`,
# `--basetemp D`, `-coverprofile F`): its value is no project; go's flags that take none
_OUTPUT_OPTION = re.compile(r"(?i)-[\w-]*(?:out|report|log|junit|result|basetemp|cache|"
                            r"te?mp|cov)[\w-]*")
_GO_FLAGS = frozenset({"-v", "-x", "-n", "-a", "-race", "-msan", "-asan", "-cover", "-json",
                       "-short", "-failfast", "-trimpath", "-work", "-i", "-benchmem",
                       "-linkshared", "-modcacherw", "-buildvcs"})


def _value_of(name: str, before: str) -> bool:
    """Is the word after ``before`` that option's value, not an operand (see above)?"""
    if not before.startswith("-") or "=" in before:
        return False
    return bool(_OUTPUT_OPTION.fullmatch(before)) or (name == "go" and before not in _GO_FLAGS)


# the programs whose project ``project_places`` finds
RUNS_PROJECTS = frozenset(PROJECT_OPTIONS) | frozenset(_TEST_OPERANDS) | frozenset(
    _IN_ITS_FOLDER)
