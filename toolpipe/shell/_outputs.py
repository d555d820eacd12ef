"""Where a program writes what it makes, by the program table's ``[[output]]`` rows: the
file an option names (``gcc -o F``, ``pandoc -o F``, ``docker save -o F``), the folder an
option names, under which it makes files it names itself (``javac -d DIR``, ``pip install
--target DIR``, ``cargo install --root DIR``), and an operand (``git clone URL DIR``,
``docker cp SRC DST``). Each is a write, judged by where it lands as any write is (the
fourteenth sitting's second held-out file: `go build -o ~/.local/bin/ls`, `git clone URL
~/.config/autostart`, `pip install --target` a user site were allowed: a compiler, an
installer or a clone had been inert)."""

from __future__ import annotations

from toolpipe.shell._model import Command
from toolpipe.shell._table import OUTPUTS, OutputRow, option_values
from toolpipe.shell._words import Word

# (the place, whether it is a folder it makes names under, and whether that folder must be
# new or empty: nothing in it is overwritten)
Write = tuple[Word, bool, bool]


def outputs(cmd: Command) -> list[Write]:
    """The places ``cmd`` writes what it makes, by its program's rows."""
    rows = OUTPUTS.get(cmd.name)
    if not rows:
        return []
    out: list[Write] = []
    for row in rows:
        out += _row_outputs(row, cmd.args)
    return out


def _row_outputs(row: OutputRow, args: tuple[Word, ...]) -> list[Write]:
    texts = [a.text for a in args]
    start = 0
    if row.subcommand:  # (a phrase: `worktree add`, its words in a row)
        phrases = [phrase.split() for phrase in row.subcommand]
        start = next((i + len(p) for i in range(len(texts)) for p in phrases
                      if texts[i:i + len(p)] == p), -1)
        if start < 0:
            return []
    words = list(args[start:])
    rest = texts[start:]
    out: list[Write] = []
    for options, folder in ((row.files, False), (row.folders, True)):
        for option in options:
            out += [(_word(value, words), folder, False)
                    for value in option_values(rest, option)]
            if option.endswith("="):  # a value glued after `=` to a one-dash option
                out += [(_word(t[len(option):], words), folder, False) for t in rest
                        if t.startswith(option)]
    if row.operand is not None:
        operands = _operands(words, row.valued | frozenset(row.files + row.folders))
        if operands and -len(operands) <= row.operand < len(operands) and (
                row.operand != -1 or len(operands) > 1):
            out.append((operands[row.operand], row.operand_folder, row.new_folder))
    return out


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
