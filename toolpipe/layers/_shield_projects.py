"""The files a program runs without being told to (its project's files): which program runs
which file, and how each file's text reads as a command line the shell wing can judge.

``tox`` runs tox.ini's commands, ``pip install .`` runs setup.py, ``direnv allow`` sources
.envrc, ``docker compose up`` gives its services what the compose file asks for. The
session's data flow (``_shield_flow``) knows what each file holds; this module says when
it runs and what it amounts to. Beyond these, any program not in ``LOADS_NOTHING`` may
load a file the session wrote (a build script, a test runner's settings): it is asked
about when such a file holds what the shield blocks.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from collections.abc import Sequence

from toolpipe.layers._shield_handed import (
    client_code,
    container_as_run,
    playbook_commands,
    sources_as_options,
)
from toolpipe.layers._shield_hooks import PACKAGE_HOOKS, package_hooks
from toolpipe.shell import Command, language_named, option_values, rule_commands

# Programs that load no file of a project (they read, list, copy or print what they are
# told to): the rest may, and are judged by what a written file holds
LOADS_NOTHING = frozenset({
    "echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "cat", "less", "more",
    "head", "tail", "wc", "sort", "uniq", "cut", "tr", "jq", "yq", "ls", "tree", "stat",
    "file", "diff", "cmp", "comm", "od", "hexdump", "xxd", "base64", "md5sum", "sha1sum",
    "sha256sum", "sha512sum", "tee", "touch", "mkdir", "basename", "dirname", "realpath",
    "readlink", "date", "sleep", "true", "false", "test", "[", "[[", "pwd", "cd", "export",
    "which", "type", "du", "df", "ps", "cp", "mv", "rm", "ln", "chmod", "chown", "rmdir",
    "find", "fd", "git", "sed", "awk", "vim", "vi", "nano", "code", "emacs", "history",
    "alias", "kill", "wait", "id", "whoami", "uname", "hostname", "env", "printenv", "set",
    "unset", "read", "source", ".", "open", "xdg-open", "clear", "tput", "column", "nl",
})
# runners of a project's environment, which read its files and run its scripts by name
# (`hatch run test`, `pdm run lint`, `pipenv run serve`: the command peeled is the name)
PROJECT_RUNNERS = frozenset({"pdm", "hatch", "rye", "pipenv", "poetry", "uv", "conda", "mamba",
                             "micromamba", "npm", "pnpm", "yarn", "bun", "direnv"})
# (the override files compose reads, unnamed, with the file itself)
COMPOSE = ("docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml",
           "docker-compose.override.yml", "docker-compose.override.yaml",
           "compose.override.yml", "compose.override.yaml")
# programs that run a project file of the workspace: the files, and how to read them
PROJECT_FILES: dict[str, tuple[tuple[str, ...], str]] = {
    "tox": (("tox.ini",), "ini"), "nox": (("noxfile.py",), "python"),
    "just": (("justfile", "Justfile", ".justfile"), "recipes"),
    # (Taskfile's: its tasks' `cmds`, and the files its `dotenv:` loads, as its settings)
    "task": (("Taskfile.yml", "Taskfile.yaml"), "settings"),
    "rake": (("Rakefile", "rakefile"), "ruby"),
    "pip": (("setup.py",), "python"), "pip3": (("setup.py",), "python"),
    "uv": (("setup.py",), "python"),
    "direnv": ((".envrc",), "shell"),  # direnv allow / exec / reload source .envrc
    # mise's settings, loaded by each of its commands: a task's `run`, the files its [env]
    # sources (`_.source`, `_.file`): judged by the commands they hold
    "mise": (("mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml",
              ".config/mise.toml", ".config/mise/config.toml"), "settings"),
    "pre-commit": ((".pre-commit-config.yaml",), "precommit"),
    "docker-compose": (COMPOSE, "compose"), "podman-compose": (COMPOSE, "compose"),
    # Python task runners and build tools, each its own file of Python
    "invoke": (("tasks.py",), "python"), "inv": (("tasks.py",), "python"),
    "fab": (("fabfile.py",), "python"), "doit": (("dodo.py",), "python"),
    "scons": (("SConstruct", "SConscript"), "python"),
    "snakemake": (("Snakefile",), "snakefile"),
    # Nix: a shell's hook, a flake's apps; Vagrant's and Bundler's Ruby
    "nix-shell": (("shell.nix", "default.nix"), "nix"), "nix": (("flake.nix",), "nix"),
    "vagrant": (("Vagrantfile",), "ruby"), "bundle": (("Gemfile",), "ruby"),
    # Meson's build file: its run_command(…) and a target's command: […] run at setup (the
    # commands the shell wing reads in it, as in any settings file: `commands_in`)
    "meson": (("meson.build",), "settings"), "muon": (("meson.build",), "settings"),
    # Ninja's rules: each `command = …` runs when its target is built (read as a settings
    # file's commands are)
    "ninja": (("build.ninja",), "settings"), "samu": (("build.ninja",), "settings"),
    # a tool that always loads its settings file (cargo: .cargo/config.toml's runner,
    # rustc-wrapper, linker): judged by every command it holds, as the variables they stand
    # for are (RUSTC_WRAPPER=/tmp/w.sh asks)
    "cargo": ((".cargo/config.toml", ".cargo/config"), "settings"),
    # editors that run a folder's tasks marked to run when it opens (VS Code's and its
    # forks'), and load its settings (the programs its extensions run, its terminals'):
    # judged as any project file, by the commands they hold
    **{editor: ((".vscode/tasks.json", ".vscode/settings.json"), "project") for editor in (
        "code", "code-insiders", "codium", "cursor", "windsurf")},
}


# the option of a project runner that names the folder its file is read in (`ninja -C
# out`, `scons -C sub`, `rake -C dir`, `task -d dir`): a file there, not here
# (just's -d, snakemake's -d, tox's --root only move where commands run: the file is
# still found here)
PROJECT_FOLDER: dict[str, tuple[str, ...]] = {
    "ninja": ("-C",), "samu": ("-C",), "scons": ("-C", "--directory"),
    "rake": ("-C", "--directory"), "task": ("-d", "--dir"), "invoke": ("-r", "--search-root"),
    "inv": ("-r", "--search-root")}


def runs_project(name: str, texts: list[str]) -> bool:
    """``pip install .`` (or ``-e .``, a folder) runs setup.py; ``direnv allow``, ``exec``
    or ``reload`` runs .envrc; ``pre-commit run`` its hooks' entries; ``compose up``,
    ``run`` or ``create`` its services; the others always run theirs."""
    if name == "direnv":
        return bool(set(texts) & {"allow", "exec", "reload", "permit"})
    if name == "pre-commit":
        return bool(set(texts) & {"run", "try-repo"})
    if name in ("docker-compose", "podman-compose"):
        return bool(set(texts) & {"up", "run", "create", "start"})
    if name in ("pip", "pip3", "uv"):
        args = texts[1:] if name == "uv" and texts[:1] == ["pip"] else texts
        return bool(args) and args[0] in ("install", "wheel", "download") and any(
            t == "." or t.startswith(("./", "../")) or t in ("-e", "--editable") for t in args)
    return True


# The files each package manager reads for where it installs from (a project's own, or one
# an environment variable names): written by an earlier call, a source in them is judged
# as the same source given on the command line (`pip install -i URL`)
SOURCE_FILES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("pip", "pip3"), ("pip.conf", "pip.ini")),
    "uv": ("uv.toml", "pip.conf", "pyproject.toml"),
    **dict.fromkeys(("npm", "pnpm"), (".npmrc",)),
    "yarn": (".yarnrc.yml", ".yarnrc", ".npmrc"), "bun": ("bunfig.toml", ".npmrc"),
    "poetry": ("poetry.toml", "pyproject.toml"), "pdm": ("pdm.toml", "pyproject.toml"),
    "gem": (".gemrc",), "bundle": ("config",), "composer": ("composer.json",),
    "cargo": ("config.toml", "config"),
}
_INSTALLS = frozenset({"install", "i", "ci", "add", "update", "upgrade", "sync", "lock",
                       "download", "wheel", "fetch", "build", "check", "run", "require"})


def installs(name: str, texts: list[str]) -> bool:
    """Does this run of a package manager fetch packages (yarn alone installs)?"""
    words = [t for t in texts if not t.startswith("-")]
    if name == "uv" and words[:1] == ["pip"]:
        words = words[1:]
    return (not words and name == "yarn") or (bool(words) and words[0] in _INSTALLS)


def language_of(path: str, how: str, content: str) -> str:
    if how in ("make", "npm", "python", "snakefile", "ini", "recipes", "ruby", "precommit",
               "compose", "nix", "sources", "manifest", "playbook", "env", "awk", "sed",
               PACKAGE_HOOKS) or how.startswith(
            ("xargs ", "client ")):
        return how
    # a file of another language, run or loaded (`node -r ./hook.js`, `./tool.rb`): read
    # as that language, by its name or its `#!` line
    by_name = language_named(path)
    if by_name is not None:
        return by_name
    if content.startswith("#!"):
        found = _SHEBANG_LANGUAGE.search(content.split("\n", 1)[0])
        if found is not None:
            return "python" if found.group(1).startswith("python") else found.group(1)
    if content.lstrip()[:1] in ("{", "[") and _json_document(content):
        # (a settings file a program reads, `kubectl --kubeconfig kube/config` of JSON, is
        # data whatever its name: judged by the commands its values hold, as a file a
        # program may load is, not as a shell's text that does not parse, which asked about
        # every JSON kubeconfig)
        return "json"
    return "shell"


def _json_document(content: str) -> bool:
    try:
        return isinstance(json.loads(content), (dict, list))
    except (ValueError, RecursionError):
        return False


_SHEBANG_LANGUAGE = re.compile(r"[/ ](python[\d.]*|node|nodejs|bun|deno|ruby|perl|php|lua)\b")
# the switch that hands each of them code on the command line
_CODE_SWITCH = {"node": "node -e", "nodejs": "node -e", "bun": "bun -e", "deno": "deno eval",
                "perl": "perl -e", "php": "php -r", "lua": "lua -e"}


def code_of(content: str, language: str) -> str:
    """A file's text as a command line the wing can read."""
    if language == "python":
        return "python3 -c " + shlex.quote(content)
    if language == "snakefile":  # Python, and each rule's `shell:` command line
        return "\n".join([code_of(content, "python"), *rule_commands(content)])
    if language == "unread":  # (the command lines among its strings: the file's commands,
        return ""  # which the flow judges as a project file's)
    if language == "env":  # an environment file: its variables, as exports (GIT_SSH_COMMAND,
        # NODE_OPTIONS, PYTHONPATH: judged as the same variables set by the shell are)
        return "\n".join(f"export {k}={shlex.quote(v)}" for k, v in env_variables(content))
    if language in ("ruby", "awk", "sed"):  # (awk's and sed's script, as given inline)
        return ("ruby -e " if language == "ruby" else language + " ") + shlex.quote(content)
    if language in _CODE_SWITCH:
        return f"{_CODE_SWITCH[language]} {shlex.quote(content.removeprefix('<?php'))}"
    if language.startswith("xargs "):  # the items the file holds, given to the command
        return language + " " + " ".join(shlex.quote(w) for w in content.split())
    if language.startswith("client "):  # a database script: its client given it inline
        return client_code(language[len("client "):], content)
    if language == "playbook":  # Ansible's tasks, as the commands they amount to
        return playbook_commands(content)
    if language == "ini":  # tox.ini: the values (commands = …) are command lines, its
        # substitutions of the home folder (`{homedir}`, `{env:HOME}`) spelled as the shell's
        text = _TOX_HOME.sub("~", content)
        return "\n".join(line.split("=", 1)[1] if "=" in line else line
                         for line in text.splitlines() if not line.startswith("["))
    if language == "sources":
        return sources_as_options(content)
    if language == "recipes":  # justfile recipes, after their marks (`@rm -rf ~`)
        return "\n".join(_RECIPE_MARKS.sub("", line) for line in content.splitlines()
                         if line[:1].isspace())
    if language == "precommit":  # a local hook's entry is a command line
        return "\n".join(m.group(1) for m in _ENTRY.finditer(content))
    if language in ("compose", "manifest"):  # the host access of the services or pods
        return container_as_run(content)
    if language == "nix":  # its strings, where a shellHook's or an app's commands are
        return "\n".join(m.group(1) or m.group(2) for m in _NIX_STRING.finditer(content))
    if language == "make":  # a recipe's lines, and one after its rule (`all: ; CMD`)
        return "\n".join(_RECIPE_MARKS.sub("", line) if line[:1] == "\t" else line.split(";", 1)[1]
                         for line in content.splitlines() if line.startswith("\t") or (
                             _RULE_THEN.match(line)))
    if language == PACKAGE_HOOKS:  # (at a git command: the hooks its managers run)
        return package_hooks(content)
    if language == "npm":
        try:
            scripts = json.loads(content).get("scripts", {})
        except (ValueError, AttributeError):
            return "\x00unreadable"
        if not isinstance(scripts, dict):
            return "\x00unreadable"
        return "\n".join(v for v in scripts.values() if isinstance(v, str))
    return content


