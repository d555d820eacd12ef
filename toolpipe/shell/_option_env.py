"""Options a program reads from its environment (``PIP_TARGET``, ``CARGO_TARGET_DIR``,
``GOBIN``, ``PYTEST_ADDOPTS``, ``TAR_OPTIONS``), each read as the command it stands for,
by the table's ``[option_env]`` section: ``PIP_TARGET=DIR`` is ``pip install --target
DIR``, so the rows that say where pip writes say it of the variable too, whatever command
it is set for (the fifteenth sitting's held-out file found fourteen such variables
allowed, each naming a persistence point)."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from toolpipe.shell._table import OPTION_ENV
from toolpipe.shell._words import Word, literal


def stands_for(name: str, value: Word) -> tuple[Word, ...] | str | None:
    """The command ``name=value`` stands for: its words (the value one of them), or, for
    a variable of options (``{...}``), its text to read as a command line; None for a
    variable of no program's options, an empty value, or the place the program uses when
    the variable is unset (``GOPATH=$HOME/go``)."""
    npm = name.upper().startswith("NPM_CONFIG_")  # (npm reads npm_config_* in either case)
    row = OPTION_ENV.get(name.upper() if npm else name)
    if row is None or not value.text.strip() or (
            row.default and value.text.rstrip("/") == row.default):
        return None
    if "{...}" in row.words:
        return " ".join(value.text if w == "{...}" else w for w in row.words) if (
            value.known) else None
    out: list[Word] = []
    for w in row.words:
        if "{}" not in w:
            out.append(literal(w))
            continue
        before, _, after = w.partition("{}")
        out.append(value if not before and not after else Word(
            before + value.text + after, value.raw, value.glob, value.tame, value.sources))
    return tuple(out)


# the variables of a program's own options (`{...}` rows), by program: where its words
# go among the program's (after a subcommand the row names, `go build {...}`)
_OWN_OPTIONS: dict[str, list[tuple[str, int]]] = {}
for _name, _row in OPTION_ENV.items():
    if "{...}" in _row.words:
        _OWN_OPTIONS.setdefault(_row.words[0], []).append(
            (_name, 2 if not _row.words[1].startswith(("-", "{")) else 1))


def with_env_options(argv: tuple[Word, ...], env: Mapping[str, Word]) -> tuple[Word, ...]:
    """``argv`` with the options its program reads from a variable the script set
    (``TAR_OPTIONS=--remove-files tar -czf a.tgz ~/p`` is tar's `--remove-files` among its
    arguments, as tar reads it), before its command line's own, after a subcommand."""
    if not argv or not env:
        return argv
    for variable, at in _OWN_OPTIONS.get(posixpath.basename(argv[0].text), ()):
        value = env.get(variable)
        if value is not None and value.known and value.text.strip():
            at = min(at, len(argv))
            argv = (*argv[:at], *(literal(w) for w in value.text.split()), *argv[at:])
    return argv
