"""The commands a file's text holds, whatever its language: what a build tool, a test
runner or a task runner would run if it loaded the file (a script's own lines, the shell
commands a program's code spawns or amounts to, a settings file's command values, CMake's
``COMMAND``). The safety shield keeps this for each file the session writes, so a later
program that may load it is judged by it (``build.rs``, ``CMakeLists.txt``,
``jest.config.js``, ``.cargo/config.toml``… without a list of which tool loads which)."""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator

from toolpipe.shell._carried import _EX_BANG, KNOWN, RUNNABLE
from toolpipe.shell._execs import exec_commands
from toolpipe.shell._helpers import _PROGRAM_KEY, SYSTEM_BIN, candidates
from toolpipe.shell._languages import language_named, rule_commands
from toolpipe.shell._model import Command
from toolpipe.shell._oneliners import shell_strings
from toolpipe.shell._places import SCRATCH
from toolpipe.shell._printed import escapes_read, printf_output
from toolpipe.shell._sed import script_commands
from toolpipe.shell._setting_values import file_loads, setting_loads
from toolpipe.shell._table import option_values
from toolpipe.shell._words import ansi_c, shell_word
from toolpipe.shell._wrappers import SHELLS
from toolpipe.shell._xml import XML as _XML
from toolpipe.shell._xml import xml_commands

# Text that no tool runs: prose, data, lock files
_PROSE = (".md", ".markdown", ".rst", ".txt", ".csv", ".tsv", ".log", ".html", ".htm",
          ".css", ".svg", ".lock", ".sum", ".xml.bak", ".diff", ".patch", ".adoc")
_SCRIPT = (".sh", ".bash", ".zsh", ".ksh", ".fish", ".command")
_SETTINGS = (".toml", ".json", ".jsonc", ".json5", ".yml", ".yaml", ".ini", ".cfg", ".conf",
             ".properties", ".gradle", ".kts", ".build", ".cmake", ".xml", ".sbt", ".nix",
             ".mk", ".bzl", ".bazel", ".hcl", ".tf", ".ninja", ".desktop")
_SETTINGS_NAMES = frozenset({"CMakeLists.txt", ".envrc", "Makefile",
                             "makefile", "GNUmakefile", "justfile", "Justfile", "Rakefile",
                             "Gemfile", "Vagrantfile", "BUILD", "WORKSPACE", "meson.build",
                             "Procfile", "Brewfile", "Jenkinsfile", "Earthfile", "Tiltfile",
                             ".Renviron"})
# a tool's rc file by its name (`hgrc`, `.hgrc`, `.wgetrc`, `.npmrc`): settings, whose values
# may be command lines (Mercurial's `[hooks]`); not a shell's own, which is a script
_RC_NAME = re.compile(r"\.?[A-Za-z0-9_-]*rc")
_SHELL_RC = frozenset({".bashrc", ".zshrc", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc",
                       "bashrc", "zshrc", ".envrc"})


def _settings_named(name: str, ext: str) -> bool:
    return ext in _SETTINGS or name in _SETTINGS_NAMES or (
        _RC_NAME.fullmatch(name) is not None and name not in _SHELL_RC)


# a value after `key =`, `key:`, `"key":`, `- run:`, a Makefile recipe's tab, CMake's COMMAND
_VALUE = re.compile(r"""^\s*(?:-\s*)?["']?(?P<key>[\w.@/-]*)["']?\s*[:=]\s*"""
                    r"""(?P<value>.+?)\s*,?\s*$""")
_RECIPE = re.compile(r"^\t[@+\-]*(?P<value>.+)$")  # (after make's marks: `@`, `-`, `+`)
# a YAML list's item that is a command line (a CI job's `script:`, `commands:`, `steps:`)
_ITEM = re.compile(r"^\s*-\s+(?P<value>(?![\"'{\[])[^:#\n]+(?::(?!\s)[^#\n]*)?)$")
_INLINE = re.compile(r"""(?P<key>[\w.@-]+)\s*[:=]\s*(?P<q>["'])"""
                     r"""(?P<value>(?:(?!(?P=q)).){1,512})(?P=q)""")
