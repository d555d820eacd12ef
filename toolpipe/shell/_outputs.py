"""Where a program writes what it makes, by the program table's ``[[output]]`` rows: the
file an option names (``gcc -o F``, ``pandoc -o F``, ``docker save -o F``), the folder an
option names, under which it makes files it names itself (``javac -d DIR``, ``pip install
--target DIR``, ``cargo install --root DIR``), and an operand (``git clone URL DIR``,
``docker cp SRC DST``), and every file it rewrites in place (``prettier --write F``,
``black F``). Each is a write, judged by where it lands as any write is (the
fourteenth sitting's second held-out file: `go build -o ~/.local/bin/ls`, `git clone URL
~/.config/autostart`, `pip install --target` a user site were allowed: a compiler, an
installer or a clone had been inert)."""

from __future__ import annotations

import re

from toolpipe.shell._model import Command
from toolpipe.shell._table import OUTPUTS, OutputRow, option_values
from toolpipe.shell._words import Word, names_folder

# (the place, and how it is written: "file", "folder" (names it makes under it), "new
# folder" (one that must be new or empty: nothing there is overwritten), "in place" (a file
# rewritten where it is, what it holds kept: a formatter's))
Write = tuple[Word, str]


def installed(cmd: Command) -> list[Word]:
    """The local packages ``cmd`` installs (`pip install /tmp/x`, `npm i -g ./x.tgz`): each
    one's code runs (its build or install scripts), and its programs land on the PATH."""
    out: list[Word] = []
    for row in OUTPUTS.get(cmd.name, ()):
        if not row.installs:
            continue
        start = _after_subcommand(row, [a.text for a in cmd.args])
        if start >= 0:
            words = list(cmd.args[start:])
            out += [w for w in _operands(words, row.valued) if _LOCAL.match(w.text)]
            out += [_word(v, words) for o in row.files for v in option_values(
                [w.text for w in words], o)]
    return out


def installer_words(cmd: Command) -> int:
    """Where the words after an installer's subcommand start (`nimble install ./p`: 1), 0
    when no installer's row reads ``cmd``: they are that row's, not a command line."""
    texts = [a.text for a in cmd.args]
    return max((_after_subcommand(row, texts) for row in OUTPUTS.get(cmd.name, ())
                if row.installs), default=0)


_LOCAL = re.compile(r"(?:/|~|\.{1,2}/|file:)|\S+\.(?:tgz|tar\.gz|whl|gem|zip|rb)$")


# what each write is, as the rules read it (a folder's: the names it makes under it)
_MADE = {"file": "what it makes", "folder": "what it makes", "new folder": "makes a new folder",
         "in place": "rewrites in place", "emptied": "empties it first"}


def outputs(cmd: Command) -> list[tuple[Word, str]]:
    """The places ``cmd`` writes what it makes, by its program's rows and by the options
    any program names its output with, each with what the write is (an effect's detail:
    "empties it first", a folder deleted before it is written, is a deletion)."""
    found = _generic(cmd.args)
    for row in OUTPUTS.get(cmd.name, ()):
        if not row.installs:  # (an installer's row names the packages it runs: `installed`)
            found += _row_outputs(row, cmd.args)
    # (a file's place that is a folder, `.` or `dir/`: what it makes lands under it)
    return [(Word(w.text.rstrip("/") + "/{}", w.raw, w.glob, True, w.sources)
             if how in ("folder", "new folder") or (how == "file" and names_folder(w.text))
             else w, _MADE[how])
            for w, how in found]


# Options any program may name its output with (a program no row describes among them:
# `frobnicate --output-dir DIR`), by their long names: a folder it makes names under, a
# file, a folder it empties first (pytest's --basetemp); `prefix` and `root` only glued
# (`--prefix=DIR`: `etcdctl get --prefix /` takes none); a build's variables (`make install
# DESTDIR=/`) and Java's properties (`-DoutputDirectory=DIR`).
_FOLDER_OPTION = re.compile(
    r"--(?:[\w-]+[-_])?(?:output-?dir(?:ectory)?|out-?dir|dest(?:ination|dir)?|dist-?(?:dir|path)"
    r"|site-dir|build-dir|target-dir|install-?dir|pack-destination|artifact-dir|export-dir"
    r"|download-dir|save-dir|results-dir|cache-dir|work-?dir|log-?dir)$|--\w+_out$", re.I)