_ENV_LINE = re.compile(r"""(?m)^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w{0,127})[ \t]*=[ \t]*"""
                       r"""(?:"([^"\n]*)"|'([^'\n]*)'|([^\n#]*?))[ \t]*(?:#.*)?$""")
# programs that load an environment file into the command they run: the option naming
# it, and the file they read when none is named (None: only the one named); a runner the
# wing peels (`uv run --env-file F CMD`) is read so where it is peeled (shell/_wrappers)
_ENV_LOADERS: dict[str, tuple[tuple[str, ...], str | None]] = {
    "node": (("--env-file",), None), "bun": (("--env-file",), None),
    "deno": (("--env-file",), None),
    "dotenv": (("-f", "-e"), ".env"), "dotenv-cli": (("-e",), ".env"),
    "env-cmd": (("-f", "--file"), ".env"), "docker-compose": (("--env-file",), ".env"),
    "podman-compose": (("--env-file",), ".env"),  # (runners that may load the .env:
    # just's dotenv-load, Taskfile's dotenv:, pipenv always; fail closed, as if they do)
    "just": (("--dotenv-path", "--dotenv-filename"), ".env"), "task": ((), ".env"),
    "pipenv": ((), ".env")}


def env_variables(content: str) -> list[tuple[str, str]]:
    """An environment file's variables (dotenv's syntax: `K=V`, quoted or bare, `export`
    before it, comments)."""
    return [(m.group(1), next((g for g in m.groups()[1:] if g is not None), ""))
            for m in _ENV_LINE.finditer(content)]