_CMAKE = re.compile(r"\bCOMMAND\s+(?P<value>[^)\n]+)")
_STRING = re.compile(r""""((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'""")
# a list of strings, the first a program (run_command('rm', '-rf', …), commandLine 'rm', …,
# ["sh", "-c", "…"]): the command line it amounts to
_ARGV = re.compile(r"""(["'])([\w./+-]+)\1(?:\s*,\s*(["'])[^"'\n]*\3)+(?P<more>\s*,)?""")
# a command built by chained calls: Rust's std::process::Command (and its async twins)
_CHAIN = re.compile(r"""Command::new\(\s*"((?:[^"\\\n]|\\.)*)"\s*\)((?:\s*\.args?\(\s*&?"""
                    r"""(?:\[(?:\s*"(?:[^"\\\n]|\\.)*"\s*,?)*\s*\]|"(?:[^"\\\n]|\\.)*")"""
                    r"""\s*\))*)""")
MAX_LINES = 4096
MAX_STRINGS = 256
_BACKTICKED = re.compile(r"`([^`\n]{1,512})`")
# the string readings' families of the languages a name gives (`_languages`)
_FAMILIES = {"snakefile": "python", "unread": ""}
_VIM_FILES = frozenset({".vimrc", "_vimrc", ".gvimrc", ".exrc", "init.vim", ".nvimrc"})
_VIM_SYSTEM = re.compile(r"""\bsystem(?:list)?\s*\(\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')""")
_GENERATE = re.compile(r"(?m)^//go:generate[ \t]+(.+)$")
# a debugger's start-up commands (read where it starts, gdb's when its safe path allows)
_DEBUGGER_FILES = frozenset({".gdbinit", "gdbinit", ".lldbinit", "lldbinit"})
_DEBUGGER_SHELL = re.compile(r"(?m)^[ \t]*(?:(?:platform[ \t]+)?shell[ \t]+|!)(.+)$")
# commands a build file's own language expands by running them when the file is read:
# make's `$(shell CMD)` (a Makefile, R's Makevars, a .mk), node-gyp's `<!(CMD)` and
# `<!@(CMD)` (binding.gyp), a brace or two of nesting inside
_EXPANDED = re.compile(r"\$\(shell[ \t]+(?P<make>(?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))+)\)"
                       r"|<!@?\((?P<gyp>(?:[^()\n]|\([^()\n]*\))+)\)")
# an ssh config's commands run here (not RemoteCommand: run on the server)
_SSH_RUNS = re.compile(r"""(?im)^[ \t]*(?:(?:ProxyCommand|LocalCommand|KnownHostsCommand)"""
                       r"""(?:[ \t]*=[ \t]*|[ \t]+)(?P<c>.+?)[ \t]*$|Match\b[^\n]*?\bexec[ \t]+"""
                       r"""(?:"(?P<q>[^"\n]*)"|(?P<w>\S+)))""")
_RUN_LINE = re.compile(r"(?m)^[ \t]*RUN[ \t]+(?:--[\w-]+(?:=\S+)?[ \t]+)*(.+)$")


