"""Effects of the commands that delete, copy, move, write and re-mode files (rm, shred,
mv, cp, rsync, dd, tee, truncate, sed -i, chmod, chown…).

The handlers register themselves with :func:`~toolpipe.shell._effects.handles`."""

from __future__ import annotations

import itertools
import posixpath
import re

from toolpipe.shell._effects import (
    Effect,
    EffectKind,
    handles,
)
from toolpipe.shell._fetches import fetched, landed
from toolpipe.shell._fetches import remote as _remote
from toolpipe.shell._model import Command
from toolpipe.shell._options import split as _split
from toolpipe.shell._sizes import huge_dd
from toolpipe.shell._words import UNKNOWN, Word, literal, names_folder


# rimraf and del-cli: npm's `rm -rf` (run by npx, npm exec, bunx…); gio's and KDE's
# kioclient's removals, trash and moves (`kioclient move ~/Documents trash:/`: its sources)
@handles("rm", "srm", "wipe", "trash", "trash-put", "gio", "rimraf", "del-cli", "kioclient",
         "kioclient5", "kioclient6")
def _rm(cmd: Command) -> list[Effect]:
    flags, _, operands = _split(cmd.args)
    moves = False
    if cmd.name == "gio" or cmd.name.startswith("kioclient"):
        if not operands or operands[0].text not in ("remove", "trash", "rm", "move", "mv"):
            return []
        moves = operands[0].text in ("move", "mv")
        operands = operands[1:-1] if moves else operands[1:]
    recursive = bool(flags & {"r", "R", "--recursive"}) or cmd.name in (
        "srm", "wipe", "rimraf", "del-cli") or moves  # (a move takes a folder whole)
    forced = bool(flags & {"f", "--force"})
    return [Effect("delete", cmd, w, recursive, forced) for w in operands]


@handles("rmdir", "unlink")
def _unlink(cmd: Command) -> list[Effect]:
    return [Effect("delete", cmd, w) for w in _split(cmd.args)[2]]


@handles("shred", "scrub", "blkdiscard")
def _shred(cmd: Command) -> list[Effect]:
    valued = {"shred": "ns", "blkdiscard": "olp", "scrub": "pbs"}[cmd.name]
    flags, _, operands = _split(cmd.args, valued, ("--iterations", "--size", "--random-source",
                                                   "--length", "--offset", "--step"))
    out = [Effect("write", cmd, w, detail="overwrites") for w in operands]
    if flags & {"u", "--remove", "--remove=unlink"}:
        out += [Effect("delete", cmd, w, forced=True) for w in operands]
    return out


@handles("mv", "cp", "install", "ln", "link", "rsync", "ditto")
def _copy(cmd: Command) -> list[Effect]:
    flags, values, ops = _split(cmd.args, "tSbmogTe" if cmd.name != "rsync" else "efT",
                                ("--target-directory", "--suffix", "--mode", "--owner",
                                 "--group", "--backup", "--exclude", "--include", "--rsh",
                                 "--filter", "--files-from", "--temp-dir", "--chmod"))
    target = values.get("t") or values.get("--target-directory")
    if target is None and ops:
        target, ops = ops[-1], ops[:-1]
    if target is None:
        return []
    out: list[Effect] = []
    remote = [w for w in [*ops, target] if _remote(w)]
    if remote:
        if _remote(target):
            out += [Effect("send", cmd, w) for w in ops if not _remote(w)]
            if cmd.name == "rsync" and "--delete" in "".join(flags):
                out.append(Effect("send", cmd, target, detail="deletes remote files"))
        else:
            out += fetched(cmd, [w for w in ops if _remote(w)], target)
        return out
    named = values.get("t") or values.get("--target-directory")  # (a folder, named so)
    folder = Word(named.text.rstrip("/") + "/", named.raw, named.glob, named.tame,
                  named.sources) if named is not None else target
    # (what lands in a folder, `.` or `dir/`, is each source's name under it)
    out += [Effect("write", cmd, landed(folder, w.text)) for w in ops] if ops and (
        named is not None or names_folder(folder.text)) else [
        Effect("write", cmd, target)]
    mode = values.get("m") or values.get("--mode")
    if cmd.name == "install" and mode is not None and setuid_mode(mode.text):
        out.append(Effect("mode", cmd, target, detail=mode.text))  # -m 4755 /bin/sh /tmp/x
    if cmd.name == "mv":  # (into the workspace, a file is kept where the agent works)
        into = target.known and not target.text.startswith(("/", "~")) and (
            ".." not in target.text.split("/")) and (cmd.cwd or ".")[:1] not in ("/", "~")
        out += [Effect("delete", cmd, w, recursive=True, detail="moves into the workspace"
                       if into else "moves away") for w in ops]
    else:  # (a link to a secret exposes it where the link is: read as a copy is)
        out += [Effect("read", cmd, w, detail="links" if cmd.name in ("ln", "link") else "")
                for w in ops]
    if cmd.name == "rsync" and any(f.startswith("--delete") for f in flags):
        out.append(Effect("delete", cmd, target, recursive=True, forced=True))
    return out


