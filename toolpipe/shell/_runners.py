"""Package runners and project environments: programs that run a command line they are
given after a subcommand word (or none) and their options (``npx rimraf ~``, ``npm exec
-- CMD``, ``uv run CMD``, ``poetry run CMD``, ``conda run -n E CMD``); ``peel``
(``_wrappers``) peels them off at ``runner_start``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from toolpipe.shell._words import Word, literal

# their options that take a value (package runners: the package's program and its
# arguments; project environments: the environment, the project)
_ENV_VALUED = frozenset({"-n", "--name", "-p", "--prefix", "--python", "--with", "--from",
                         "--project", "--directory", "--spec", "--package", "-w",
                         "--workspace", "--env-file", "-e", "--env"})
RUNNERS: dict[str, frozenset[str]] = {  # the subcommand word that runs (none: the program)
    "npx": frozenset(), "bunx": frozenset(), "pnpx": frozenset(), "uvx": frozenset(),
    "npm": frozenset({"exec", "x"}), "pnpm": frozenset({"dlx", "exec"}),
    "yarn": frozenset({"dlx", "exec"}), "bun": frozenset({"x"}), "pipx": frozenset({"run"}),
    "uv": frozenset({"run", "tool"}), "poetry": frozenset({"run"}),
    "pipenv": frozenset({"run"}), "pdm": frozenset({"run"}), "hatch": frozenset({"run"}),
    "rye": frozenset({"run"}), "conda": frozenset({"run"}), "mamba": frozenset({"run"}),
    "micromamba": frozenset({"run"}),
    # a namespace's shell, a folder's environment (`direnv exec DIR CMD`: DIR first)
    "podman": frozenset({"unshare"}), "buildah": frozenset({"unshare"}),
    "direnv": frozenset({"exec"}),
}
_RUNNER_OPERANDS = {"direnv": 1}  # operands between the subcommand and the command
# the options that name the project's folder (or an environment's, whose programs run):
# the command is judged as run there (`poetry -C /tmp/x run pytest`: /tmp/x's tests and
# its plugins), before the subcommand or after it
RUNNER_FOLDERS: dict[str, frozenset[str]] = {
    "uv": frozenset({"--directory", "--project"}),
    "poetry": frozenset({"-C", "--directory", "-P", "--project"}),
    "pdm": frozenset({"-p", "--project"}), "rye": frozenset({"--pyproject"}),
}
# an environment named by its folder, whose programs run (`conda run -p /tmp/env python`:
# /tmp/env/bin/python)
_PREFIXES: dict[str, frozenset[str]] = dict.fromkeys(
    ("conda", "mamba", "micromamba"), frozenset({"-p", "--prefix"}))
# the options before the subcommand that take a value (`uv --directory D run`, `pdm -p D
# run`, `poetry -C D run`)
_BEFORE_VALUED = _ENV_VALUED | {"-C", "-P", "--config-file", "--cache-dir", "--config",
                                "--pyproject"}
# the options naming the package whose program runs: a local folder or archive there is
# installed first (its build code runs), read as `pip install P` or `npm install P`
_SOURCES: dict[str, frozenset[str]] = {
    **dict.fromkeys(("uvx", "uv"), frozenset({"--from", "--with"})),
    "pipx": frozenset({"--spec"}),
    **dict.fromkeys(("npx", "bunx", "pnpx", "npm", "pnpm", "yarn", "bun"),
                    frozenset({"-p", "--package"}))}
_INSTALLER = {"uvx": ("pip", "install"), "uv": ("pip", "install"),
              "pipx": ("pip", "install")}  # (the rest: npm's)
_PACKAGE_SPEC = re.compile(r"://|^git\+|^(?:github|gitlab|bitbucket|file):|\.(?:tgz|tar\.gz|whl)$")


class RunnerStart(NamedTuple):
    """Where a runner's command starts among its arguments (None: nothing to run, or a
    package fetched by its address, judged by its row), the command line it is given
    instead (``npx -c 'CMD'``), the files it loads first (``uv run --env-file F``), the
    folder it runs the command in (``RUNNER_FOLDERS``; None: where it is), and its name."""

    start: int | None
    code: Word | None = None
    loads: tuple[tuple[str, tuple[Word, ...]], ...] = ()
    chdir: Word | None = None
    name: str = ""  # the runner's name, where it runs as another (`uv tool run`: uvx)
    programs: Word | None = None  # the folder its command's program is from (_PREFIXES)


def runner_start(name: str, args: Sequence[Word]) -> RunnerStart:
    subcommands = RUNNERS[name]
    i = 0
    folders = RUNNER_FOLDERS.get(name, frozenset())
    chdir = None
    if subcommands:
        while i < len(args) and args[i].text.startswith("-") and args[i].text != "--":
            chdir = _folder(args, i, folders) or chdir
            i += 2 if args[i].text in _BEFORE_VALUED else 1
        if i >= len(args) or args[i].text not in subcommands:
            return RunnerStart(None, chdir=chdir)
        if args[i].text == "tool":  # uv tool run CMD (not uv tool install): uvx
            if i + 1 >= len(args) or args[i + 1].text != "run":
                return RunnerStart(None, chdir=chdir)
            i, name = i + 2, "uvx"
        else:
            i += 1 + _RUNNER_OPERANDS.get(name, 0)
    by_address = False  # npx https://…/pkg.tgz, pipx run --spec git+…: a row's
    programs = None
    loads: list[tuple[str, tuple[Word, ...]]] = []
    while i < len(args) and args[i].text.startswith("-") and args[i].text != "-":
        t = args[i].text
        if t == "--":
            i += 1
            break
        if t in ("-c", "--call") and i + 1 < len(args):  # npx -c 'CMD': a line
            return RunnerStart(None, args[i + 1], tuple(loads), chdir)
        chdir = _folder(args, i, folders) or chdir
        programs = _folder(args, i, _PREFIXES.get(name, frozenset())) or programs
        source = _folder(args, i, _SOURCES.get(name, frozenset()))
        if source is not None and source.text.startswith(("/", "./", "../", "~")) and (
                not _PACKAGE_SPEC.search(source.text)):  # (an address: its row's)
            loads.append((f"{name} {t.split('=', 1)[0]}", (
                *map(literal, _INSTALLER.get(name, ("npm", "install"))), source)))
        value = t.split("=", 1)[1] if "=" in t else (
            args[i + 1].text if (t in _ENV_VALUED or t in folders) and i + 1 < len(args) else "")
        if t.split("=", 1)[0] == "--env-file" and value:
            loads.append((f"{name} --env-file", (literal("source"), literal(value))))
        by_address = by_address or bool(_PACKAGE_SPEC.search(value))
        i += 2 if t in _ENV_VALUED or t in folders else 1
    if i >= len(args) or not args[i].known or by_address or _PACKAGE_SPEC.search(
            args[i].text):
        return RunnerStart(None, None, tuple(loads), chdir)
    return RunnerStart(i, None, tuple(loads), chdir, name, programs)


def _folder(args: Sequence[Word], i: int, folders: frozenset[str]) -> Word | None:
    """The folder option ``args[i]`` names (``--directory D``, ``--directory=D``), if any."""
    option, eq, value = args[i].text.partition("=")
    if option not in folders:
        return None
    if eq:
        return Word(value, args[i].raw, args[i].glob, args[i].tame, args[i].sources)
    return args[i + 1] if i + 1 < len(args) else None
