"""Sizes and endless output: what a write of a command may take of the disk.

``yes > f`` and ``cat /dev/zero > f`` write without end; ``dd bs=1G count=500`` and
``head -c 900G /dev/zero`` are bounded, by a bound no disk holds. Both fill the disk.
"""

from __future__ import annotations

import re

from toolpipe.shell._model import Command

# sources whose reading never ends
ENDLESS_SOURCES = frozenset({"/dev/zero", "/dev/urandom", "/dev/random", "/dev/full"})
_UNITS = {"": 1, "c": 1, "w": 2, "b": 512, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30,
          "t": 1 << 40, "p": 1 << 50, "kb": 1000, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "pb": 10**15, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}
HUGE = 8 << 30  # bytes a single write may take before it is filling the disk
_SIZE = re.compile(r"([0-9]+)([a-zA-Z]{0,3})")


def size_of(text: str) -> int | None:
    """Bytes a size spells (``900G``, ``2T``, ``512``, ``10MB``), as dd, head, truncate and
    fallocate read one; ``None``: not a size."""
    m = _SIZE.fullmatch(text)
    if m is None or m.group(2).lower() not in _UNITS:
        return None
    return int(m.group(1)) * _UNITS[m.group(2).lower()]


def _reads_endless(cmd: Command) -> bool:
    return any(a.text in ENDLESS_SOURCES for a in cmd.args) or any(
        r.reads and r.target is not None and r.target.text in ENDLESS_SOURCES
        for r in cmd.redirects) or (bool(cmd.upstream) and endless(cmd.upstream[-1]))


def _count(cmd: Command) -> int | None:
    """``head -c 900G``, ``head --bytes=900G``: the bytes ``head`` keeps."""
    args = [a.text for a in cmd.args]
    for i, t in enumerate(args):
        value = (args[i + 1] if t in ("-c", "--bytes") and i + 1 < len(args) else
                 t[2:] if t.startswith("-c") and len(t) > 2 else
                 t[8:] if t.startswith("--bytes=") else None)
        if value is not None:
            return size_of(value)
    return None


def endless(cmd: Command) -> bool:
    """A command whose output never ends, or ends past what a disk holds: ``yes``, ``cat
    /dev/zero``, ``head -c 900G /dev/zero`` (a file it is written to fills the disk)."""
    if cmd.name == "yes" or (cmd.name in ("cat", "tail") and any(
            a.text in ENDLESS_SOURCES for a in cmd.args)):
        return True
    if cmd.name == "head":
        count = _count(cmd)
        return count is not None and count >= HUGE and _reads_endless(cmd)
    return False


def huge_dd(cmd: Command) -> bool:
    """``dd bs=1G count=500``: tens of gigabytes or more; or no count at all, from an
    endless source (``dd if=/dev/zero of=f``)."""
    got = {k: v for k, _, v in (a.text.partition("=") for a in cmd.args)}
    if "count" not in got and got.get("if") in ENDLESS_SOURCES:
        return True
    bs, count = size_of(got.get("bs", "")), size_of(got.get("count", ""))
    return bs is not None and count is not None and bs * count >= HUGE
