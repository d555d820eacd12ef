"""Compressors: what ``gzip``, ``xz``, ``bzip2``, ``zstd``, ``lz4`` and their kin write.

``gzip FILE`` replaces FILE with FILE.gz (``-r``: every file below a folder), unless told
to keep it or to write to standard output; zstd and lz4 keep it. Decompressing
(``gunzip x.sh.gz``, ``xz -d``, ``zstd -d x.zst -o y``) writes the name without its
suffix, or the one ``-o`` gives, ``decompressed from`` the compressed file: what a
download's holds is a download's still (the session's facts follow it)."""

from __future__ import annotations

import re

from toolpipe.shell._effects import Effect, handles
from toolpipe.shell._model import Command
from toolpipe.shell._options import split as _split
from toolpipe.shell._words import Word

_UNPACKERS = frozenset({"gunzip", "bunzip2", "unxz", "unlzma", "unpigz", "uncompress",
                        "unzstd", "unlz4"})
_KEEPERS = frozenset({"zstd", "unzstd", "lz4", "unlz4"})  # the input stays unless told
_PACKED = {"bzip2": ".bz2", "xz": ".xz", "lzma": ".lzma", "zstd": ".zst", "lz4": ".lz4",
           "compress": ".Z", "lzip": ".lz"}  # (gzip's and pigz's: .gz)
_SUFFIX = re.compile(r"(?:\.t(gz|bz2?|xz|zst|lz|az))$|\.(?:gz|z|Z|xz|lzma|bz2?|lz|zst|lz4|br)$")


@handles("gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma", "pigz",
         "unpigz", "compress", "uncompress", "lzip", "zstd", "unzstd", "lz4", "unlz4")
def _compress(cmd: Command) -> list[Effect]:
    flags, values, ops = _split(cmd.args, "So", ("--suffix", "--output"))
    if flags & {"c", "l", "t", "--stdout", "--to-stdout", "--list", "--test", "--help",
                "--version", "h", "V", "L"}:
        return []
    unpacks = cmd.name in _UNPACKERS or bool(flags & {"d", "--decompress", "--uncompress"})
    named = values.get("o") or values.get("--output")
    if cmd.name in ("lz4", "unlz4") and named is None and len(ops) == 2 and not flags & {
            "m", "--multiple"}:  # lz4 IN OUT: the second operand is the file written
        named, ops = ops[1], ops[:1]
    suffix = values.get("S") or values.get("--suffix")
    out: list[Effect] = [Effect("read", cmd, w, detail="operand") for w in ops]
    for w in ops:
        if named is not None:  # zstd -d x.zst -o y, lz4 -d x.lz4 -o y
            out.append(Effect("write", cmd, named, detail=f"made from {w.shown}"))
        elif unpacks and w.known and _SUFFIX.search(w.text):
            plain = _SUFFIX.sub(lambda m: ".tar" if m.group(1) else "", w.text)
            out.append(Effect("write", cmd, Word(plain, w.raw, w.glob, w.tame, w.sources),
                              detail=f"decompressed from {w.text}"))
        elif not unpacks and w.known:  # gzip k: k.gz, what k held (a secret's copy stays one)
            packed = w.text + (suffix.text if suffix is not None else _PACKED.get(
                cmd.name, ".gz"))
            out.append(Effect("write", cmd, Word(packed, w.raw, w.glob, w.tame, w.sources),
                              detail=f"compressed from {w.text}"))
    if not (flags & {"k", "--keep"} or cmd.name in _KEEPERS):
        recursive = bool(flags & {"r", "--recursive"})
        out += [Effect("write", cmd, w, recursive=recursive, detail="replaces with a "
                       "compressed copy") for w in ops]
    return out
