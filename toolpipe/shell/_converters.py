"""gawk editing its files in place (``gawk -i inplace 'PROGRAM' FILE``): each file operand
is rewritten. (The media and document converters whose output file is an operand or an
option's value, ``ffmpeg … OUT``, ``pandoc -o OUT``, are the program table's ``[[output]]``
rows: ``_outputs``.)"""

from __future__ import annotations

from toolpipe.shell._effects import Effect, handles
from toolpipe.shell._model import Command


@handles("gawk", "awk")  # (awk is gawk on many systems: read as it would read it)
def _gawk_in_place(cmd: Command) -> list[Effect]:
    """``gawk -i inplace 'PROGRAM' FILE…``: each file operand is rewritten."""
    args = cmd.args
    texts = [a.text for a in args]
    loaded = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t in ("-i", "--include")]
    loaded += [t.split("=", 1)[1] for t in texts if t.startswith("--include=")]
    if not any(name.removesuffix(".awk") == "inplace" for name in loaded):
        return []
    i, program_seen, files = 0, any(t in ("-f", "--file") for t in texts), []
    while i < len(args):
        t = texts[i]
        if t in ("-i", "--include", "-f", "--file", "-v", "--assign", "-F",
                 "--field-separator"):
            i += 2
            continue
        if t.startswith("-") and t != "-":
            i += 1
            continue
        if program_seen:
            files.append(args[i])
        program_seen = True
        i += 1
    return [Effect("write", cmd, w, detail="edits in place") for w in files]
