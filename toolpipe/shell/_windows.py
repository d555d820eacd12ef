"""Windows' command languages, as far as this wing reads them: PowerShell and cmd code that
only reads and prints (``Get-ChildItem .``, ``dir``, ``type x``), and that code's reads
spelled in the shell's words, Windows' paths as WSL sees them (``Get-Content
C:\\Users\\me\\.ssh\\id_ed25519`` is ``cat ~/.ssh/id_ed25519``), so that what it reads is
judged as the shell's reads are. Any other code of theirs is code the wing cannot read."""

from __future__ import annotations

import re
import shlex

# PowerShell that only reads and prints: each statement a read-only cmdlet (or its alias),
# no subexpression, call operator, redirection or script block. (`Format-` is the output's
# formatting only: Format-Volume formats a disk; `Write-` is the streams', not the event
# log's.)
_PS_READER = re.compile(
    r"(?i)(?:get|test|select|measure|find|search|show|read|resolve|compare|convertto|"
    r"convertfrom|where|sort|group)-[a-z]+|format-(?:table|list|wide|custom|hex)|"
    r"write-(?:output|host|error|warning|verbose|debug|information|progress)|"
    r"echo|dir|ls|gci|cat|gc|type|pwd")
_PS_UNSAFE = re.compile(r"[$]\(|&|>|\{|`|\b(?:iex|invoke|icm|start-process|saps)\b",
                        re.IGNORECASE)
# cmd that only reads and prints (`date` and `time` without /t set the clock: not here)
_CMD_READER = frozenset({"dir", "type", "more", "echo", "ver", "vol", "where", "whoami",
                         "hostname", "ipconfig", "systeminfo", "tasklist", "findstr",
                         "find", "tree", "cd", "chdir", "sort"})
_CMD_UNSAFE = re.compile(r"[<>^!()@]|\bcall\b|\bstart\b", re.IGNORECASE)
_STATEMENTS = re.compile(r"&&|\|\||[;|&\n]")
# a read, in the shell's words (every other reader prints what it is given, or the system)
_AS_SHELL = {"get-content": "cat", "gc": "cat", "cat": "cat", "type": "cat", "more": "cat",
             "get-childitem": "ls", "gci": "ls", "dir": "ls", "ls": "ls", "tree": "ls",
             "select-string": "cat", "sls": "cat", "findstr": "cat", "find": "cat"}
_HOME = re.compile(r"(?i)^(?:\$env:(?:userprofile|home)|\$\{env:(?:userprofile|home)\}|"
                   r"%userprofile%|%homedrive%%homepath%|\$home|[a-z]:[\\/]users[\\/][^\\/]+)"
                   r"(?=[\\/]|$)")
_DRIVE = re.compile(r"(?i)^([a-z]):(?=[\\/]|$)")
_WORD = re.compile(r"\"[^\"]*\"|'[^']*'|\S+")
_VARIABLE = re.compile(r"(?i)\$env:(\w+)|%(\w+)%")


def reads_only(name: str, code: str) -> bool:
    """Is ``code``, given to PowerShell or cmd (``name``), made only of reads and prints?"""
    if name == "cmd":
        if _CMD_UNSAFE.search(code):
            return False
        firsts = [s.split()[0].lower() for s in _STATEMENTS.split(code) if s.strip()]
        return bool(firsts) and all(f in _CMD_READER for f in firsts)
    if _PS_UNSAFE.search(code):
        return False
    statements = [s.strip() for s in re.split(r"[;|\n]", code) if s.strip()]
    return bool(statements) and all(_PS_READER.fullmatch(s.split()[0]) for s in statements)


def posix_path(word: str) -> str:
    """A Windows path as WSL's shell names it: the user's folder ``~``, a drive
    ``/mnt/c``, its variables the shell's (``$env:APPDATA``, ``%APPDATA%``: ``$APPDATA``)."""
    text = _HOME.sub("~", word)
    text = _DRIVE.sub(lambda m: "/mnt/" + m.group(1).lower(), text)
    text = _VARIABLE.sub(lambda m: "$" + (m.group(1) or m.group(2)), text)
    return text.replace("\\", "/")


def _shell_word(path: str) -> str:
    """``path`` as one shell word: ``~/`` left to expand, a variable left to expand."""
    head, rest = ("~/", path[2:]) if path.startswith("~/") else ("", path)
    if path == "~":
        return "~"
    if "$" in rest:
        return head + '"' + rest.replace('"', "") + '"'
    return head + shlex.quote(rest)


def read_as_shell(code: str) -> str:
    """Shell text that reads what the reading statements of ``code`` (which
    :func:`reads_only` accepted) read: ``cat`` or ``ls`` of their operands' paths."""
    lines = []
    for statement in _STATEMENTS.split(code):
        words = [w.strip("\"'") for w in _WORD.findall(statement)]
        if not words or words[0].lower() not in _AS_SHELL:
            continue
        operands = [_shell_word(posix_path(w)) for w in words[1:]
                    if w and not w.startswith(("-", "/"))]
        if operands:
            lines.append(" ".join([_AS_SHELL[words[0].lower()], *operands]))
    return "\n".join(lines)