@handles("dd")
def _dd(cmd: Command) -> list[Effect]:
    out: list[Effect] = []
    for a in cmd.args:
        if a.text.startswith("of="):
            out.append(Effect("write", cmd, _after(a, "of="),
                              detail="without end" if huge_dd(cmd) else ""))
        elif a.text.startswith("if="):
            out.append(Effect("read", cmd, _after(a, "if=")))
    return out


def _after(a: Word, prefix: str) -> Word:
    return Word(a.text[len(prefix):], a.raw, a.glob, a.tame, a.sources)


@handles("tee", "sponge")
def _tee(cmd: Command) -> list[Effect]:
    return [Effect("write", cmd, w) for w in _split(cmd.args)[2] if w.text != "-"]


@handles("truncate", "touch", "mkdir", "mkfifo", "mknod", "fallocate")
def _touch(cmd: Command) -> list[Effect]:
    _, _, ops = _split(cmd.args, "srmdtlocAB", ("--size", "--reference", "--mode",
                                                 "--date", "--length", "--offset"))
    if cmd.name == "mknod":
        ops = ops[:1]
    return [Effect("write", cmd, w) for w in ops]


# sed's own writes: the s command's `w FILE` flag, and the `w FILE` command alone or after
# an address (a line, `$`, a /regex/, a range), the file name running to the end of its line
_SED_S = re.compile(r"s(?P<d>[^\\\n\w ])(?:\\.|(?!(?P=d))[^\n])*(?P=d)"
                    r"(?:\\.|(?!(?P=d))[^\n])*(?P=d)[gpIiMme0-9]*(?:[wW][ \t]+(?P<file>[^\n]+))?")
_SED_ADDRESS = r"(?:[0-9]+|\$|/(?:\\.|[^/\\\n])*/)"
_SED_W = re.compile(r"(?:^|[;\n{}])[ \t]*(?:" + _SED_ADDRESS + r"(?:[ \t]*,[ \t]*" + _SED_ADDRESS
                    + r")?[ \t]*!?)?[ \t]*[wW][ \t]+([^\n]+)")


def _sed_writes(cmd: Command) -> list[Effect]:
    _flags, values, ops = _split(cmd.args, "ef", ("--expression", "--file"))
    scripts = [w.text for k in ("e", "--expression") if (w := values.get(k)) is not None
               and w.known] or [w.text for w in ops[:1] if w.known]
    files: list[str] = []
    for script in scripts:
        files += [m.group("file") for m in _SED_S.finditer(script) if m.group("file")]
        files += [m.group(1) for m in _SED_W.finditer(_SED_S.sub(";", script))]
    return [Effect("write", cmd, literal(f.strip()), detail="sed's w command") for f in files]


# perl's and ruby's switches whose value is the rest of their cluster (`-Mstrict`,
# `-F:`, `-I/lib`, `-e…`), and sed's: an `i` after one of them is the value's, not
# in-place editing
_REST_IS_VALUE = frozenset("MmIdDeExCFrEK")
_SED_VALUES = frozenset("efl")


def _clustered_i(text: str, values: frozenset[str]) -> bool:
    """Whether a cluster of switches asks for in-place editing (`-pi`, `-0777pi.bak`,
    `-lpi`, sed's `-Ei` and `-ni`), read switch by switch up to one that takes the rest."""
    for c in text[1:]:
        if c == "i":
            return True
        if c in values:
            return False
    return False


@handles("sed", "gsed", "perl", "ruby")
def _in_place(cmd: Command) -> list[Effect]:
    args = cmd.args
    writes = _sed_writes(cmd) if cmd.name in ("sed", "gsed") else []
    in_place = any(a.text.startswith("--in-place") or (
        a.text.startswith("-") and not a.text.startswith("--") and (
            _clustered_i(a.text, _SED_VALUES if cmd.name in ("sed", "gsed") else _REST_IS_VALUE)))
        for a in args)
    if not in_place:
        return writes
    _flags, values, ops = _split(args, "ef" if cmd.name in ("sed", "gsed") else "eEI",
                                ("--expression", "--file"))
    if cmd.name in ("sed", "gsed") and not (values.keys() & {"e", "f", "--expression",
                                                              "--file"}):
        ops = ops[1:]
    return writes + [Effect("write", cmd, w, detail="edits in place") for w in ops]


