"""The effect model: what each command reads, writes, deletes, re-modes or re-owns, runs,
and sends over the network, by command, with each command's own option grammar."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Literal

import attrs

from toolpipe.shell._loads import file_runs, option_loads, project_places, registered
from toolpipe.shell._model import Command
from toolpipe.shell._oneliners import LANGUAGES, code_flag
from toolpipe.shell._outputs import installed, outputs
from toolpipe.shell._places import classify, maybe_secret
from toolpipe.shell._sizes import endless
from toolpipe.shell._table import FOREIGN
from toolpipe.shell._words import UNKNOWN, Word
from toolpipe.shell._wrappers import SHELLS, shell_code

EffectKind = Literal[
    "delete", "write", "read", "mode", "owner", "exec", "stdin-code", "send", "fetch",
    "device", "force-push", "remote-delete", "network-shell", "power", "kill-all", "history",
    "service", "firewall",
]


@attrs.frozen
class Effect:
    kind: EffectKind
    command: Command
    word: Word | None = None
    recursive: bool = False
    forced: bool = False
    detail: str = ""


DOWNLOADERS = frozenset({"curl", "wget", "fetch", "aria2c", "http", "https", "xh", "axel",
                         "lwp-download", "lynx", "links", "w3m", "httpie", "curlie"})
NETWORK = DOWNLOADERS | frozenset({"nc", "ncat", "netcat", "socat", "scp", "sftp", "ssh",
                                   "telnet", "ftp", "tftp", "rsync", "mail", "mailx",
                                   "sendmail", "mutt", "s_client", "openssl", "rclone",
                                   "smbclient", "nslookup", "dig", "gsutil", "aws", "gh",
                                   "glab",
                                   # file transfers and object stores
                                   "croc", "wormhole", "magic-wormhole", "ffsend",
                                   "onionshare-cli", "ipfs", "tailscale", "gcloud", "az",
                                   "azcopy", "s3cmd", "b2", "mc", "oci"})
NETWORK_SOURCES = DOWNLOADERS | frozenset({"nc", "ncat", "netcat", "socat", "telnet", "ssh",
                                           "openssl"})
DECODERS = frozenset({"base64", "base32", "basenc", "xxd", "uudecode", "openssl", "gpg",
                      "gunzip", "zcat", "bunzip2", "xz", "unxz", "rev", "tr", "printf"})


_OPENSSL_NETWORK = frozenset({"s_client", "s_server", "s_time", "ocsp"})
_MAILERS = frozenset({"mail", "mailx", "mutt", "neomutt", "s-nail"})


# Backup tools send what they back up when their repository is not a local folder (an
# address in an option or an operand; restic's and borg's repository set in the
# environment is not known, so it counts as remote; kopia's is connected beforehand)
_BACKUPS = frozenset({"restic", "borg", "borgbackup", "duplicity", "rdiff-backup", "kopia",
                      "duplicacy", "bupstash"})
_REMOTE_REPOSITORY = re.compile(r"^(?:sftp|s3|rest|b2|azure|gs|swift|rclone|ssh|scp|ftps?|"
                                r"https?|webdavs?|par2\+\w+|boto3\+s3|gdrive|onedrive)[:+]"
                                r"|^[\w.-]+@[\w.-]+:|^[\w.-]+::")


def _backs_up_remotely(cmd: Command) -> bool:
    texts = [a.text for a in cmd.args]
    if cmd.name in ("kopia", "duplicacy", "bupstash"):
        return True
    if any(_REMOTE_REPOSITORY.match(t.partition("=")[2] if t.startswith("--") else t)
           for t in texts):
        return True
    if cmd.name == "restic":  # no address: remote unless a repository is named (locally)
        return not any(t in ("-r", "--repo", "--repository") or t.startswith(
            ("--repo=", "--repository=")) for t in texts)
    if cmd.name in ("borg", "borgbackup"):  # remote unless a local path or `::ARCHIVE`
        return not any("::" in t or t.startswith(("/", "./", "~")) for t in texts)
    return False  # duplicity, rdiff-backup: remote only when given an address


def sends(cmd: Command) -> bool:
    """Does the command talk to the network (a network tool, or a /dev/tcp redirection)?"""
    if cmd.name == "openssl":  # only some of its subcommands do
        return bool(cmd.args) and cmd.args[0].text in _OPENSSL_NETWORK
    if cmd.name in _BACKUPS:
        return _backs_up_remotely(cmd)
    if cmd.name in _MAILERS and any(a.text == "-f" for a in cmd.args) and not any(
            "://" in a.text for a in cmd.args):
        return False  # `mail -f ~/mbox`: a mailbox opened to read, here
    return cmd.name in NETWORK or any(
        r.target is not None and r.target.text.startswith(("/dev/tcp/", "/dev/udp/"))
        for r in cmd.redirects)


# Commands that only name a file they do not print or send (ssh -i key, chmod 600 key…).
NOT_READERS = frozenset({
    "ls", "stat", "file", "test", "[", "[[", "chmod", "chown", "chgrp", "chattr", "touch",
    "mkdir", "rm", "rmdir", "unlink", "shred", "mv", "ln", "ssh", "ssh-keygen", "ssh-add",
    "ssh-copy-id", "sftp", "realpath", "readlink", "dirname", "basename", "du", "df", "cd",
    "echo", "printf", "find", "fd", "locate", "which", "type", "git", "truncate", "setfacl",
    "getfacl", "lsattr", "sudoedit", "vipw", "visudo", "export", "source", ".", "eval",
    "su", "runuser", "trap", "alias", "watch", "script", "xargs", "parallel", "flock",
    "command", "builtin", "exec", "kill", "pkill", "mount", "umount", "cryptsetup",
}) | SHELLS | frozenset(LANGUAGES)
ENV_DUMPERS = frozenset({"env", "printenv", "set", "export", "declare", "typeset"})
# Programs with their own reading whose operands may still be read and printed (sed's
# files, a script's arguments, git diff --no-index): a secret among them is read. Those that
# only use a key or name a file are left out (ssh -i, curl --key, chmod, find).
_KEY_USERS = frozenset({
    "ssh", "ssh-keygen", "ssh-add", "ssh-copy-id", "sftp", "scp", "autossh", "sshfs", "mosh",
    "openssl", "gpg", "gpg2", "curl", "curlie", "wget", "wget2", "chmod", "chown", "chgrp",
    "chattr", "setfacl", "lsattr", "getfacl", "touch", "find", "kill", "mount", "umount",
    "cryptsetup", "ln", "link", "mkdir", "rmdir", "source", ".", "rsync", "rclone", "mkfifo",
    "mknod", "trash", "trash-put", "sudoedit", "vipw", "visudo",
})
# Programs of NOT_READERS that do read what they are given: a script's arguments, git's
_GIVEN_READERS = SHELLS | frozenset(LANGUAGES) | {"git"}
# A credential named among a command's words, and a word that says it is printed
# (``vault print token``, ``npm config get //registry…/:_authToken``, ``--show-token``)
_CREDENTIAL = re.compile(
    r"(?i)(?:^|[^a-z])_?(?:auth)?(?:token|password|passwd|secret|credentials?|"
    r"api[-_]?key|private[-_]?key|access[-_]?key|_auth)$")  # (a plural lists names)
_PRINTS = frozenset({"get", "print", "show", "view", "read", "export", "fill", "access",
                     "reveal", "dump", "cat", "display", "decrypt", "lookup", "output",
                     "--raw", "--reveal", "--plaintext", "--decrypt", "--with-decryption"})
_PRINTS_ANY = _PRINTS | {w.upper() for w in _PRINTS} | {w.capitalize() for w in _PRINTS}
_SHOWS = re.compile(r"(?i)^--(?:show|print|reveal|output|display)-(?:tokens?|secrets?|"
                    r"passwords?|credentials?|keys?)$")
POWER = frozenset({"shutdown", "reboot", "poweroff", "halt"})


Handler = Callable[[Command], list[Effect]]
_HANDLERS: dict[str, Handler] = {}
_PARTLY: dict[str, Handler] = {}
# the makers of a file system, by the families' names (mkfs.xfs, newfs_msdos on BSD and
# macOS, mkntfs): each formats what it is given
_FORMATTER = re.compile(r"mkfs(?:\.\w+)?|newfs(?:_\w+)?|mk(?:ntfs|dosfs|exfatfs|udffs|reiserfs|"
                        r"jfs|hfsplus|fs_\w+)")


def formats_a_volume(name: str) -> bool:
    return _FORMATTER.fullmatch(name) is not None


def handles(*names: str, partly: bool = False) -> Callable[[Handler], Handler]:
    """Register an effect handler; ``partly``: for one mode of a program that is otherwise
    read as unknown (dpkg's `-x` is dpkg-deb's: the rest of dpkg is still read for what it
    deletes or runs, as an unknown program's arguments are)."""
    def register(fn: Handler) -> Handler:
        for n in names:
            (_PARTLY if partly else _HANDLERS)[n] = fn
        return fn

    return register


def stdin_code(cmd: Command) -> bool:
    """Does this command run its standard input as code (``sh``, ``python3``, ``at``)?"""
    name = cmd.name
    args = cmd.args
    if name in SHELLS:
        if shell_code(args) is not None:
            return False
        ops = [a for a in args if not a.text.startswith(("-", "+"))]
        return not ops or any(a.text in ("-s", "-") for a in args) or ops[0].text in (
            "/dev/stdin", "-", "/proc/self/fd/0")
    if LANGUAGES.get(name):
        if code_flag(name, args) is not None or any(a.text == "-m" for a in args):
            return False
        ops = [a for a in args if not a.text.startswith("-") or a.text == "-"]
        return not ops or ops[0].text in ("-", "/dev/stdin")
    if name in ("make", "gmake"):  # make -f - (or /dev/stdin): its makefile comes in
        texts = [a.text for a in args]
        return any(t in ("-f", "--file", "--makefile") and v in ("-", "/dev/stdin")
                   for t, v in itertools.pairwise(texts)) or "-f-" in texts
    if name in ("at", "batch"):  # at TIME reads its commands from its input
        return not {a.text for a in args} & {"-l", "-r", "-d", "-c", "-f", "-h", "-V",
                                             "--help", "-q"}
    return (name in ("source", ".") and not args) or (
        name in ("source", ".") and bool(args) and args[0].text in ("/dev/stdin", "-"))


def _executes(cmd: Command) -> list[Effect]:
    name = cmd.name
    args = cmd.args
    first = cmd.argv[0] if cmd.argv else None
    out: list[Effect] = []
    if stdin_code(cmd):
        out.append(Effect("stdin-code", cmd))
    if first is not None and "/" in first.text and name not in SHELLS:
        out.append(Effect("exec", cmd, first))
    if name in SHELLS and shell_code(args) is None:
        ops = [a for a in args if not a.text.startswith(("-", "+"))]
        if ops and ops[0].text not in ("-", "/dev/stdin"):
            out.append(Effect("exec", cmd, ops[0]))
    elif name in LANGUAGES and LANGUAGES[name] and code_flag(name, args) is None:
        ops = [a for a in args if not a.text.startswith("-")]
        if ops and not any(a.text == "-m" for a in args):
            out.append(Effect("exec", cmd, ops[0]))
    elif name in ("source", ".") and args:
        out.append(Effect("exec", cmd, args[0]))
    out += [Effect("exec", cmd, w) for w in (*file_runs(cmd), *registered(cmd))]
    out += [Effect("exec", cmd, w, detail="project") for w in project_places(cmd)]
    out += [Effect("exec", cmd, w, detail="installs") for w in installed(cmd)]
    ran = {e.word.text for e in out if e.word is not None}
    out += [Effect("exec", cmd, w, detail="loads") for w in option_loads(cmd)
            if w.text not in ran]  # (`node --require x.js`: x.js read as the script too)
    return out


def effects(cmd: Command) -> list[Effect]:
    """Every effect of one command: its own, its redirections', what it runs (worked out
    once per command, kept with it)."""
    return list(cmd.worked_out)


def work_out(cmd: Command) -> list[Effect]:
    out: list[Effect] = []
    handler = _HANDLERS.get(cmd.name) or (
        _HANDLERS.get("mkfs") if formats_a_volume(cmd.name) else None)
    if handler is not None:
        out += handler(cmd)
    partly = _PARTLY.get(cmd.name)
    if partly is not None:
        out += partly(cmd)
    out += [Effect("delete" if d == "empties it first" else "write", cmd, w, d == (
        "empties it first"), detail=d) for w, d in outputs(cmd)]  # ([[output]] rows, …)
    for r in cmd.redirects:
        if r.target is None:
            continue
        if r.target.text.startswith(("/dev/tcp/", "/dev/udp/")):
            shellish = cmd.name in SHELLS or cmd.name in LANGUAGES or cmd.name == "exec"
            out.append(Effect("network-shell" if shellish else "send", cmd, r.target,
                              detail="/dev/tcp"))
        elif r.writes:
            out.append(Effect("write", cmd, r.target, detail="without end" if endless(cmd)
                              and not SAFE_SINKS.match(r.target.text) else "redirect"))
        elif r.reads:
            out.append(Effect("read", cmd, r.target, detail="redirect"))
    out += _executes(cmd)
    args = cmd.args
    # what an argument's address or path says is read (looked at word by word only when
    # one of them could say so: a plain search over them all first)
    hint = " ".join([a.text for a in args]).lower()
    for a in args if ("169.254" in hint or "metadata" in hint or ".sock" in hint or
                      "file://" in hint or "100.100.100.200" in hint or "ec2::254" in hint
                      ) else ():
        if _METADATA.match(a.text) and (_CREDENTIAL_PATH.search(a.text) or
                                         _CONTAINER_CREDENTIALS.match(a.text)):
            out.append(Effect("read", cmd, None, detail="the machine's cloud credentials"))
        if _DAEMON_SOCKET.search(a.text) and a.known:
            out.append(Effect("read", cmd, None, detail="talks to a container daemon's "
                                                        "socket (root on the host)"))
        if a.text.startswith("file://") and a.known:
            path = a.text[len("file://"):]
            out.append(Effect("read", cmd, Word(path, a.raw, a.glob, a.tame, a.sources),
                              detail="a file: address"))
    if cmd.name in GREPS and any(u.name == "ps" for u in cmd.upstream) and any(
            CREDENTIAL_HINT.search(a.text) for a in cmd.args if not a.text.startswith("-")):
        # `ps auxww | grep -i token`: credentials hunted in other processes' command lines
        out.append(Effect("read", cmd, None, detail="credentials from other processes' "
                                                    "command lines"))
    if reads_clipboard(cmd):
        out.append(Effect("read", cmd, None, detail="the clipboard"))
    if dumps_environment(cmd) and not (cmd.where and cmd.where[-1].startswith("argument of ")):
        # (`tldr env`: a program's name among an unknown one's arguments is read for what
        # it would change, and printing changes nothing)
        out.append(Effect("read", cmd, None, detail="the environment"))
    elif prints_credential(cmd):
        out.append(Effect("read", cmd, None, detail="a credential"))
    if cmd.name not in NOT_READERS and cmd.name not in _HANDLERS:
        flags = FOREIGN.get(cmd.name, frozenset())
        for before, a in zip((None, *cmd.args), cmd.args, strict=False):
            if a.text.startswith("-") or not a.text or (
                    UNKNOWN in a.text and not a.text.startswith(("/", "~"))) or (
                    before is not None and before.text.lower() in flags):
                continue  # (`pwsh -c CODE`: code, read as its language is, not a path)
            out.append(Effect("read", cmd, a, detail="operand"))
    elif cmd.args and cmd.name not in _KEY_USERS and (
            cmd.name in _HANDLERS or cmd.name in _GIVEN_READERS):
        # sed's files, a script's arguments: a secret among them is read (the rest of
        # what these read is their own reading's)
        seen = {e.word.text for e in out if e.word is not None}
        for a in cmd.args:
            if a.text not in seen and a.known and not a.text.startswith("-") and maybe_secret(
                    a.text) and classify(a, cmd.cwd).kind == "secret":
                out.append(Effect("read", cmd, a, detail="operand"))
    return out


SAFE_SINKS = re.compile(r"^/dev/(?:null|stdout|stderr|tty|fd/[12])$")
# a cloud's instance metadata service, and its paths that hand out the machine's credentials
_METADATA = re.compile(r"^(?:https?://)?(?:169\.254\.169\.254|169\.254\.170\.2|"
                       r"metadata\.google\.internal|metadata|100\.100\.100\.200|"
                       r"\[?fd00:ec2::254\]?)(?![\w.-])", re.I)
_CREDENTIAL_PATH = re.compile(r"(?i)security-credentials|/token|identity|service-accounts|"
                              r"credentials|/ram/security")
_CONTAINER_CREDENTIALS = re.compile(r"^(?:https?://)?169\.254\.170\.2")
# the socket of a container daemon: whoever talks to it is root on the host
_DAEMON_SOCKET = re.compile(r"(?:docker|containerd|crio|podman|dockershim)\.sock\b")
# programs that pick lines by a pattern, and a pattern that hunts for credentials
GREPS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack"})
CREDENTIAL_HINT = re.compile(r"(?i)key|token|secret|pass|pwd|api|auth|cred|cookie|session|"
                             r"private")
_PASTES = frozenset({"pbpaste", "wl-paste", "clipman", "copyq", "gpaste-client"})
_COPY_FLAGS = frozenset({"-i", "-in", "--input", "-a", "--append", "-c", "--clear", "-d",
                         "--delete", "-x", "--exchange", "-k", "--keep"})


def reads_clipboard(cmd: Command) -> bool:
    """``pbpaste``, ``xclip -o``, ``xsel`` with nothing on its input: what the person
    copied (a password, a key) printed."""
    if cmd.name in _PASTES:
        return "--help" not in [a.text for a in cmd.args]
    if cmd.name not in ("xclip", "xsel"):
        return False
    texts = {a.text for a in cmd.args}
    if texts & {"-o", "-out", "--output"}:
        return True
    # xsel prints unless told to copy or fed (xclip copies unless told to print); flags may
    # come clustered (`xsel -cb` clears)
    clustered = {f"-{c}" for t in texts if t.startswith("-") and not t.startswith("--")
                 for c in t[1:]}
    return cmd.name == "xsel" and not (texts | clustered) & _COPY_FLAGS and not (
        cmd.upstream) and not any(r.reads for r in cmd.redirects)


def dumps_environment(cmd: Command) -> bool:
    """``env``, ``printenv``, ``export -p``, ``declare -x``, ``set``, ``ps eww``: every
    variable's value printed (an agent's keys and tokens live there)."""
    name = cmd.name
    if name not in ENV_DUMPERS and name != "ps":
        return False  # (the common case, before any list is made)
    texts = [a.text for a in cmd.args]
    if name == "ps":  # BSD style: `ps e`, `ps eww`, `ps auxe` print each process's environment
        return any(not t.startswith("-") and "e" in t and t.isalpha() and len(t) <= 6
                   for t in texts)
    if name == "set":
        return not texts
    if name in ("export", "declare", "typeset"):
        return all(t in ("-p", "-x", "-px", "-xp") for t in texts)
    return not [t for t in texts if not t.startswith("-")] and "--help" not in texts


def prints_credential(cmd: Command) -> bool:
    """A command that names a credential and says it prints it (``vault print token``,
    ``gh auth status --show-token``)."""
    verb = False
    for a in cmd.argv[1:]:
        t = a.text
        if t[:2] == "--" and _SHOWS.match(t):
            return True
        if not verb and t in _PRINTS_ANY:
            verb = True
    if not verb:
        return False  # (the common case: no word that says it prints)
    return any(_CREDENTIAL.search(a.text) and a.known and "/" not in a.text.rpartition(":")[2]
               and not a.text.startswith("--") for a in cmd.argv[1:])
