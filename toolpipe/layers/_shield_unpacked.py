"""Files of names not known that a command puts into the project from elsewhere: a
downloaded archive unpacked (a file's, or one a download feeds: `curl … | tar xz`), a
stranger's files pulled into a folder (oras, degit, a model's download), a patch a
download feeds; read by the session's flow (``_shield_flow``) as downloads, or as the
project changed by a downloaded patch when they land here."""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from toolpipe.layers._shield_projects import key
from toolpipe.shell import DOWNLOADERS, Command, option_values

ARCHIVES = (".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar", ".zip", ".whl")


# programs that fetch a stranger's files, of names not known, into a folder: its option
# (none: here, or the source's last part for degit), after these first words
_PULLERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "oras": (("pull",), ("-o", "--output")), "degit": ((), ()), "tiged": ((), ()),
    "huggingface-cli": (("download",), ("--local-dir",)), "hf": (("download",),
                                                                 ("--local-dir",))}
PULLERS = frozenset(_PULLERS)
UNPACKERS = frozenset({"pip", "pip3", "npm", "yarn", "pnpm", "bun", "tar", "gtar", "bsdtar",
                       "unzip", "7z", "7za"}) | PULLERS  # the programs ``unpacked`` reads


def tar_archive(texts: list[str]) -> str | None:
    """The archive a tar command names: `-f F`, `--file F`, `--file=F`, `-czf F`, or the
    old form's `tar xzf F` (its first word holding f)."""
    named = next(iter(option_values(texts, "-f") + option_values(texts, "--file")), None)
    if named is None:
        named = next((texts[i + 1] for i, t in enumerate(texts[:-1])
                      if t.startswith("-") and not t.startswith("--") and t.endswith("f")),
                     None)
    if named is None and texts and "f" in texts[0] and not texts[0].startswith("-"):
        named = texts[1] if len(texts) > 1 else None  # tar xzf tool.tgz
    return named


PATCHED_BY = " (unpacked here)"  # an archive unpacked into the project: a downloaded patch


def _pulled(cmd: Command, texts: list[str], workspace: str) -> list[str]:
    """Where a puller (``_PULLERS``) puts a stranger's files: the folder its option names,
    a degit's second operand or its source's last part; else here, as an archive unpacked
    here is (`oras pull REF`: a downloaded patch of the project, marked by REF)."""
    first, options = _PULLERS[cmd.name]
    if texts[:len(first)] != list(first):
        return []
    into = next((texts[i + 1] for i, t in enumerate(texts[:-1]) if t in options), None)
    operands = [t for t in texts[len(first):] if not t.startswith("-")]
    if into is None and not options and operands:  # degit SRC [DIR]
        into = operands[1] if len(operands) > 1 else posixpath.basename(
            operands[0].split("#", 1)[0].rstrip("/"))
    if into is not None:
        return [key(into, cmd.cwd, workspace)]
    if cmd.name.startswith(("huggingface", "hf")) or not operands:
        return []  # (into its cache)
    return [key(operands[0], cmd.cwd, workspace) + PATCHED_BY]


def downloaded_input(cmd: Command) -> str | None:
    """What a command reads on its input when a download feeds it (`curl URL | tar xz`,
    `wget -qO- URL | patch -p0`): the address's last part, which names it; else None."""
    for feeder in cmd.upstream:
        if feeder.name in DOWNLOADERS:
            url = next((a.text for a in feeder.args if "://" in a.text), "")
            return posixpath.basename(url.split("?", 1)[0].rstrip("/")) or "a download"
    return None


def unpacked(cmd: Command, workspace: str, fetched: Callable[[str], bool]) -> list[str]:
    """Where a downloaded archive is unpacked (a file the session downloaded, or the
    download piped in), where ``pip download`` and ``npm pack NAME`` put what they fetch,
    and where a puller (``_PULLERS``) puts a stranger's files: a downloaded folder (its
    files' names are not known; everything under it is), as a clone's is. Unpacked into
    the current folder, the archive's own name stands for the folder it makes
    (``tool.tgz`` → ``tool/``). ``fetched``: whether the session knows a file (by its key)
    as downloaded."""
    if cmd.name not in UNPACKERS:
        return []
    texts = [a.text for a in cmd.args]
    if cmd.name in ("pip", "pip3") and texts[:1] == ["download"]:
        dest = next((texts[i + 1] for i, t in enumerate(texts[:-1])
                     if t in ("-d", "--dest")), None)
        return [key(dest, cmd.cwd, workspace)] if dest else []
    if cmd.name in ("npm", "yarn", "pnpm", "bun") and texts[:1] == ["pack"] and any(
            not t.startswith(("-", ".", "/")) for t in texts[1:]):
        # npm pack NAME fetches NAME's tarball, which unpacks into package/
        return [key("package", cmd.cwd, workspace)]
    if cmd.name in _PULLERS:
        return _pulled(cmd, texts, workspace)
    if cmd.name in ("tar", "gtar", "bsdtar"):
        extracting = any((t.startswith("-") and "x" in t) or t == "--extract" or (
            i == 0 and "x" in t and not t.startswith("-")) for i, t in enumerate(texts))
        archive = tar_archive(texts)
        into = next((texts[i + 1] for i, t in enumerate(texts[:-1])
                     if t in ("-C", "--directory")), None)
    elif cmd.name in ("unzip", "7z", "7za"):
        extracting = cmd.name == "unzip" or texts[:1] in (["x"], ["e"])
        operands = [t for t in texts if not t.startswith("-")]
        archive = operands[1] if cmd.name != "unzip" and len(operands) > 1 else (
            operands[0] if operands else None)
        into = next((texts[i + 1] for i, t in enumerate(texts[:-1]) if t == "-d"), None) or (
            next((t[2:] for t in texts if t.startswith("-o") and len(t) > 2), None))
    else:
        return []
    if extracting and archive in (None, "-"):  # read from its input: `curl … | tar xz`
        archive = downloaded_input(cmd)
        if archive is None:
            return []
    elif not extracting or archive is None or not fetched(key(archive, cmd.cwd, workspace)):
        return []
    folder = into or next((posixpath.basename(archive)[:-len(x)] for x in ARCHIVES
                           if archive.endswith(x)), None)
    # unpacked here, it may hold files at its top too (`./install.sh`): the project is
    # changed as by a downloaded patch (marked by the archive's name, `PATCHED_BY`)
    here = [] if into else [key(archive, cmd.cwd, workspace) + PATCHED_BY]
    return [key(folder, cmd.cwd, workspace), *here] if folder else here
