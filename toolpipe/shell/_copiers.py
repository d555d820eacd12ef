"""Programs that copy or rename files into a place their mode or position names, not
an option: ``cpio -p DIR`` (pass-through: the names on its input copied under DIR),
``pax -rw FILES… DIR`` (the last operand the folder written), ``pax -r`` (an archive
extracted here, or where its own names say), and ``rename EXPR FILES…`` (perl's) or
``rename FROM TO FILES…`` (util-linux's): each file renamed, which moves it away from its
name and may put it over another (``rename 's/.*/x/' ~/*`` leaves one file of many)."""

from __future__ import annotations

from toolpipe.shell._effects import Effect, handles
from toolpipe.shell._files import _extracts
from toolpipe.shell._model import Command
from toolpipe.shell._options import split as _split
from toolpipe.shell._words import Word


@handles("cpio")
def _cpio(cmd: Command) -> list[Effect]:
    """Pass-through mode writes under its one operand (``-i`` extraction is the program
    table's row: absolute names unless told otherwise; ``-D DIR`` its folder)."""
    flags, values, ops = _split(cmd.args, "DEFHIMORs", (
        "--directory", "--pattern-file", "--file", "--format", "--message", "--owner",
        "--rename-batch-file", "--io-size", "--block-size"))
    if flags & {"p", "--pass-through"} and ops:
        return _extracts(cmd, ops[-1])
    if flags & {"i", "--extract"}:
        return _extracts(cmd, values.get("D") or values.get("--directory"))
    return []


@handles("pax")
def _pax(cmd: Command) -> list[Effect]:
    """``-r -w``: a copy of the operands into the last one; ``-r``: an archive read and
    extracted here."""
    flags, _values, ops = _split(cmd.args, "bcfopsxBDEGTU", ())
    if {"r", "w"} <= flags and len(ops) >= 2:
        *sources, into = ops
        return [*_extracts(cmd, into), *(Effect("read", cmd, w) for w in sources)]
    if "r" in flags:
        return _extracts(cmd, None)
    return []


@handles("rename", "prename", "file-rename", "perl-rename", "rename.ul")
def _rename(cmd: Command) -> list[Effect]:
    r"""Every file operand is written (renamed where it is), after the expression (perl's)
    or FROM and TO (util-linux's); names plainly in the workspace are left, as its own
    work (``rename 's/\.htm$/.html/' *``: what it holds stays in it)."""
    flags, _values, ops = _split(cmd.args, "e" if cmd.name != "rename.ul" else "", (
        "--expr",))
    if flags & {"n", "--dry-run", "--no-act", "--nono", "h", "--help"}:
        return []  # only says what it would rename
    perl_like = any(a.text in ("-e", "--expr") for a in cmd.args) or (
        cmd.name != "rename.ul" and ops and ops[0].text[:1] in ("s", "y", "$") and (
            len(ops[0].text) > 1 and not ops[0].text[1:2].isalnum()))
    files = ops if any(a.text in ("-e", "--expr") for a in cmd.args) else (
        ops[1:] if perl_like else ops[2:])
    return [Effect("write", cmd, w, detail="renames") for w in files
            if not _inside(w, cmd.cwd)]


def _inside(word: Word, cwd: str | None) -> bool:
    """A name the workspace holds by its spelling, used from a folder of it: relative,
    never up (a link is the places' reading, as for any write)."""
    return word.known and not word.text.startswith(("/", "~")) and (
        ".." not in word.text.split("/")) and (cwd or ".")[:1] not in ("/", "~") and (
        ".." not in (cwd or ".").split("/"))
