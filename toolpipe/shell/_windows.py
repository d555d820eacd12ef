"""Windows' command languages, as far as this wing reads them: PowerShell and cmd code made
of statements it understands (reads and prints, file copies, moves and deletions, writes
of a pipeline's output, downloads and uploads), spelled in the shell's words, Windows'
paths as WSL sees them (``Get-Content C:\\Users\\me\\.ssh\\id_ed25519 | Set-Content k`` is
``cat ~/.ssh/id_ed25519 > k``; ``Remove-Item -Recurse $env:USERPROFILE\\Documents`` is
``rm -rf ~/Documents``), so that what it does is judged as the shell's commands are. Code
with any other statement is code the wing cannot read (failing closed)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolpipe.shell._words import shell_word

# PowerShell's cmdlets that only read and print (or their aliases): a first stage prints,
# a later one filters. (`Format-` is the output's formatting only: Format-Volume formats a
# disk; `Write-` is the streams', not the event log's.)
_PS_READER = re.compile(
    r"(?i)(?:get|test|select|measure|find|search|show|read|resolve|compare|convertto|"
    r"convertfrom|where|sort|group)-[a-z]+|format-(?:table|list|wide|custom|hex)|"
    r"write-(?:output|host|error|warning|verbose|debug|information|progress)|"
    r"echo|pwd|select|where|sort|measure|ft|fl")
# no subexpression or parenthesis (a value computed: `-Body (Get-Content …)`), call
# operator, script block, escape, or a command run some other way
_PS_UNSAFE = re.compile(r"[$@]?\(|&|\{|`|\b(?:iex|invoke-(?:expression|command|item)|icm|"
                        r"start-process|saps|start-job|new-object|add-type)\b", re.IGNORECASE)
# cmd's readers (`date` and `time` without /t set the clock: not here)
_CMD_READER = frozenset({"echo", "ver", "vol", "where", "whoami", "hostname", "ipconfig",
                         "systeminfo", "tasklist", "cd", "chdir", "sort", "find", "findstr"})
_CMD_UNSAFE = re.compile(r"[<^!()@]|\bcall\b|\bstart\b|\bfor\b|\bif\b", re.IGNORECASE)
# each statement's verb, in the shell's words: (program, its options)
_VERBS = {
    **dict.fromkeys(("get-content", "gc", "cat", "type", "more"), ("cat", "")),
    **dict.fromkeys(("get-childitem", "gci", "dir", "ls", "tree"), ("ls", "")),
    **dict.fromkeys(("copy-item", "copy", "cpi", "cp", "xcopy"), ("cp", "-r")),
    **dict.fromkeys(("move-item", "move", "mi", "mv"), ("mv", "")),
    **dict.fromkeys(("remove-item", "ri", "rm", "del", "erase", "rd", "rmdir"), ("rm", "-rf")),
    **dict.fromkeys(("invoke-webrequest", "iwr", "invoke-restmethod", "irm", "wget", "curl"),
                    ("curl", "")),
}
# a pipeline's sinks: a file its output is written to (or added to)
_SINKS = {"set-content": ">", "sc": ">", "out-file": ">", "add-content": ">>", "ac": ">>",
          "tee-object": ">", "tee": ">"}
# PowerShell's parameters that take a value (the rest are switches)
_VALUED = frozenset({"-path", "-literalpath", "-destination", "-uri", "-outfile", "-infile",
                     "-method", "-value", "-filepath", "-encoding", "-name", "-pattern",
                     "-first", "-last", "-tail", "-totalcount", "-body", "-headers",
                     "-contenttype", "-filter", "-include", "-exclude", "-depth",
                     "-property", "-itemtype", "-credential", "-useragent", "-timeoutsec"})
_ROLES = {"-path": "path", "-literalpath": "path", "-filepath": "path", "-destination": "to",
          "-uri": "path", "-outfile": "out", "-infile": "in"}
_STATEMENTS = re.compile(r"&&|\|\||[;&\n]")
_REDIRECT = re.compile(r"\s*(>>?)\s*(\"[^\"]*\"|'[^']*'|[^\s>]+)\s*$")
_HOME = re.compile(r"(?i)^(?:\$env:(?:userprofile|home)|\$\{env:(?:userprofile|home)\}|"
                   r"%userprofile%|%homedrive%%homepath%|\$home|~|[a-z]:[\\/]users[\\/]"
                   r"[^\\/]+)(?=[\\/]|$)")
# a drive, or a path relative to a drive's own current folder (`C:Users`, which is what
# bash leaves of an unquoted `C:\Users`): under the drive, outside the workspace
_DRIVE = re.compile(r"(?i)^([a-z]):[\\/]?")
_WORD = re.compile(r"\"[^\"]*\"|'[^']*'|[^\s,]+")
_VARIABLE = re.compile(r"(?i)\$env:(\w+)|%(\w+)%")


def posix_path(word: str) -> str:
    """A Windows path as WSL's shell names it: the user's folder ``~``, a drive
    ``/mnt/c``, its variables the shell's (``$env:APPDATA``, ``%APPDATA%``: ``$APPDATA``)."""
    text = _HOME.sub("~", word)
    text = _DRIVE.sub(lambda m: "/mnt/" + m.group(1).lower() + "/", text)
    text = _VARIABLE.sub(lambda m: "$" + (m.group(1) or m.group(2)), text)
    return text.replace("\\", "/")