_FILE_OPTION = re.compile(r"--(?:output|out|outfile|out-file|output-file)$", re.I)
_GLUED_FOLDER = re.compile(r"--(?:prefix|root)=(.+)$")
_BUILD_VARIABLE = re.compile(r"(?:DESTDIR|PREFIX|prefix|BINDIR|bindir|LIBDIR|libdir"
                             r"|INSTALL_ROOT|INSTALLDIR|installdir|DESTINATION)=(.+)$")
_JAVA_PROPERTY = re.compile(r"-D[\w.]*(?i:output|dest|target)[\w.]*=(.+)$")


def _generic(args: tuple[Word, ...]) -> list[tuple[Word, str]]:
    out: list[tuple[Word, str]] = []
    for i, a in enumerate(args):
        t = a.text
        if not t.startswith("-") and "=" not in t:
            continue
        name, eq, value = t.partition("=")
        if name == "--basetemp":
            how = "emptied"
        elif _FOLDER_OPTION.match(name):
            how = "folder"
        elif _FILE_OPTION.match(name):
            how = "file"
        else:
            m = (_GLUED_FOLDER.match(t) or _BUILD_VARIABLE.match(t) or _JAVA_PROPERTY.match(t))
            if m is not None:
                out.append((Word(m.group(1), a.raw, a.glob, a.tame, a.sources), "folder"))
            continue
        if eq:
            out.append((Word(value, a.raw, a.glob, a.tame, a.sources), how))
        elif i + 1 < len(args) and not args[i + 1].text.startswith("-"):
            out.append((args[i + 1], how))
    return out


def _row_outputs(row: OutputRow, args: tuple[Word, ...]) -> list[Write]:
    texts = [a.text for a in args]
    start = _after_subcommand(row, texts)
    if start < 0:
        return []
    words = list(args[start:])
    rest = texts[start:]
    out: list[Write] = []
    for options, how in ((row.files, "file"), (row.folders, "folder")):
        for option in options:
            out += [(_word(value, words), how) for value in option_values(rest, option)]
            if option.endswith("="):  # a value glued after `=` to a one-dash option
                out += [(_word(t[len(option):], words), how) for t in rest
                        if t.startswith(option)]
    if row.in_place and not set(rest) & row.unless and (
            row.in_place == ("*",) or set(rest) & set(row.in_place)):
        # (`prettier --write F…`, `black F…`: every operand rewritten where it is)
        out += [(w, "in place") for w in _operands(words, row.valued)]
    if row.operand is not None:
        operands = _operands(words, row.valued | frozenset(row.files + row.folders))
        if operands and -len(operands) <= row.operand < len(operands):
            out.append((operands[row.operand], "new folder" if row.new_folder else
                        "folder" if row.operand_folder else "file"))
    return out


def _after_subcommand(row: OutputRow, texts: list[str]) -> int:
    """Where the words after the row's subcommand start (0 for a row without one; -1: the
    command is not that subcommand). A subcommand may be a phrase (`worktree add`)."""
    if not row.subcommand:
        return 0
    phrases = [phrase.split() for phrase in row.subcommand]
    return next((i + len(p) for i in range(len(texts)) for p in phrases
                 if texts[i:i + len(p)] == p), -1)


def _operands(words: list[Word], valued: frozenset[str]) -> list[Word]:
    out: list[Word] = []
    i = 0
    while i < len(words):
        t = words[i].text
        if t == "--":
            return out + words[i + 1:]
        if t.startswith("-") and t != "-":
            i += 2 if t in valued else 1
            continue
        out.append(words[i])
        i += 1
    return out


def _word(text: str, words: list[Word]) -> Word:
    """The word ``text`` came from (its sources and quoting), with ``text`` as its text."""
    for w in words:
        if text in w.text:
            return Word(text, w.raw, w.glob, w.tame, w.sources)
    return Word(text, text)
