"""Effects of the commands that act on the machine and the network: block devices and
volumes, downloads and uploads, sockets, crontabs, signals, power, services, the
firewall, keys and the shell history (git's are in ``_git``).

The handlers register themselves with :func:`~toolpipe.shell._effects.handles`."""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Sequence

from toolpipe.shell._effects import (
    _HANDLERS,
    POWER,
    Effect,
    formats_a_volume,
    handles,
)
from toolpipe.shell._listings import find_item
from toolpipe.shell._model import Command
from toolpipe.shell._options import split as _split
from toolpipe.shell._places import maybe_secret
from toolpipe.shell._transfers import socat_sends
from toolpipe.shell._words import Word, literal

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
    key = "mkfs" if formats_a_volume(name) else name
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
        # into the folder an option names (wget -P, curl --output-dir), else here
        folder = values.get("P") or values.get("--directory-prefix") or values.get(
            "--output-dir")
        for u in urls:
            out.append(Effect("write", cmd, url_name(u, folder), detail="download"))
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


def url_name(url: Word, folder: Word | None = None) -> Word:
    """The file a download by the URL's own name writes, in ``folder`` when one is named."""
    path = url.text.split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0]
    name = path.rsplit("/", 1)[-1] if "/" in path else "index.html"
    if folder is not None:
        return Word(posixpath.join(folder.text, name or "index.html"), folder.raw,
                    folder.glob, folder.tame, folder.sources)
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
    out = [Effect("fetch", cmd)] + [Effect("send", cmd, w) for w in socat_sends(cmd)]
    if cmd.upstream or any(r.reads for r in cmd.redirects):
        out.append(Effect("send", cmd, None))
    return out


def _given(args: Sequence[Word], option: str) -> list[Word]:
    """The words given to ``option`` wherever it stands: ``OPTION VALUE``, and
    ``--option=VALUE`` for a long one."""
    out: list[Word] = []
    for i, a in enumerate(args):
        if a.text == option and i + 1 < len(args):
            out.append(args[i + 1])
        elif option.startswith("--") and a.text.startswith(option + "="):
            text = a.text[len(option) + 1:]
            out.append(Word(text, a.raw, a.glob, a.tame, a.sources))
    return out


@handles("openssl")
def _openssl(cmd: Command) -> list[Effect]:
    """Key and certificate work writes its -out and -keyout files; s_client talks."""
    if not cmd.args:
        return []
    # every option of openssl takes at most one value and none stops the options: find the
    # file options wherever they are (`enc -aes-256-cbc -pass pass:x -in a -out b`)
    values = {option: words[-1] for option in ("-out", "-keyout", "-in", "-key", "-signkey",
                                               "-connect")
              if (words := _given(cmd.args[1:], option))}
    out = [Effect("write", cmd, values[k]) for k in ("-out", "-keyout") if k in values]
    out += [Effect("read", cmd, values[k]) for k in ("-in", "-key", "-signkey")
            if k in values and cmd.args[0].text in ("rsa", "pkey", "ec", "enc", "base64")]
    if cmd.args[0].text in ("s_client", "s_server", "s_time", "ocsp"):
        out.append(Effect("fetch", cmd))
    return out


@handles("certtool", "tomb", "cosign", "minisign", "signify")
def _key_tools(cmd: Command) -> list[Effect]:
    """Tools a key is made for (GnuTLS' certtool, tomb, cosign, minisign…): a key file
    given to them is used where it is, and is a secret read only on a line that sends
    something (the rules' read: `certtool --load-privkey k.pem … | curl -d @- …`)."""
    shown = cmd.name == "certtool" and any(a.text in _SHOWS_KEY for a in cmd.args)
    return [Effect("read", cmd, a, detail="" if shown else "uses a key") for a in cmd.args
            if a.known and maybe_secret(a.text.rpartition("=")[2])]


_SHOWS_KEY = frozenset({"-k", "--key-info", "--p12-info", "--p8-info"})  # certtool prints it


