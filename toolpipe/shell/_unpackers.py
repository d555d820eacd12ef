"""Archives unpacked where a program's mode or position says, not a ``-C``-like option
read by ``_files``: ``ar x`` (the current folder, or ``--output DIR``), ``jar x`` (the
current folder, or ``-C DIR``/``--dir DIR``), ``dpkg-deb -x ARCHIVE DIR`` (and dpkg's
``-x``, which it hands to dpkg-deb), python's ``-m zipfile -e ARCHIVE DIR`` and ``-m
tarfile -e ARCHIVE [DIR]``, and extractors told a folder by an option (cabextract,
unsquashfs, unar, aunpack). Each writes names it cannot know under that folder
(``_files._extracts``): in the workspace its own files, anywhere else whatever is there
(the fourteenth sitting's held-out file: `cd ~ && ar x /tmp/payload.a`, `dpkg-deb -x
/tmp/pkg.deb /`, `python3 -m zipfile -e /tmp/dotfiles.zip ~` were allowed)."""

from __future__ import annotations

from toolpipe.shell._effects import Effect, handles
from toolpipe.shell._files import _extracts
from toolpipe.shell._model import Command
from toolpipe.shell._options import split as _split
from toolpipe.shell._words import Word

_AR_OPERATIONS = "dmpqrtx"  # (the key's one operation letter; the rest are modifiers)


@handles("ar")
def _ar(cmd: Command) -> list[Effect]:
    """``ar KEY [--output DIR] [MEMBER] ARCHIVE FILES…``: ``x`` extracts, ``r``, ``q``,
    ``d`` and ``m`` write the archive (after a position member with ``a``, ``b``, ``i``,
    and a count with ``N``)."""
    flags, values, ops = _split(cmd.args, "", ("--output", "--plugin", "--target"))
    key = ""
    if ops and not cmd.args[0].text.startswith("-"):
        key, ops = ops[0].text, ops[1:]  # (`ar x A`: a key without a dash)
    else:
        key = "".join(f for f in flags if len(f) == 1)
    operation = next((c for c in key if c in _AR_OPERATIONS), "")
    if operation == "x":
        return _extracts(cmd, values.get("--output"))
    at = (1 if set(key) & set("abi") else 0) + (1 if "N" in key else 0)
    if operation in ("r", "q", "d", "m") and len(ops) > at:
        return [Effect("write", cmd, ops[at], detail="its archive")]
    return []


@handles("jar")
def _jar(cmd: Command) -> list[Effect]:
    """``jar xf A`` (``-xf``, ``-x -f A``, ``--extract``) unpacks here or under ``-C
    DIR`` (``--dir DIR``); ``jar cf A FILES`` writes A."""
    texts = [a.text for a in cmd.args]
    first = texts[0].lstrip("-") if texts and not texts[0].startswith("--") else ""
    if not ("x" in first or "--extract" in texts or "-x" in texts):
        # `jar cf A FILES` (`uf`): the archive written, the first operand after the key
        if set(first) & set("cu") and "f" in first and len(texts) > 1:
            return [Effect("write", cmd, cmd.args[1], detail="its archive")]
        return []
    _, values, _ = _split(cmd.args, "C", ("--dir", "--file"))
    return _extracts(cmd, values.get("C") or values.get("--dir"))


_DEB_EXTRACTS = ("-x", "--extract", "-X", "--vextract", "-R", "--raw-extract", "-e",
                 "--control")


@handles("dpkg-deb")
def _dpkg_deb(cmd: Command) -> list[Effect]:
    """``dpkg-deb -x ARCHIVE DIR`` (``-X``, ``-R``; ``-e ARCHIVE [DIR]``: its control
    files, under ``DEBIAN`` here without one)."""
    texts = [a.text for a in cmd.args]
    if not any(t in _DEB_EXTRACTS for t in texts):
        return []
    ops = [a for a in cmd.args if not a.text.startswith("-")]
    if len(ops) < 2 and not any(t in ("-e", "--control") for t in texts):
        return []
    return _extracts(cmd, ops[1] if len(ops) > 1 else Word("DEBIAN", "DEBIAN"))


@handles("dpkg", partly=True)
def _dpkg(cmd: Command) -> list[Effect]:
    """dpkg's ``-x``, ``-X`` and ``-e`` are dpkg-deb's (``-R`` is dpkg's recursion)."""
    if not any(a.text in ("-x", "--extract", "-X", "--vextract", "-e", "--control")
               for a in cmd.args):
        return []
    return _dpkg_deb(cmd)


@handles("python", "python3", "python2", "pypy", "pypy3", partly=True)
def _python_unpacks(cmd: Command) -> list[Effect]:
    """``python3 -m zipfile -e A DIR``, ``-m tarfile -e A [DIR]`` (``--extract``)."""
    texts = [a.text for a in cmd.args]
    at = next((i for i, t in enumerate(texts[:-1]) if t == "-m"), None)
    if at is None or texts[at + 1] not in ("zipfile", "tarfile"):
        return []
    rest = cmd.args[at + 2:]
    k = next((i for i, a in enumerate(rest) if a.text in ("-e", "--extract")), None)
    if k is None or k + 1 >= len(rest):
        return []
    into = rest[k + 2] if k + 2 < len(rest) else None
    if into is None and texts[at + 1] == "zipfile":
        return []  # (zipfile needs its folder: a usage error)
    return _extracts(cmd, into)


# Extractors that unpack into a folder an option names (here without it, or a folder of
# their own there), unless told only to list or test: (folder options, default, listing).
_EXTRACTORS: dict[str, tuple[tuple[str, ...], str, frozenset[str]]] = {
    "cabextract": (("-d", "--directory"), "", frozenset({"-l", "--list", "-t", "--test"})),
    "unsquashfs": (("-d", "-dest"), "squashfs-root", frozenset({
        "-l", "-ls", "-ll", "-lls", "-lc", "-llc", "-s", "-stat", "-h", "-help"})),
    "unar": (("-o", "-output-directory", "--output-directory"), "", frozenset()),
    "aunpack": (("-X", "--extract-to"), "", frozenset()),
    "atool": (("-X", "--extract-to"), "", frozenset()),
}


@handles(*_EXTRACTORS)
def _extractor(cmd: Command) -> list[Effect]:
    """``cabextract -d DIR``, ``unsquashfs -d DIR``, ``unar -o DIR``, ``aunpack -X DIR``
    (atool only with ``-x`` or ``-X``)."""
    options, default, listing = _EXTRACTORS[cmd.name]
    texts = [a.text for a in cmd.args]
    if set(texts) & listing or (cmd.name == "atool" and not set(texts) & {
            "-x", "--extract", "-X"} and not any(t.startswith("--extract") for t in texts)):
        return []
    into: Word | None = Word(default, default) if default else None
    for i, a in enumerate(cmd.args):
        for option in options:
            if a.text == option and i + 1 < len(cmd.args):
                into = cmd.args[i + 1]
            elif a.text.startswith(option + "=") and option.startswith("--"):
                into = Word(a.text[len(option) + 1:], a.raw, a.glob, a.tame, a.sources)
    return _extracts(cmd, into)