def commands_in(path: str, content: str) -> str:
    """The command lines ``content`` holds (one per line), for a file named ``path``. A
    setting's value is kept when its key names a program, or when it starts with a
    program whose effects the wing models (another word is a setting, not a command)."""
    name = posixpath.basename(path)
    ext = posixpath.splitext(name)[1].lower()
    if "secrets." in content:  # a CI's secret (`${{ secrets.KEY }}`) stands as a secret file
        content = _CI_SECRET.sub(r"$(cat /run/secrets/\1)", content)
    if (ext in _PROSE and name not in _SETTINGS_NAMES) or not content.strip():
        return ""
    first = content.split("\n", 1)[0]
    if ext in _SCRIPT or name == ".envrc" or (first.startswith("#!") and any(
            s in first for s in ("sh", "bash", "zsh"))):
        return content  # a script: its lines are the commands
    if name in _GIT_CONFIGS or path.endswith((".git/config", ".git/config.worktree",
                                               "/git/config")) or git_form(content):
        return _git_config_commands(content)
    language = language_named(path) or ""
    out = shell_strings(_FAMILIES.get(language, language), content)
    if language == "snakefile":
        out += rule_commands(content)
    elif language == "unread":  # a string of code the wing does not read that is a known
        # program's command line (`(.exec rt "rm -rf /home")`; not "0.1.0" or "a web app")
        strings = [a or b for a, b in _STRING.findall(content)[:MAX_STRINGS]]
        strings += _BACKTICKED.findall(content)[:MAX_STRINGS]  # (Julia's `cmd`, Groovy's)
        out += [" ".join(words) for words in (t.split() for t in strings)
                if len(words) > 1 and posixpath.basename(words[0]) in KNOWN]
    out += _GENERATE.findall(content)  # Go's //go:generate directives (go generate runs them)
    if "$(shell" in content or "<!" in content:  # make's $(shell …), node-gyp's <!(…)
        out += [m.group("make") or m.group("gyp") for m in _EXPANDED.finditer(content)]
    if name == "Earthfile" and "LOCALLY" in content:  # its RUN lines run on the host
        out += _RUN_LINE.findall(content)
    if ext in _XML or "<exec" in content or "<Exec" in content or "<executable>" in content:
        out += xml_commands(content)
    if "ommand" in content or "exec" in content:  # an ssh config's, read by `ssh -F FILE`
        out += [m.group("c") or m.group("q") or m.group("w") for m in _SSH_RUNS.finditer(content)]
    if name in _DEBUGGER_FILES:  # gdb's `shell CMD` and `!CMD`, lldb's `platform shell CMD`
        out += [m.group(1) for m in _DEBUGGER_SHELL.finditer(content)]
    if ext == ".vim" or name in _VIM_FILES:  # `:!cmd`, `silent !cmd`, `system('cmd')`
        out += [next(g for g in m.groups() if g is not None)
                for line in content.splitlines()[:MAX_LINES]
                if (m := _EX_BANG.match(line) or _VIM_SYSTEM.search(line))]
    for m in _CHAIN.finditer(content):  # Rust's Command::new("sh").arg("-c").arg("…")
        words = [m.group(1)] + [a or b for a, b in _STRING.findall(m.group(2))]
        out.append(" ".join(shell_word(w) for w in words))
    for m in _ARGV.finditer(content):
        words = [a or b for a, b in _STRING.findall(m.group(0))]
        if words and posixpath.basename(words[0]) in RUNNABLE:
            out.append(" ".join(shell_word(w) for w in words) + (" ~" if m.group("more") and
                                                               _home_after(content, m.end())
                                                               else ""))
    out += exec_commands(content)  # a program and its arguments under two keys (_execs)
    if ext == ".json":
        try:
            pairs = list(_pairs(json.loads(content)))
        except (ValueError, RecursionError):
            pairs = []
        for key, value in pairs[:MAX_LINES]:
            out += _command(key, value)
    elif _settings_named(name, ext):
        for line in content.splitlines()[:MAX_LINES]:
            for pattern in (_VALUE, _RECIPE, _CMAKE, _ITEM):
                found = pattern.search(line)
                if found is None:
                    continue
                value = found.group("value").strip().strip(",").strip()
                if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                    value = value[1:-1]
                key = found.groupdict().get("key") or ""
                if value[:1] == "[" and (not _ARGV.search(value) or _LOADED_KEY.search(key)):
                    # a list of command lines (or of files loaded: Taskfile's `dotenv:`)
                    for one in _STRING.finditer(value):  # (Packer's `inline = ["…", "…"]`)
                        out += _command(key, one.group(1) or one.group(2) or "")
                else:
                    out += _command(key, value)
            if "=" in line or ":" in line:  # and settings inside a line: Nix's `{ shellHook
                for inner in _INLINE.finditer(line):  # = "…"; }`, an inline table
                    out += _command(inner.group("key"), inner.group("value"))
    # what the file has its tool load or run beyond command lines: a program's options
    # (.proverc), a dependency's folder (go.mod's `replace`), a toolchain's (rust-toolchain)
    out += file_loads(path, content)
    # code in a folder anyone may write, named anywhere in a settings file (yarn's
    # `yarnPath`, bun's `preload`, mocha's `require`, `--require` in .rspec or npm's
    # node-options): what the tool loads from there, read as sourced (asked about)
    out += [f"source {shell_word(m.group(0))}" for m in _SCRATCH_CODE.finditer(content)]
    return "\n".join(dict.fromkeys(o for o in out if o.strip()))


# (after a space, a quote, `=`, `:`, or glued to a short option: `-r/tmp/x.rb`)
_SCRATCH_CODE = re.compile(r"(?:(?<![\w./~-])|(?<=(?<![\w-])-[A-Za-z]))(?:" + "|".join(
    re.escape(f) for f in SCRATCH) + r")[\w./-]{0,200}\.(?:js|cjs|mjs|ts|mts|cts|jsx|tsx|py|"
    r"pyc|rb|sh|bash|zsh|pl|pm|php|lua|so|dylib|jar|class|war|dll|exe|node|wasm|R|r|jl|el|"
    r"ps1|psm1|bat|cmd|groovy)(?![\w.-])")


