"""What a command substitution prints when it is plain to read: ``$(echo rm)``, ``$(printf
'%s' x)``, ``$(which rm)`` (the program's own name), ``$(dirname build/x)``; and the word
that stands for several values (their common folder, then something unknown)."""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterator, Sequence

from toolpipe.shell._model import Command
from toolpipe.shell._words import UNKNOWN, Word, ansi_c, literal, shell_word


def _unknown_of(values: Sequence[Word]) -> Word:
    """One word standing for several: their common directory, then something unknown."""
    texts = [v.text.split(UNKNOWN, 1)[0] for v in values]
    prefix = posixpath.commonpath(texts) if texts and all(texts) and len(
        {t.startswith("/") for t in texts}) == 1 else ""
    prefix = prefix + "/" if prefix and not prefix.endswith("/") else prefix
    return Word(prefix + UNKNOWN, " ".join(v.raw for v in values), tame=bool(prefix))


def _locates(cmd: Command) -> bool:
    """``which NAME``, ``command -v NAME``, ``type -P NAME``: prints where NAME is."""
    texts = [a.text for a in cmd.args]
    if not texts or not cmd.args[-1].known or texts[-1].startswith("-") or "/" in texts[-1]:
        return False
    return (cmd.name == "which" and len(texts) == 1) or (
        cmd.name in ("command", "type") and texts[:-1] in (["-v"], ["-P"], ["-p"]))


def _echoed(ran: Sequence[Command]) -> str | None:
    """``$(echo rm)``, ``$(printf rm)``: a substitution whose output is plain to read;
    ``$(which rm)``, ``$(command -v rm)``: the program's own name (the path it prints ends
    with it)."""
    if len(ran) == 1 and not ran[0].redirects and _locates(ran[0]):
        return ran[0].args[-1].text
    if len(ran) == 1 and not ran[0].redirects and ran[0].name in ("dirname", "basename"):
        return _path_part(ran[0])
    if len(ran) == 1 and not ran[0].redirects and ran[0].name in _RESOLVERS:
        return _resolved(ran[0])
    if len(ran) != 1 or ran[0].name not in ("echo", "printf") or ran[0].redirects:
        return None
    args = [a for a in ran[0].args]
    if not all(a.known for a in args) or (args and args[0].text.startswith("-")):
        return None
    if ran[0].name == "printf":  # (see ``printf_output``)
        return printf_output(ansi_c(args[0].text), [a.text for a in args[1:]]) if args else None
    return " ".join(a.text for a in args)


def _path_part(cmd: Command) -> str | None:
    """``dirname PATH``, ``basename PATH [SUFFIX]``: their output, for a known path that
    names a place of its own (``.``, ``..``, ``~`` or a path above this folder: not known,
    for ``$PWD`` is read as ``.`` here, where dirname would print the folder above it)."""
    args = [a.text for a in cmd.args]
    if not args or not all(a.known for a in cmd.args) or args[0].startswith("-") or len(
            args) > (2 if cmd.name == "basename" else 1):
        return None
    text, place = args[0], posixpath.normpath(args[0])
    if place in (".", "..") or place.startswith("../") or "*" in text or (
            place.startswith("~") and "/" not in place):
        return None  # (`dirname ~`: the folder above the home, not known here)
    stripped = text.rstrip("/") or "/"  # as coreutils reads it: by the text, not the place
    if cmd.name == "basename":
        base = stripped.rsplit("/", 1)[-1] or "/"
        return base[:-len(args[1])] if len(args) == 2 and base.endswith(args[1]) and (
            base != args[1]) else base
    if "/" not in stripped:
        return "."
    return stripped.rsplit("/", 1)[0].rstrip("/") or "/"


# programs that print a path resolved (`realpath P`, `readlink -f P`): the place P names,
# read as P itself (a link's far end aside: the flow knows the links the session makes),
# and the options that keep them printing it; readlink alone prints a link's text
_RESOLVERS = frozenset({"realpath", "grealpath", "readlink", "greadlink"})
_RESOLVING = frozenset({"-e", "-m", "-s", "-q", "-L", "-P", "-f", "-n", "-v",
                        "--canonicalize", "--canonicalize-existing", "--canonicalize-missing",
                        "--strip", "--no-symlinks", "--logical", "--physical", "--quiet",
                        "--no-newline", "--verbose", "--"})