def _shell_word(path: str) -> str:
    """``path`` as one shell word: ``~/`` left to expand, a variable left to expand."""
    if path == "~":
        return "~"
    head, rest = ("~/", path[2:]) if path.startswith("~/") else ("", path)
    if "$" in rest:
        return head + '"' + rest.replace('"', "") + '"'
    return head + shell_word(rest)


def _reads(name: str, cmd: bool) -> bool:
    """Is ``name`` a statement's or a stage's reader (cmd's or PowerShell's)?"""
    return name in _CMD_READER if cmd else _PS_READER.fullmatch(name) is not None


def _operands(words: Sequence[str], cmd: bool) -> tuple[dict[str, str], list[str]]:
    """A statement's named values (by role) and its positional operands, paths spelled for
    the shell (cmd's options start with ``/``, PowerShell's with ``-``)."""
    named: dict[str, str] = {}
    positional: list[str] = []
    it = iter(words)
    for word in it:
        lower = word.lower()
        if cmd and word.startswith("/"):
            continue
        if not cmd and word.startswith("-"):
            if lower.split(":", 1)[0] in _VALUED and ":" not in lower:
                value = next(it, "")
                if lower in _ROLES:
                    named[_ROLES[lower]] = posix_path(value.strip("\"'"))
            continue
        positional.append(posix_path(word.strip("\"'")))
    return named, positional


def _statement(text: str, cmd: bool) -> str | None:
    """One statement (a pipeline) in the shell's words, or None: not understood."""
    redirect = _REDIRECT.search(text)
    tail = ""
    if redirect is not None:
        text = text[:redirect.start()]
        target = posix_path(redirect.group(2).strip("\"'"))
        tail = f" {redirect.group(1)} {_shell_word(target)}"
    if ">" in text or "<" in text:
        return None  # (a redirection elsewhere than at the end: not read)
    stages = [s.strip() for s in text.split("|")]
    if not all(stages):
        return None
    words = [_WORD.findall(s) for s in stages]
    first = words[0][0].lower()
    named, positional = _operands(words[0][1:], cmd)
    verb = _VERBS.get(first)
    if verb is not None:
        program, options = verb
        if program == "rm" and cmd and first in ("del", "erase") and "/s" not in (
                w.lower() for w in words[0]):
            options = "-f"
        paths = ([named["path"]] if "path" in named else []) + positional
        if program == "curl":
            address = paths[0] if paths else ""
            if not address:
                return None
            line = "curl " + (f"-o {_shell_word(named['out'])} " if "out" in named else "") + (
                f"-T {_shell_word(named['in'])} " if "in" in named else "") + shell_word(
                address)
        else:
            paths += [named["to"]] if "to" in named and program in ("cp", "mv") else []
            if len(paths) < (2 if program in ("cp", "mv") else 0 if program == "ls" else 1):
                return None  # (a copy without its two ends, a deletion or a read of nothing)
            line = " ".join([program, *([options] if options else []),
                             *(_shell_word(p) for p in paths)])
    elif _reads(first, cmd):
        line = "true"
    else:
        return None
    for stage in words[1:]:  # later stages: filters that print, or a sink that writes
        name = stage[0].lower()
        if name in _SINKS:
            named, positional = _operands(stage[1:], cmd)
            target = named.get("path") or (positional[0] if positional else "")
            if not target:
                return None
            line += f" {_SINKS[name]} {_shell_word(target)}"
        elif not _reads(name, cmd):
            return None
    return line + tail


def as_shell(name: str, code: str) -> str | None:
    """Shell text that does what ``code`` (given to PowerShell, or to cmd when ``name`` is
    ``cmd``) does, when the wing understands each of its statements; else None."""
    cmd = name == "cmd"
    if (_CMD_UNSAFE if cmd else _PS_UNSAFE).search(code):
        return None
    lines = []
    for statement in _STATEMENTS.split(code) if cmd else re.split(r"[;\n]", code):
        if statement.strip():
            line = _statement(statement.strip(), cmd)
            if line is None:
                return None
            lines.append(line)
    return "\n".join(lines) if lines else None