@handles("aws")
def _aws(cmd: Command) -> list[Effect]:
    """The AWS CLI reads a local file only where it is given one: `s3 cp|mv|sync` operands
    that are not `s3://`, and `file://`/`fileb://` values; its other words are names
    (`--name /app/log-level` names a parameter). A secret's path among them is still read
    (see ``work_out``)."""
    out = [Effect("read", cmd, Word(a.text.split("://", 1)[1], a.raw, a.glob, a.tame,
                                    a.sources))
           for a in cmd.args if a.text.startswith(("file://", "fileb://")) and a.known]
    texts = [a.text for a in cmd.args[:2]]
    if texts[:1] == ["s3"] and len(texts) > 1 and texts[1] in ("cp", "mv", "sync"):
        out += [Effect("read", cmd, a) for a in cmd.args[2:]
                if not a.text.startswith(("-", "s3://"))]
    return out


@handles("crontab")
def _crontab(cmd: Command) -> list[Effect]:
    flags, _values, _ops = _split(cmd.args, "u")
    cron = literal("/var/spool/cron/crontabs")
    if "r" in flags:
        return [Effect("delete", cmd, cron, detail="crontab -r")]
    if flags & {"l", "e"}:
        return []
    return [Effect("write", cmd, cron, detail="installs a crontab")]


@handles("at", "batch")
def _at(cmd: Command) -> list[Effect]:
    """``at TIME``/``batch`` queue a job atd runs later, outside this call (not listing
    or removing jobs, nor one given no commands: ``pyrit batch``)."""
    texts = {a.text for a in cmd.args}
    if texts & {"-l", "-r", "-d", "-c", "-V", "--help", "-h"} or not (
            cmd.stdin_data or cmd.upstream or "-f" in texts or any(
                r.reads for r in cmd.redirects)):
        return []
    return [Effect("write", cmd, literal("/var/spool/cron/atjobs"),
                   detail="schedules a command")]


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
    if ({"--help", "--version", "-h"} & set(texts) and cmd.name != "shutdown") or (
            cmd.name == "shutdown" and {"--help", "--version"} & set(texts)):
        return []  # prints its usage (shutdown -h is halt: only the long options)
    if cmd.name in POWER or (cmd.name in ("init", "telinit") and texts[:1] in (
            ["0"], ["6"], ["1"], ["s"], ["S"])):  # (1 and s: single-user mode)
        return [Effect("power", cmd)]
    if cmd.name == "systemctl" and set(texts) & {"poweroff", "reboot", "halt", "kexec"}:
        return [Effect("power", cmd)]
    if cmd.name == "systemctl" and set(texts) & {"enable", "link", "preset"} and not set(
            texts) & {"--user", "--help"}:
        return [Effect("service", cmd, detail="systemctl enable")]
    return []


@handles("iptables", "ip6tables", "nft", "ufw", "pfctl", "ipfw", "npfctl", "firewall-cmd")
def _firewall(cmd: Command) -> list[Effect]:
    """A firewall's rules dropped or the firewall off: Linux's, the BSDs' and macOS'."""
    texts = [a.text for a in cmd.args]
    name = cmd.name
    words = [t for t in texts if not t.startswith("-")]
    flush = {"-F", "--flush", "-X", "--delete-chain"} & set(texts) or (
        name == "nft" and texts[:2] == ["flush", "ruleset"]) or (
        name == "ufw" and words[:1] in (["disable"], ["reset"]) and "--dry-run" not in texts
    ) or (  # (`ufw --force reset`: its option first)
        name == "pfctl" and any(t == "-d" or t.startswith("-F") for t in texts)) or (
        name == "ipfw" and (words[:1] == ["flush"] or words[:2] in (
            ["disable", "firewall"], ["firewall", "disable"]))) or (
        name == "npfctl" and words[:1] in (["stop"], ["flush"])) or (
        name == "firewall-cmd" and "--set-default-zone=trusted" in texts)
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
    """Exporting secret keys reads ~/.gnupg; -o/--output is a file gpg writes (encrypting,
    decrypting, exporting); encrypting or signing reads the file it is given last."""
    args = cmd.args
    out: list[Effect] = []
    if {a.text for a in args} & {"--export-secret-keys", "--export-secret-subkeys"}:
        out.append(Effect("read", cmd, literal("~/.gnupg"), detail="gpg --export-secret-keys"))
    out += [Effect("write", cmd, w) for option in ("-o", "--output")
            for w in _given(args, option)]
    texts = [a.text for a in args]
    if set(texts) & _GPG_WRITES_BESIDE and not texts[-1].startswith("-") and (
            len(texts) < 2 or texts[-2] not in _GPG_VALUED | {"-o", "--output"}):
        out.append(Effect("read", cmd, args[-1]))  # `gpg -c -o n.gpg ~/.netrc`: ~/.netrc
    if not any(e.kind == "write" for e in out) and set(texts) & _GPG_WRITES_BESIDE and not (
            texts[-1].startswith("-")) and (
            len(texts) < 2 or texts[-2] not in _GPG_VALUED):
        last = args[-1]  # `gpg -c FILE` writes FILE.gpg beside it
        out.append(Effect("write", cmd, Word(last.text + ".gpg", last.raw + ".gpg", last.glob,
                                             last.tame, last.sources)))
    return out