def _resolved(cmd: Command) -> str | None:
    flags = [a.text for a in cmd.args if a.text.startswith("-")]
    operands = [a for a in cmd.args if not a.text.startswith("-")]
    if len(operands) != 1 or not operands[0].known or not set(flags) <= _RESOLVING or (
            cmd.name.endswith("readlink") and not set(flags) & {
                "-f", "-e", "-m", "--canonicalize", "--canonicalize-existing",
                "--canonicalize-missing"}):
        return None
    return operands[0].text


plain_output = _echoed  # what `echo` or `printf` prints, when plain to read (else None)


# printf's conversions read here (``%b``: its argument's escapes read; ``%q``: it quoted
# to be read again as one word) and its percent sign; any other conversion is not read
_FORMAT = re.compile(r"%[sdbq%]")
_OTHER = re.compile(r"%(?![sdbq%])")


def escapes_read(text: str) -> str:
    """``%b``'s and ``echo -e``'s escapes: ``$'…'``'s (``\\x72``, ``\\n``), but for the
    octal byte after a zero (``\\0162``: ``r``)."""
    return ansi_c(re.sub(r"\\0([0-7]{1,3})", r"\\\1", text))


def printf_output(fmt: str, values: Sequence[str]) -> str | None:
    """What ``printf FORMAT ARGS…`` prints, FORMAT's escapes read (``ansi_c``): ``%s``,
    ``%d``, ``%b``, ``%q`` and ``%%`` only, the format used again while arguments remain and a
    missing one empty, as bash does (``printf '%s\\n' build dist``: two lines); None for
    another conversion, a ``%b`` argument's ``\\c`` (the end of all output) or an escape
    not read."""
    if _OTHER.search(fmt) or ("%b" in fmt and any("\\c" in v for v in values)):
        return None
    wanted = len(_FORMAT.findall(fmt.replace("%%", "")))
    rest, out = list(values), []
    while True:
        given, rest = iter(rest[:wanted]), rest[wanted:]
        out.append(_FORMAT.sub(functools.partial(_filled, given=given), fmt))
        if not rest or not wanted:
            text = "".join(out)
            return None if UNKNOWN in text else text


def _filled(conversion: re.Match[str], given: Iterator[str]) -> str:
    if conversion.group(0) == "%%":
        return "%"
    value = next(given, "")
    if conversion.group(0) == "%q":
        return shell_word(value)
    return escapes_read(value) if conversion.group(0) == "%b" else value


def printed(words: tuple[Word, ...]) -> Word:
    """What ``printf -v VAR FORMAT ARGS…`` puts in VAR (see ``printf_output``), its words
    known; anything else is not known."""
    fmt, *args = words
    text = printf_output(ansi_c(fmt.text), [a.text for a in args]) if all(
        w.known for w in words) else None
    if text is None:
        return _unknown_of(list(words))
    return Word(text, text, False, all(w.tame for w in words),
                tuple(s for w in words for s in w.sources))


def fed_input(cmd: Command) -> list[tuple[str, Word]]:
    """What a command is given on its input, where it can be read (labelled as the reason
    says it): its here-documents and here-strings, a here-document given to a bare ``cat``
    before it, a plain ``echo`` or ``printf`` piped to it. Read alike by the shells'
    reading (``_carried``), the code table's clients' and the transfer clients' commands
    (``_transfers``)."""
    feeds = [(f"here-document to {cmd.name}", data) for data in cmd.stdin_data]
    last = cmd.upstream[-1] if cmd.upstream else None
    if last is not None and last.name == "cat" and not last.args and last.stdin_data:
        feeds += [(f"here-document | {cmd.name}", d) for d in last.stdin_data]
    if cmd.upstream and not feeds:
        echoed = _echoed(cmd.upstream[-1:])
        if echoed is not None and len(cmd.upstream) == 1:
            feeds.append((f"{cmd.upstream[0].name} | {cmd.name}", literal(echoed)))
    return feeds