def env_files(name: str, texts: list[str]) -> list[str]:
    """The environment files a command loads into the command it runs (`node
    --env-file=.env app.js`, `dotenv run -- CMD`, `npx dotenv-cli -- CMD`, compose's own
    .env), by their names as given."""
    if name == "npx" and texts:  # (a runner of a registry's package: the package's name)
        name, texts = texts[0], texts[1:]
    loader = _ENV_LOADERS.get(name)
    if loader is None:
        return []
    named = [v for o in loader[0] for v in option_values(texts, o)]
    return named or ([loader[1]] if loader[1] else [])


_TOX_HOME = re.compile(r"\{(?:homedir|env:HOME(?::[^}]*)?)\}")
_RULE_THEN = re.compile(r"^[^\t#=:;]+::?[^=;]*;")  # `all: dep ; CMD` (not `x := a;b`)
_NIX_STRING = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|''(.*?)''", re.S)
# a recipe line's indent and marks (`@` quiet, `-` errors ignored, make's `+` even under -n)
_RECIPE_MARKS = re.compile(r"^[ \t]+[@+\-]*[ \t]*")
_ENTRY = re.compile(r"(?m)^[ \t-]*entry:[ \t]*['\"]?(.+?)['\"]?[ \t]*$")
def key(path: str, cwd: str | None, workspace: str) -> str:
    """A file's name as the session knows it: relative to the workspace when inside."""
    joined = posixpath.normpath(posixpath.join(cwd or ".", path))
    if workspace.startswith("/") and joined.startswith("/"):
        ws = posixpath.normpath(workspace)
        if joined == ws or joined.startswith(ws.rstrip("/") + "/"):
            joined = posixpath.relpath(joined, ws)
    return joined