_GPG_WRITES_BESIDE = frozenset({"-c", "--symmetric", "-e", "--encrypt", "-s", "--sign",
                                "--clearsign", "--enarmor"})
_GPG_VALUED = frozenset({"--passphrase", "-r", "--recipient", "-u", "--local-user",
                         "--homedir", "--passphrase-file", "--pinentry-mode", "--cipher-algo",
                         "--compress-algo", "-z", "--default-key", "--trust-model"})


@handles("ssh-keygen")
def _ssh_keygen(cmd: Command) -> list[Effect]:
    """``ssh-keygen -f FILE`` makes a key there (FILE and FILE.pub), unless it only reads,
    prints or checks one; ``-p`` rewrites it with a new passphrase."""
    texts = [a.text for a in cmd.args]
    if {"-l", "-y", "-F", "-B", "-e", "-i", "-L", "-Q", "-r", "-R", "-H", "-D", "-K",
            "-lf", "-yf", "-Y"} & set(texts):
        return []
    # where the file is, ssh-keygen asks before it overwrites it, and an agent cannot
    # answer: only a `y` fed on its input (`<<< y`, `yes |`) replaces a key
    fed = any(d.text.strip().lower().startswith("y") for d in cmd.stdin_data) or any(
        u.name == "yes" or (u.name in ("echo", "printf") and [a.text for a in u.args][:1]
                            == ["y"]) for u in cmd.upstream[-1:])
    return [Effect("write", cmd, value, detail="replaces a key")
            for option, value in itertools.pairwise(cmd.args) if option.text == "-f" and fed]


@handles("history")
def _history(cmd: Command) -> list[Effect]:
    return [Effect("history", cmd)] if any(a.text in ("-c", "-w", "-d") for a in cmd.args) else []


@handles("set")
def _set(cmd: Command) -> list[Effect]:
    """``set +o history``: the shell stops keeping its history."""
    texts = [a.text for a in cmd.args]
    return [Effect("history", cmd)] if any(
        t == "+o" and v == "history" for t, v in itertools.pairwise(texts)) else []


_SPLIT_VALUED = frozenset({"-a", "--suffix-length", "-b", "--bytes", "-C", "--line-bytes",
                           "-l", "--lines", "-n", "--number", "-t", "--separator",
                           "--additional-suffix", "--filter"})


@handles("split")
def _split_file(cmd: Command) -> list[Effect]:
    """``split [OPTIONS] [INPUT [PREFIX]]`` reads INPUT and writes PREFIXaa, PREFIXab…: a
    glob of them (``PREFIX*``) stands for them all."""
    operands: list[Word] = []
    skip = False
    for a in cmd.args:
        if skip:
            skip = False
        elif a.text in _SPLIT_VALUED:
            skip = True
        elif a.text == "-" or not a.text.startswith("-"):
            operands.append(a)
    out = [Effect("read", cmd, operands[0])] if operands and operands[0].text != "-" else []
    prefix = operands[1] if len(operands) > 1 else literal("x")
    out.append(Effect("write", cmd, Word(prefix.text + "*", prefix.raw + "*", True,
                                         prefix.tame, prefix.sources)))
    return out