# git's settings files: the keys whose value git runs (core.fsmonitor, core.pager,
# core.sshCommand, diff.external, a filter's clean and smudge, a credential helper…), and
# an alias that starts with `!`
_GIT_CONFIGS = frozenset({".gitconfig", "gitconfig", ".gitmodules"})
# a file in git's form whatever its name (GIT_CONFIG_GLOBAL may name any): its sections
_GIT_SECTION = re.compile(r"(?m)^[ \t]*\[(?:core|alias|credential|filter|diff|merge|"
                          r"sequence|gpg|includeIf|include)\b[^\]\n]*\][ \t]*$")


def git_form(content: str) -> bool:
    """Is ``content`` a file in git's settings form (its sections), whatever its name?"""
    return _GIT_SECTION.search(content) is not None


_GIT_RUNS = re.compile(r"^\s*(?P<key>[\w.-]+)\s*=\s*(?P<value>.*?)\s*$")
_GIT_PROGRAM_KEYS = frozenset({"fsmonitor", "pager", "editor", "sshcommand", "askpass",
                               "gitproxy", "external", "textconv", "clean", "smudge",
                               "process", "program", "helper", "packobjectshook", "command",
                               "cmd"})


_CI_SECRET = re.compile(r"\$\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def _git_config_commands(content: str) -> str:
    out = []
    for line in content.splitlines()[:MAX_LINES]:
        m = _GIT_RUNS.match(line)
        if m is None:
            continue
        value = m.group("value")
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1].replace('\\"', '"')
        key = m.group("key").lower()
        if value.startswith("!"):  # an alias run by the shell
            out.append(value[1:])
        elif key in _GIT_PROGRAM_KEYS and value.lower() not in ("true", "false", ""):
            out.append(value)
    return "\n".join(out)


def _command(key: str, value: str) -> list[str]:
    """A setting's value as the command lines it holds: all of it when its key names a
    program (``runner = "…"``, ``script-shell=./x.sh``), else when it starts with a program
    whose effects the wing models (``"dev": "rm -rf ~"``, ``- run: curl … | sh``); and
    what it has a program load or fetch (``_setting_values``)."""
    loads = setting_loads(key, value)
    if loads:
        return loads
    if key and _LOADED_KEY.search(key) and value.split() == [value] and "://" not in value:
        # a file the tool sources into its shell or environment (mise's `_.source` and
        # `_.file`, direnv's, a runner's dotenv or env_file): read as sourced, so that one
        # in a scratch folder no call wrote, or one an earlier call wrote, is judged
        return [f"source {shell_word(value)}"]
    if key and _PROGRAM_KEY.search(key):
        head = value.split(None, 1)[0] if value.split() else ""
        if head.startswith(("/", "~")) and not head.startswith(SYSTEM_BIN):
            # a program named by its path outside the workspace, run for the tool
            # (`rustc-wrapper = "/tmp/w.sh"`): read as the variable it stands for is
            # (RUSTC_WRAPPER=/tmp/w.sh), which asks about it
            name = re.sub(r"\W", "_", key.rsplit(".", 1)[-1]).upper()
            return [f"{name}={shell_word(value)}"]
        return [value]
    head = value.split(None, 1)[0] if value.split() else ""
    if posixpath.basename(head) in RUNNABLE or head in SHELLS:
        return candidates(value) or [value]
    return []


# the keys of a file loaded into a tool's shell or environment (`_.source`, `_.file` under
# mise's [env], `source_env`, `dotenv`, `dotenv-path`, `env_file`, `env-files`)
_LOADED_KEY = re.compile(r"(?i)(?:^|[._-])(?:source|source_env|source_up|dotenv|dotenv[-_]"
                         r"(?:path|filename|files?)|env[-_]?files?)$|^_\.file$")


def _pairs(node: object, key: str = "", depth: int = 0) -> Iterator[tuple[str, str]]:
    """Every (key, string value) of a JSON document, depth first."""
    if depth > 32:
        return
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _pairs(v, str(k), depth + 1)
    elif isinstance(node, list):
        for v in node:
            yield from _pairs(v, key, depth + 1)
    elif isinstance(node, str):
        yield key, node