@handles("sort", "uniq")
def _output_file(cmd: Command) -> list[Effect]:
    """``sort -o FILE``, ``uniq IN OUT``: the output written to a file (`sort -o ~/.bashrc
    /dev/null` empties it); the inputs read, as any program's operands are."""
    if cmd.name == "sort":
        _, values, ops = _split(cmd.args, "oktST", (
            "--output", "--key", "--field-separator", "--buffer-size", "--temporary-directory",
            "--parallel", "--files0-from", "--batch-size", "--compress-program"))
        out = values.get("o") or values.get("--output")
    else:
        _, _, ops = _split(cmd.args, "fsw", ("--skip-fields", "--skip-chars", "--check-chars"))
        ops, out = ops[:1], ops[1] if len(ops) > 1 else None
    found = [Effect("read", cmd, w, detail="operand") for w in ops
             if w.text and (UNKNOWN not in w.text or w.text.startswith(("/", "~")))]
    return found + ([Effect("write", cmd, out)] if out is not None else [])


@handles("fdupes", "jdupes", "rdfind", "fclones")
def _deduplicate(cmd: Command) -> list[Effect]:
    """A duplicate finder told to delete (`fdupes -rdN DIR`, `jdupes -d`, `rdfind
    -deleteduplicates true`, `fclones remove`): every folder it searches loses files."""
    texts = [a.text for a in cmd.args]
    if cmd.name == "rdfind":
        deleting = any(t == "-deleteduplicates" and v == "true"
                       for t, v in itertools.pairwise(texts))
        folders = [a for a in cmd.args if not a.text.startswith("-")
                   and a.text not in ("true", "false")]
    elif cmd.name == "fclones":
        deleting = texts[:1] == ["remove"]
        folders = []  # it reads the groups fclones group printed: what they name is unknown
    else:
        deleting = "--delete" in texts or any(
            t.startswith("-") and not t.startswith("--") and "d" in t for t in texts)
        folders = [a for a in cmd.args if not a.text.startswith("-")]
    if not deleting:
        return []
    if not folders:
        return [Effect("delete", cmd, None, True, True, "the duplicates its input names")]
    return [Effect("delete", cmd, w, True, True, "duplicates") for w in folders]


@handles("chmod", "chown", "chgrp", "chattr", "setfacl", "lchown")
def _modes(cmd: Command) -> list[Effect]:
    flags, values, ops = _split(cmd.args, "mMxXsb" if cmd.name == "setfacl" else "",
                                ("--reference", "--from", "--modify", "--set"))
    recursive = bool(flags & {"R", "--recursive"})
    if cmd.name == "chattr":
        recursive = "R" in flags
        mode_words = [a for a in cmd.args if a.text.startswith(("+", "="))]
        return [Effect("mode", cmd, w, recursive, detail=" ".join(m.text for m in mode_words))
                for w in ops if not w.text.startswith(("+", "="))]
    if cmd.name == "setfacl":
        spec = values.get("m") or values.get("--modify") or values.get("--set")
        return [Effect("mode", cmd, w, recursive, detail=spec.text if spec else "")
                for w in ops]
    if "--reference" not in flags and ops:
        mode, ops = ops[0], ops[1:]
    else:
        mode = literal("")
    kind: EffectKind = "mode" if cmd.name == "chmod" else "owner"
    if cmd.name == "chmod":  # chmod -x f: the mode looked like an option
        odd = [a for a in cmd.args if re.fullmatch(r"-[rwxXst]+", a.text)]
        if odd and mode.text and not re.fullmatch(r"[0-7]{3,4}|[ugoa]*[-+=][rwxXstugo]*(,.*)?",
                                                  mode.text):
            ops, mode = [mode, *ops], odd[0]
    return [Effect(kind, cmd, w, recursive, detail=mode.text) for w in ops]


_TAR_VALUES = "fCTXbgKLNV"  # tar's letters that take a value


def _old_style_key(args: list[Word]) -> list[Word]:
    """tar's first word without a dash is a key of letters whose values follow it in
    order (`tar xzfC x.tgz ~`: f is x.tgz, C is ~), not a cluster whose letter takes the
    rest (`-xCf ~`: C is `f`); read as the options it stands for."""
    if not args or not args[0].known or args[0].text.startswith("-"):
        return args
    key, rest = args[0], args[1:]
    out: list[Word] = []
    for letter in key.text:
        out.append(Word("-" + letter, key.raw, False, key.tame, key.sources))
        if letter in _TAR_VALUES and rest:
            out.append(rest.pop(0))
    return out + rest


