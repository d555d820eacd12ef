"""The effect model: what each command reads, writes, deletes, re-modes or re-owns, runs,
and sends over the network, by command, with each command's own option grammar."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Literal

import attrs

from toolpipe.shell._model import Command
from toolpipe.shell._oneliners import LANGUAGES, code_flag
from toolpipe.shell._words import UNKNOWN, Word, literal
from toolpipe.shell._wrappers import SHELLS, find_item, shell_code

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
                                   "smbclient", "nslookup", "dig", "gsutil", "aws"})
NETWORK_SOURCES = DOWNLOADERS | frozenset({"nc", "ncat", "netcat", "socat", "telnet", "ssh",
                                           "openssl"})
DECODERS = frozenset({"base64", "base32", "basenc", "xxd", "uudecode", "openssl", "gpg",
                      "gunzip", "zcat", "bunzip2", "xz", "unxz", "rev", "tr", "printf"})


def sends(cmd: Command) -> bool:
    """Does the command talk to the network (a network tool, or a /dev/tcp redirection)?"""
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
ENV_DUMPERS = frozenset({"env", "printenv", "set", "export", "declare", "compgen"})
POWER = frozenset({"shutdown", "reboot", "poweroff", "halt"})


def _split(args: Sequence[Word], valued: str = "", long_valued: Sequence[str] = ()
           ) -> tuple[set[str], dict[str, Word], list[Word]]:
    """Options (short letters and long names), their values, and the operands."""
    flags: set[str] = set()
    values: dict[str, Word] = {}
    operands: list[Word] = []
    i = 0
    while i < len(args):
        a = args[i]
        t = a.text
        if t == "--":
            operands += args[i + 1:]
            break
        if t.startswith("--") and len(t) > 2:
            name, eq, value = t.partition("=")
            flags.add(name)
            if name in long_valued:
                if eq:
                    values[name] = Word(value, a.raw, a.glob, a.tame, a.sources)
                elif i + 1 < len(args):
                    i += 1
                    values[name] = args[i]
        elif t.startswith("-") and len(t) > 1 and t != "-":
            for j, c in enumerate(t[1:]):
                flags.add(c)
                if c in valued:
                    rest = t[j + 2:]
                    if rest:
                        values[c] = Word(rest, a.raw, False, a.tame, a.sources)
                    elif i + 1 < len(args):
                        i += 1
                        values[c] = args[i]
                    break
        else:
            operands.append(a)
        i += 1
    return flags, values, operands


Handler = Callable[[Command], list[Effect]]
_HANDLERS: dict[str, Handler] = {}


def handles(*names: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for n in names:
            _HANDLERS[n] = fn
        return fn

    return register


@handles("rm", "srm", "wipe", "trash", "trash-put", "gio")
def _rm(cmd: Command) -> list[Effect]:
    flags, _, operands = _split(cmd.args)
    if cmd.name == "gio":
        if not operands or operands[0].text not in ("remove", "trash"):
            return []
        operands = operands[1:]
    recursive = bool(flags & {"r", "R", "--recursive"}) or cmd.name in ("srm", "wipe")
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
            out += [Effect("fetch", cmd, w) for w in ops if _remote(w)]
            out.append(Effect("write", cmd, target))
        return out
    out.append(Effect("write", cmd, target))
    if cmd.name == "mv":
        out += [Effect("delete", cmd, w, recursive=True, detail="moves away") for w in ops]
    elif cmd.name != "ln":
        out += [Effect("read", cmd, w) for w in ops]
    if cmd.name == "rsync" and any(f.startswith("--delete") for f in flags):
        out.append(Effect("delete", cmd, target, recursive=True, forced=True))
    return out


def _remote(w: Word) -> bool:
    t = w.text
    return bool(re.match(r"^([\w.@-]+):(?!//)", t)) and not t.startswith(("/", ".", "~"))


@handles("scp", "sftp", "rclone")
def _scp(cmd: Command) -> list[Effect]:
    _, _, ops = _split(cmd.args, "cFiJlLoPSDX")
    if cmd.name == "rclone" and ops:
        ops = ops[1:]
    if len(ops) < 2:
        return [Effect("send", cmd, None)] if cmd.name == "sftp" else []
    *sources, dest = ops
    if _remote(dest) or (cmd.name == "rclone" and ":" in dest.text):
        return [Effect("send", cmd, w) for w in sources if not _remote(w)]
    return [Effect("write", cmd, dest)] + [Effect("fetch", cmd, w) for w in sources]


@handles("dd")
def _dd(cmd: Command) -> list[Effect]:
    out: list[Effect] = []
    for a in cmd.args:
        if a.text.startswith("of="):
            out.append(Effect("write", cmd, _after(a, "of=")))
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


@handles("sed", "gsed", "perl", "ruby")
def _in_place(cmd: Command) -> list[Effect]:
    args = cmd.args
    in_place = any(a.text.startswith("--in-place") or (
        a.text.startswith("-") and not a.text.startswith("--") and "i" in a.text[1:2 + (
            cmd.name in ("perl", "ruby")) * 8]) for a in args)
    if not in_place:
        return []
    _flags, values, ops = _split(args, "ef" if cmd.name in ("sed", "gsed") else "eEI",
                                ("--expression", "--file"))
    if cmd.name in ("sed", "gsed") and not (values.keys() & {"e", "f", "--expression",
                                                              "--file"}):
        ops = ops[1:]
    return [Effect("write", cmd, w, detail="edits in place") for w in ops]


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


# Commands that destroy what is on a block device, and the words that make them do so
# (None: the command always does).
DEVICE_WRITERS: dict[str, frozenset[str] | None] = {
    "mkfs": None, "mke2fs": None, "mkswap": None, "pvremove": None, "pvcreate": None,
    "wipefs": frozenset({"-a", "--all", "-o", "--offset", "-af", "-fa"}),
    "cryptsetup": frozenset({"luksformat", "erase", "lukserase", "reencrypt"}),
    "mdadm": frozenset({"--zero-superblock", "--create", "-C"}),
    "sgdisk": frozenset({"--zap-all", "-Z", "-z", "--clear", "-o", "--delete", "-d", "-n",
                         "--new"}),
    "sfdisk": frozenset({"--delete", "<", "<<", "<<<", "|"}),
    "parted": frozenset({"mklabel", "rm", "mkpart", "resizepart", "mktable"}),
    "badblocks": frozenset({"-w"}), "nvme": frozenset({"format", "sanitize"}),
    "hdparm": frozenset({"--security-erase", "--security-erase-enhanced",
                         "--trim-sector-ranges"}),
    "zpool": frozenset({"create", "labelclear", "destroy"}),
    "fdisk": frozenset({"<", "<<", "<<<", "|"}), "gdisk": frozenset({"<", "<<", "<<<", "|"}),
    "zfs": frozenset({"destroy"}), "flashrom": frozenset({"-w"}),
}
DRY_RUN = {"wipefs": frozenset({"-n", "--no-act"}), "sfdisk": frozenset({"--no-act", "-n"}),
           "mke2fs": frozenset({"-n"}), "mkfs": frozenset({"--dry-run"}),
           "mkswap": frozenset({"--check"})}


def _device(cmd: Command) -> list[Effect]:
    name = cmd.name
    key = "mkfs" if name.startswith("mkfs") else name
    needed = DEVICE_WRITERS[key]
    words = {a.text.lower() for a in cmd.args} | {a.text for a in cmd.args}
    words |= {r.op for r in cmd.redirects} | ({"|"} if cmd.upstream else set())
    texts = {a.text for a in cmd.args}
    if texts & {"--help", "--version"} or (
            key in ("fdisk", "gdisk", "sfdisk", "parted") and texts & {"-l", "--list"}):
        return []
    if needed is not None and not (needed & words):
        return []
    if DRY_RUN.get(key, frozenset()) & words:
        return []
    targets = [a for a in cmd.args if a.text.startswith("/dev/") or not a.known]
    targets += [r.target for r in cmd.redirects if r.op == "<" and r.target is not None
                and r.target.text.startswith("/dev/")]
    if key in ("zpool", "zfs"):
        return [Effect("device", cmd, targets[0] if targets else None, detail=name)]
    if not targets and key == "mkfs" and not [a for a in cmd.args if not
                                              a.text.startswith("-")]:
        return [Effect("device", cmd, None, detail=f"{name} with no target")]
    return [Effect("device", cmd, t, detail=name) for t in targets]


for _name in DEVICE_WRITERS:
    _HANDLERS.setdefault(_name, _device)


@handles("lvremove", "vgremove", "lvreduce")
def _lvm(cmd: Command) -> list[Effect]:
    if {a.text for a in cmd.args} & {"-h", "--help", "--version"}:
        return []
    return [Effect("device", cmd, None, detail=f"{cmd.name} destroys logical volumes")]


@handles("curl", "curlie")
def _curl(cmd: Command) -> list[Effect]:
    flags, values, ops = _split(cmd.args, "AbcCdDeEFHKmorQTuUwxXyYz", (
        "--output", "--data", "--data-binary", "--data-raw", "--data-urlencode",
        "--data-ascii", "--form", "--form-string", "--upload-file", "--json", "--header",
        "--user-agent", "--cookie", "--cookie-jar", "--config", "--user", "--request",
        "--proxy", "--url", "--referer", "--max-time", "--connect-timeout", "--retry",
        "--output-dir", "--write-out", "--cert", "--key", "--cacert", "--resolve"))
    return _transfer(cmd, flags, values, ops, out_opts=("o", "--output"), remote_flag="O")


@handles("wget", "wget2")
def _wget(cmd: Command) -> list[Effect]:
    flags, values, ops = _split(cmd.args, "aAbeEiIlnoOPQRtTUwXD", (
        "--output-document", "--post-file", "--body-file", "--post-data", "--body-data",
        "--directory-prefix", "--input-file", "--header", "--user-agent", "--user",
        "--password", "--tries", "--timeout", "--method", "--output-file", "--level"))
    out = _transfer(cmd, flags, values, ops, out_opts=("O", "--output-document"),
                    remote_flag="")
    for key in ("--post-file", "--body-file"):
        if key in values:
            out.append(Effect("send", cmd, values[key]))
    return out


def _transfer(cmd: Command, flags: set[str], values: dict[str, Word], ops: list[Word],
              out_opts: tuple[str, str], remote_flag: str) -> list[Effect]:
    out: list[Effect] = []
    urls = ops + ([values["--url"]] if "--url" in values else [])
    for u in urls:
        out.append(Effect("fetch", cmd, u))
    target = values.get(out_opts[0]) or values.get(out_opts[1])
    if target is not None and target.text != "-":
        out.append(Effect("write", cmd, target))
    elif target is None and (remote_flag in flags or "--remote-name" in flags or (
            cmd.name.startswith("wget") and not remote_flag)):
        for u in urls:
            out.append(Effect("write", cmd, _url_name(u), detail="download"))
    for key in ("d", "F", "T", "--data", "--data-binary", "--data-raw", "--data-urlencode",
                "--data-ascii", "--form", "--upload-file", "--json"):
        value = values.get(key)
        if value is None:
            continue
        text = value.text.split("=", 1)[1] if key in ("F", "--form") and "=" in value.text \
            else value.text
        if key in ("T", "--upload-file"):
            out.append(Effect("send", cmd, None if text in ("-", ".") else value))
        elif text.startswith(("@", "<")) and key != "--data-raw":
            path = text[1:].split(";", 1)[0]
            out.append(Effect("send", cmd, None if path == "-" else Word(
                path, value.raw, value.glob, value.tame, value.sources)))
        else:
            out.append(Effect("send", cmd, None, detail="inline data"))
    return out


def _url_name(url: Word) -> Word:
    path = url.text.split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0]
    name = path.rsplit("/", 1)[-1] if "/" in path else "index.html"
    return Word(name or "index.html", url.raw, False, url.tame, url.sources)


@handles("nc", "ncat", "netcat", "socat", "telnet")
def _netcat(cmd: Command) -> list[Effect]:
    texts = [a.text for a in cmd.args]
    lowered = " ".join(texts).lower()
    if cmd.name == "socat":
        if re.search(r"\b(exec|system):", lowered):
            return [Effect("network-shell", cmd, detail="socat exec")]
    elif any(t in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec") or
             (t.startswith("-") and not t.startswith("--") and t[-1] in "ec" and
              t[1:].isalpha()) for t in texts):
        return [Effect("network-shell", cmd, detail=f"{cmd.name} -e")]
    out = [Effect("fetch", cmd)]
    if cmd.upstream or any(r.reads for r in cmd.redirects):
        out.append(Effect("send", cmd, None))
    return out


@handles("git")
def _git(cmd: Command) -> list[Effect]:
    args = list(cmd.args)
    while args and args[0].text in ("-C", "-c", "--git-dir", "--work-tree", "--namespace"):
        args = args[2:]
    while args and args[0].text.startswith("-"):
        args = args[1:]
    if not args:
        return []
    sub, rest = args[0].text, args[1:]
    texts = [a.text for a in rest]
    if sub == "push":
        out: list[Effect] = []
        if any(t in ("-f", "--force", "--mirror") or re.fullmatch(r"-[a-z]*f[a-z]*", t)
               for t in texts):
            out.append(Effect("force-push", cmd, detail="--force"))
        if any(t.startswith("+") for t in texts):
            out.append(Effect("force-push", cmd, detail="a + refspec"))
        if any(t.startswith("--force-with-lease") for t in texts):
            out.append(Effect("force-push", cmd, detail="--force-with-lease"))
        if any(t in ("-d", "--delete", "--prune") for t in texts) or any(
                t.startswith(":") and len(t) > 1 for t in texts):
            out.append(Effect("remote-delete", cmd))
        return out
    if sub == "clean":
        flags, _, _ = _split(rest)
        if flags & {"f", "--force"}:
            return [Effect("delete", cmd, literal("."), "d" in flags, True, "git clean")]
    if sub == "filter-branch" or (sub == "reflog" and "expire" in texts):
        return [Effect("force-push", cmd, detail=f"git {sub} rewrites history")]
    return []


@handles("crontab")
def _crontab(cmd: Command) -> list[Effect]:
    flags, _values, _ops = _split(cmd.args, "u")
    cron = literal("/var/spool/cron/crontabs")
    if "r" in flags:
        return [Effect("delete", cmd, cron, detail="crontab -r")]
    if flags & {"l", "e"}:
        return []
    return [Effect("write", cmd, cron, detail="installs a crontab")]


@handles("sudoedit", "vipw", "visudo")
def _sudoedit(cmd: Command) -> list[Effect]:
    ops = _split(cmd.args)[2] or [literal("/etc/sudoers" if cmd.name == "visudo" else
                                          "/etc/passwd")]
    return [Effect("write", cmd, w) for w in ops]


@handles("kill", "pkill", "killall", "killall5")
def _kill(cmd: Command) -> list[Effect]:
    texts = [a.text for a in cmd.args]
    if cmd.name == "killall5" or ((cmd.name == "kill" and "-1" in texts[1:]) or (texts[-1:] == [
            "-1"] and len(texts) > 1)) or (cmd.name == "kill" and "1" in texts):
        return [Effect("kill-all", cmd)]
    return []


@handles(*POWER, "init", "telinit", "systemctl")
def _power(cmd: Command) -> list[Effect]:
    texts = [a.text for a in cmd.args]
    if cmd.name in POWER or (cmd.name in ("init", "telinit") and texts[:1] in (["0"], ["6"])):
        return [Effect("power", cmd)]
    if cmd.name == "systemctl" and set(texts) & {"poweroff", "reboot", "halt", "kexec"}:
        return [Effect("power", cmd)]
    if cmd.name == "systemctl" and set(texts) & {"enable", "link", "preset"} and not set(
            texts) & {"--user", "--help"}:
        return [Effect("service", cmd, detail="systemctl enable")]
    return []


@handles("iptables", "ip6tables", "nft", "ufw")
def _firewall(cmd: Command) -> list[Effect]:
    texts = [a.text for a in cmd.args]
    flush = {"-F", "--flush", "-X", "--delete-chain"} & set(texts) or (
        cmd.name == "nft" and texts[:2] == ["flush", "ruleset"]) or (
        cmd.name == "ufw" and texts[:1] in (["disable"], ["reset"]))
    return [Effect("firewall", cmd, detail=" ".join(texts[:2]))] if flush else []


@handles("find")
def _find(cmd: Command) -> list[Effect]:
    if "-delete" not in [a.text for a in cmd.args]:
        return []
    roots, item, _ = find_item(cmd.args)
    targets = [item] if item.known else roots or [literal(".")]
    return [Effect("delete", cmd, w, recursive=True, forced=True, detail="find -delete")
            for w in targets]


@handles("gpg", "gpg2")
def _gpg(cmd: Command) -> list[Effect]:
    if {a.text for a in cmd.args} & {"--export-secret-keys", "--export-secret-subkeys"}:
        return [Effect("read", cmd, literal("~/.gnupg"), detail="gpg --export-secret-keys")]
    return []


@handles("history")
def _history(cmd: Command) -> list[Effect]:
    return [Effect("history", cmd)] if any(a.text in ("-c", "-w", "-d") for a in cmd.args) else []


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
    return (name in ("at", "batch", "source", ".") and not args) or (
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
    return out


def effects(cmd: Command) -> list[Effect]:
    """Every effect of one command: its own, its redirections', what it runs."""
    out: list[Effect] = []
    handler = _HANDLERS.get(cmd.name) or (_device if cmd.name.startswith("mkfs") else None)
    if handler is not None:
        out += handler(cmd)
    for r in cmd.redirects:
        if r.target is None:
            continue
        if r.target.text.startswith(("/dev/tcp/", "/dev/udp/")):
            shellish = cmd.name in SHELLS or cmd.name in LANGUAGES or cmd.name == "exec"
            out.append(Effect("network-shell" if shellish else "send", cmd, r.target,
                              detail="/dev/tcp"))
        elif r.writes:
            out.append(Effect("write", cmd, r.target, detail="redirect"))
        elif r.reads:
            out.append(Effect("read", cmd, r.target, detail="redirect"))
    out += _executes(cmd)
    if cmd.name in ENV_DUMPERS and not [a for a in cmd.args if not a.text.startswith("-")]:
        out.append(Effect("read", cmd, None, detail="the environment"))
    if cmd.name not in NOT_READERS and cmd.name not in _HANDLERS:
        for a in cmd.args:
            if a.text.startswith("-") or not a.text or (
                    UNKNOWN in a.text and not a.text.startswith(("/", "~"))):
                continue
            out.append(Effect("read", cmd, a, detail="operand"))
    return out