def json_strings(node: object) -> list[str]:
    """Every string value of a JSON document, depth first (see ``_pairs``)."""
    return [value for _, value in _pairs(node)]


_HOME = re.compile(r"home|HOME|user\.home|homedir|expanduser")


def _home_after(content: str, at: int) -> bool:
    """Does the argument list go on with the home folder (``System.getProperty('user.home')``)?"""
    return _HOME.search(content, at, at + 80) is not None


# --- what echo and printf write, what an edit in place puts into a file -----------------

def echoed(cmd: Command) -> str | None:
    """What ``echo X > f``, ``printf X > f`` or ``cat <<EOF > f`` writes (None if unknown)."""
    if cmd.name == "cat" and not cmd.args and cmd.stdin_data:
        data = cmd.stdin_data[0]
        return data.text if data.known else None
    if cmd.name in ("echo", "printf") and all(a.known for a in cmd.args):
        if cmd.name == "printf" and cmd.args and not cmd.args[0].text.startswith("-"):
            return printf_output(ansi_c(cmd.args[0].text), [a.text for a in cmd.args[1:]])
        words = [a.text for a in cmd.args if not (cmd.name == "echo" and a.text in
                                                    ("-e", "-n", "-E"))]
        text = " ".join(words)
        return escapes_read(text) if "-e" in [a.text for a in cmd.args] else text
    return None


# one command of a sed script this reading understands: an optional address, then a
# substitution (its replacement: group r; flags that write or run elsewhere, `w` and `e`,
# are not understood), `a`/`i`/`c` and their text (group t), or a command that adds nothing
_ADDRESS = r"(?:\d+|\$|/(?:\\.|[^/\n])*/)"
_SED_COMMAND = re.compile(
    rf"\s*(?:{_ADDRESS}(?:\s*,\s*{_ADDRESS})?\s*!?\s*)?"
    r"(?:s(?P<d>[^\w\s\\])(?:\\.|(?!(?P=d))[^\n])*(?P=d)(?P<r>(?:\\.|(?!(?P=d))[^\n])*)"
    r"(?P=d)[gpiIm0-9]*|[aic]\\?[ \t]*(?P<t>[^\n]*)|[dDpPn=])\s*(?:[;\n]|$)")
_SED_ESCAPE = re.compile(r"\\(.)|&")
_SED_ESCAPES = {"n": "\n", "t": "\t"}


def edit_inserts(cmd: Command) -> str | None:
    """The text a ``sed -i`` (or ``perl -pi -e``) edit puts into a file, from its scripts:
    each substitution's replacement and each appended, inserted or changed line, without
    what they keep of the file (``&``, ``\\1``: the project's own text). None when a script
    does more than this reading understands (`y`, `r FILE`, `w FILE`, a file of commands):
    what the file holds afterwards is then not known."""
    name = cmd.name
    texts = [a.text for a in cmd.args]
    scripts = option_values(texts, "-e") + option_values(texts, "--expression")
    if not scripts and name in ("sed", "gsed"):
        scripts = [t for t in texts if not t.startswith("-")][:1]
    if not scripts or name not in ("sed", "gsed", "perl") or not all(
            a.known for a in cmd.args) or option_values(texts, "-f") or option_values(
            texts, "--file"):
        return None
    matches = script_commands(scripts, _SED_COMMAND)
    if matches is None or (name == "perl" and any(m.group("r") is None for m in matches)):
        return None  # (perl: substitutions only)
    out: list[str] = []
    for m in matches:
        text = m.group("r") if m.group("r") is not None else m.group("t")
        if text:
            out.append(_SED_ESCAPE.sub(lambda e: "" if e.group(0) == "&" or e.group(
                1).isdigit() else _SED_ESCAPES.get(e.group(1), e.group(1)), text))
    return "\n".join(out)


def edited_commands(path: str, inserted: str) -> str:
    """The commands the text an edit put into ``path`` holds: as the file's language when
    it is a program's (Python's spawned commands…), as a setting's lines when it is a
    settings file (`"test": "rm -rf ~"` put into package.json), and as command lines when
    it is a script or a file run by name."""
    name = posixpath.basename(path)
    ext = posixpath.splitext(name)[1].lower()
    if language_named(path) not in (None, "unread"):
        return commands_in(path, inserted)
    if _settings_named(name, ext):
        return commands_in("edit.yaml", inserted)
    if ext in _PROSE:
        return ""
    return inserted