@handles("tar", "gtar", "bsdtar")
def _tar(cmd: Command) -> list[Effect]:
    """tar c writes its archive and reads what it packs; tar x writes under -C."""
    args = _old_style_key(list(cmd.args))
    flags, values, operands = _split(args, _TAR_VALUES, (
        "--file", "--directory", "--files-from", "--exclude-from", "--exclude", "--transform",
        "--checkpoint-action", "--to-command", "--use-compress-program", "--rsh-command",
        "--info-script", "--new-volume-script", "--owner", "--group", "--mode", "--format"))
    archive = values.get("f") or values.get("--file")
    if flags & {"c", "r", "u", "A", "--create", "--append", "--update"}:
        into = values.get("C") or values.get("--directory")
        if into is not None and into.known:  # tar czf k.tgz -C ~ .ssh packs ~/.ssh
            operands = [Word(posixpath.join(into.text, w.text), w.raw, w.glob, w.tame,
                             w.sources) if w.known and not w.text.startswith("/") else w
                        for w in operands]
        out = [Effect("read", cmd, w) for w in operands]
        if archive is not None and archive.text != "-":
            out.append(Effect("write", cmd, archive))
        if "--remove-files" in flags:  # packs, then deletes what it packed (and the
            # names a list gives, -T FILE: not known)
            listed = values.get("T") or values.get("--files-from")
            out += [Effect("delete", cmd, w, recursive=True) for w in (
                *operands, *([_listed(listed.raw)] if listed is not None else []))]
        return out
    if flags & {"x", "--extract", "--get"}:
        return _extracts(cmd, values.get("C") or values.get("--directory"))
    return []


def _extracts(cmd: Command, into: Word | None) -> list[Effect]:
    """An archive unpacked into ``into`` (the current folder when None): names it cannot
    know, so under a folder of the workspace they are files inside it, and under an
    absolute folder anything there (``-C /`` overwrites the system)."""
    into = into or literal(".")
    if not into.known:
        return [Effect("write", cmd, into, detail="extracts")]
    base = into.text.rstrip("/") + "/"
    inside = not base.startswith(("/", "~"))
    return [Effect("write", cmd, Word(base + ("{}" if inside else "\x00"),
                                      "<files from the archive>", tame=True),
                   detail="extracts")]


@handles("unzip")
def _unzip(cmd: Command) -> list[Effect]:
    """unzip ARCHIVE -d DIR writes under DIR (the current folder without -d), as tar x
    writes under -C; -l, -t, -v, -p and -Z only list, test or print."""
    flags, values, operands = _split(cmd.args, "dxP", ())
    if flags & {"l", "t", "v", "p", "Z", "z"} or not operands:
        return []
    return _extracts(cmd, values.get("d"))


@handles("zip", "7z", "7za", "rar", "unrar")
def _zip(cmd: Command) -> list[Effect]:
    """zip ARCHIVE FILES…: writes the archive, reads the files; an archiver told to move
    them in (``zip -m``, ``7z a -sdel``, ``rar m``, ``rar a -df``) deletes them too."""
    flags, _, operands = _split(cmd.args, "bnPtx", ("--password",))
    if cmd.name == "zip":
        moves = bool(flags & {"m", "--move"})
    else:
        if operands and operands[0].text in ("x", "e"):  # 7z x A -oDIR, rar x A DIR/
            into = next((_after(w, "-o") for w in cmd.args if w.text.startswith("-o")), None)
            if cmd.name in ("rar", "unrar") and len(operands) > 2 and operands[-1].text.endswith(
                    "/"):
                into = operands[-1]
            return _extracts(cmd, into)
        if not operands or operands[0].text not in ("a", "u", "m"):
            return []
        moves = operands[0].text == "m" or any(
            w.text.lower() in ("-sdel", "-df") for w in cmd.args)
        operands = operands[1:]
    if not operands:
        return []
    # the names a list gives are not known: zip's -@ (its input), 7z's and rar's @FILE
    moved = [_listed(w.raw) if w.text.startswith("@") and cmd.name != "zip" else w
             for w in operands[1:]] + ([_listed("-@")] if "@" in flags else [])
    out = [Effect("write", cmd, operands[0]), *(Effect("read", cmd, w) for w in operands[1:])]
    if moves:
        out += [Effect("delete", cmd, w, recursive=True) for w in moved]
    return out


def _listed(source: str) -> Word:
    """The names a list gives an archiver (`tar -T FILE`, `zip -@`, `7z a A @FILE`)."""
    return Word(UNKNOWN, f"<the names in {source}>", tame=False)


# --- modes, as chmod spells them ---------------------------------------------------------


def setuid_mode(mode: str) -> bool:
    if mode.isdigit():
        return len(mode) == 4 and mode[0] in "24567"
    return "+" in mode and "s" in mode.split("+", 1)[1]


def restricting_mode(mode: str) -> bool:
    """A mode that only takes rights from group and others (600, 0700, 400, go-rwx): the
    owner keeps the right to read (000 locks the owner out too)."""
    if mode.isdigit():
        return len(mode) in (3, 4) and mode.endswith("00") and not setuid_mode(mode) and (
            int(mode[-3]) & 4 != 0)
    clauses = mode.split(",")
    return bool(mode) and all(re.fullmatch(r"[go]+-[rwxX]+", c) for c in clauses)
