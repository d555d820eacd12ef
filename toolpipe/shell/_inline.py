"""Code given on a command line to an interpreter (``python3 -c``, ``perl -e``, perl's
``-M'strict;…'``) and perl's ``rename`` expression (``rename 's/.*/system("…")/e'
FILES``: perl code run once per file name, whatever else it says), read for the shell
commands it runs and the alerts a one-liner raises."""

from __future__ import annotations

from collections.abc import Sequence

from toolpipe.shell._loads import module_code
from toolpipe.shell._oneliners import LANGUAGES, alerts, code_flag, shell_strings
from toolpipe.shell._words import Word, literal

# rename's spellings that run a perl expression (util-linux's `rename.ul FROM TO` does not;
# Debian's `rename` is perl's, and its FROM read as perl finds nothing)
PERL_RENAMERS = frozenset({"rename", "prename", "file-rename", "perl-rename"})

Code = tuple[str, Word, tuple[Word, ...]]


def rename_expressions(args: Sequence[Word]) -> list[Word]:
    """A perl rename's expressions: each ``-e``/``-E``/``--expr`` value, else its first
    operand."""
    given: list[Word] = []
    first: Word | None = None
    i = 0
    while i < len(args):
        a = args[i]
        if a.text in ("-e", "-E", "--expr") and i + 1 < len(args):
            given.append(args[i + 1])
            i += 2
            continue
        if a.text.startswith("--expr="):
            given.append(Word(a.text[7:], a.raw, a.glob, a.tame, a.sources))
        elif a.text == "--":
            first = first or (args[i + 1] if i + 1 < len(args) else None)
            break
        elif first is None and not a.text.startswith("-"):
            first = a
        i += 1
    return given or ([first] if first is not None else [])


def inline_codes(name: str, args: Sequence[Word]
                 ) -> tuple[list[Code], tuple[tuple[str, str], ...]]:
    """The shell commands an interpreter's inline code runs (each a code string to read,
    or the code itself when not known) and the alerts it raises, as (kind, label)."""
    language = "perl" if name in PERL_RENAMERS else name
    carried: list[tuple[str, Word]]
    if name in PERL_RENAMERS:
        carried = [(f"{name} expression", w) for w in rename_expressions(args)]
    else:
        flagged = code_flag(name, args)
        label = f"{name} {LANGUAGES[name]}".strip()
        carried = [(label, flagged)] if flagged is not None else []
        if name == "perl":  # perl -M'strict;system("…")' is `use strict;system("…");`
            carried += [("perl -M", literal(f"use {spec};")) for spec in module_code(args)]
    codes: list[Code] = []
    found: tuple[tuple[str, str], ...] = ()
    for code_label, code in carried:
        if code.known:
            for text in shell_strings(language, code.text):
                codes.append((code_label, literal(text), ()))
            found += tuple((kind, code_label) for kind in alerts(language, code.text))
        else:
            codes.append((code_label, code, ()))
    return codes, found