def under(path: str, root: str) -> bool:
    """Is the session's file ``path`` in the folder ``root`` (both as ``key`` gives)?"""
    if root == "/":
        return True
    if root == ".":
        return not path.startswith(("/", "~", ".."))
    return path.startswith(root + "/")


BUILDERS = frozenset({"docker", "podman", "nerdctl", "buildah"})  # of images
_VALUED = frozenset({"-t", "--tag", "-f", "--file", "--build-arg", "--target", "--platform",
                     "--label", "--secret", "--ssh", "--network", "--cache-from", "-o",
                     "--output"})


def built_image(cmd: Command, workspace: str, copies: Sequence[str]) -> str | None:
    """``image:NAME`` for ``docker build -t NAME DIR`` (and its kin) when DIR holds one of
    ``copies`` (files copied from secrets by earlier calls): the image carries it, and
    ``docker push NAME`` sends it."""
    if cmd.name not in BUILDERS or not copies:
        return None
    texts = [a.text for a in cmd.args]
    if not set(texts) & {"build", "bud"}:
        return None
    names = option_values(texts, "-t") + option_values(texts, "--tag")
    operands = [t for i, t in enumerate(texts) if not t.startswith("-") and t not in (
        "build", "bud", "buildx", "image") and (i == 0 or texts[i - 1] not in _VALUED)]
    root = key(operands[-1] if operands else ".", cmd.cwd, workspace).rstrip("/") or "/"
    if names and any(under(c, root) for c in copies):
        return f"image:{names[0]}"
    return None
