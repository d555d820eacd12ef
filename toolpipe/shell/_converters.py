"""Programs whose output file is an operand or an option's value: media and document
converters (``ffmpeg … OUT``, ``sox IN OUT``, ImageMagick's ``convert IN OUT`` and
``magick``, ``qpdf IN OUT``, ``pandoc -o OUT``, ``iconv -o OUT``, ``xsltproc -o OUT``,
Ghostscript's ``-sOutputFile=OUT``, ``pdftk … output OUT``), and gawk editing its files in
place (``gawk -i inplace 'PROGRAM' FILE``). Each is a write of that file, as a redirection
is: ``ffmpeg -y … ~/.ssh/authorized_keys`` empties the keys a server lets in."""

from __future__ import annotations

from toolpipe.shell._effects import Effect, handles
from toolpipe.shell._model import Command
from toolpipe.shell._words import Word

# the output is the last operand
_LAST = frozenset({"ffmpeg", "avconv", "sox", "convert", "magick", "qpdf", "gm"})
# the output is an option's value
_OPTION = {"pandoc": ("-o", "--output"), "iconv": ("-o", "--output"),
           "xsltproc": ("-o", "--output"), "cwebp": ("-o",), "xmllint": ("--output",)}


@handles(*_LAST, *_OPTION, "gs", "pdftk")
def _converted(cmd: Command) -> list[Effect]:
    args = cmd.args
    texts = [a.text for a in args]
    out: list[Word] = []
    for option in _OPTION.get(cmd.name, ()):
        out += [args[i + 1] for i, t in enumerate(texts[:-1]) if t == option]
        out += [Word(t.split("=", 1)[1], a.raw, a.glob, a.tame, a.sources)
                for t, a in zip(texts, args, strict=True) if t.startswith(option + "=")]
    if cmd.name == "gs":  # -sOutputFile=OUT, -o OUT
        out += [Word(t.split("=", 1)[1], a.raw, a.glob, a.tame, a.sources)
                for t, a in zip(texts, args, strict=True) if t.startswith("-sOutputFile=")]
        out += [args[i + 1] for i, t in enumerate(texts[:-1]) if t == "-o"]
    if cmd.name == "pdftk":  # … output OUT
        out += [args[i + 1] for i, t in enumerate(texts[:-1]) if t == "output"]
    if cmd.name in _LAST and not out and args and not texts[-1].startswith("-") and (
            len(args) > 1 and texts[-2] not in ("-i", "-f", "-c", "-codec")):
        out.append(args[-1])
    return [Effect("write", cmd, w, detail="its output file") for w in out
            if w.text not in ("-", "pipe:", "pipe:1", "/dev/null")]


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
