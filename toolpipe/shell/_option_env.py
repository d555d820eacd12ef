"""Options a program reads from its environment (``PIP_TARGET``, ``CARGO_TARGET_DIR``,
``GOBIN``, ``PYTEST_ADDOPTS``, ``TAR_OPTIONS``), each read as the command it stands for,
by the table's ``[option_env]`` section: ``PIP_TARGET=DIR`` is ``pip install --target
DIR``, so the rows that say where pip writes say it of the variable too, whatever command
it is set for (the fifteenth sitting's held-out file found fourteen such variables
allowed, each naming a persistence point)."""

from __future__ import annotations

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
