"""What a program copies from another machine, a store or a container into local files:
a cloud store's copy (``aws s3 cp|mv|sync s3://…``, ``gsutil cp|mv|rsync gs://…``,
``gcloud storage cp``, ``azcopy copy https://…``, ``s3cmd get``), a container's or a
pod's file (``docker cp C:/x .``, ``kubectl cp ns/pod:/x x``), a release's assets (``gh
release download``), a version control system's checkout or export (``svn export URL``,
``hg clone URL``). Each is a ``fetch`` of the source and a write of what lands: the
destination, or under it when it is a folder (``.``, a trailing ``/``) the source's name;
scp's, sftp's and rclone's copies either way are here too; the session's flow treats
what a command fetches as downloaded, as it does curl's (the
fifteenth sitting's held-out sequences: `aws s3 cp s3://b/x.sh x.sh` then `bash x.sh`
ran)."""

from __future__ import annotations

import posixpath
import re

from toolpipe.shell._effects import Effect, handles
from toolpipe.shell._model import Command
from toolpipe.shell._options import split as _split
from toolpipe.shell._system import url_name
from toolpipe.shell._transfers import client_sends
from toolpipe.shell._words import Word, names_folder

# each store's client and its copying subcommands (a source that starts with one of
# _REMOTE, to a local place: a fetch)
_STORES = {"aws": (("s3", "cp"), ("s3", "mv"), ("s3", "sync")),
           "gsutil": (("cp",), ("mv",), ("rsync",)),
           "gcloud": (("storage", "cp"), ("storage", "mv"), ("storage", "rsync")),
           "azcopy": (("copy",), ("cp",), ("sync",)),
           "s3cmd": (("get",), ("sync",))}
_REMOTE = ("s3://", "gs://", "https://", "http://", "az://", "azure://")
_CONTAINERS = {"docker": ("cp",), "podman": ("cp",), "nerdctl": ("cp",), "kubectl": ("cp",),
               "oc": ("cp",)}


def landed(dest: Word, source: str) -> Word:
    """What a copy of ``source`` writes at ``dest``: under it when it names a folder."""
    text = dest.text
    if names_folder(text):
        name = posixpath.basename(source.rstrip("/").rpartition(":")[2]) or source
        text = posixpath.join(text, name) if not source.endswith("/") else text
    return Word(text, dest.raw, dest.glob, dest.tame, dest.sources)


def fetched(cmd: Command, sources: list[Word], dest: Word) -> list[Effect]:
    """Each source fetched, and written where it lands at ``dest``."""
    return [e for s in sources for e in (Effect("fetch", cmd, s),
                                         Effect("write", cmd, landed(dest, s.text)))]


def _fetched(cmd: Command, ops: list[Word], remote: bool) -> list[Effect]:
    return fetched(cmd, ops[:-1], ops[-1]) if remote and len(ops) >= 2 else []


@handles(*_STORES, partly=True)
def _store(cmd: Command) -> list[Effect]:
    texts = [a.text for a in cmd.args]
    for words in _STORES[cmd.name]:
        if texts[:len(words)] == list(words):
            _, _, ops = _split(cmd.args[len(words):], "", (
                "--profile", "--region", "--exclude", "--include", "--endpoint-url",
                "--storage-class", "--acl", "--sse", "--content-type", "-p", "--project"))
            remote = bool(ops) and ops[0].text.startswith(_REMOTE) and not ops[-1].text.startswith(
                _REMOTE)
            return _fetched(cmd, ops, remote)
    return []


@handles(*_CONTAINERS, partly=True)
def _container(cmd: Command) -> list[Effect]:
    texts = [a.text for a in cmd.args]
    if texts[:1] != ["cp"]:
        return []
    _, _, ops = _split(cmd.args[1:], "cn", ("--container", "--namespace", "-c", "-n"))
    remote = len(ops) == 2 and ":" in ops[0].text and not ops[0].text.startswith(
        ("/", ".", "~")) and ":" not in ops[1].text
    return _fetched(cmd, ops, remote)


@handles("gh", "glab", partly=True)
def _release(cmd: Command) -> list[Effect]:
    """``gh release download``: the assets ``-p`` names (or ``-O FILE``) under ``-D DIR``."""
    texts = [a.text for a in cmd.args]
    if texts[:2] != ["release", "download"]:
        return []
    _, values, ops = _split(cmd.args[2:], "RDOpA", ("--repo", "--dir", "--output",
                                                    "--pattern", "--archive"))
    folder = values.get("D") or values.get("--dir")
    named = values.get("O") or values.get("--output")
    pattern = values.get("p") or values.get("--pattern")
    source = ops[0] if ops else (values.get("R") or values.get("--repo") or cmd.args[0])
    if named is not None:
        lands = [named]
    elif pattern is not None:
        lands = [landed(folder, pattern.text) if folder is not None else pattern]
    elif folder is not None:
        lands = [folder]
    else:
        return [Effect("fetch", cmd, source)]
    return [Effect("fetch", cmd, source)] + [Effect("write", cmd, w) for w in lands]


def remote(w: Word) -> bool:
    """``host:path``, ``user@host:path``: a place on another machine, scp's way; or an
    address (``scp://host/x``, ``s3://b/x``: what a copier of another program's arguments,
    read as cp, would fetch), but a ``file://`` one."""
    t = w.text
    return (bool(re.match(r"^([\w.@-]+):(?!//)", t)) and not t.startswith(("/", ".", "~"))) or (
        bool(_ADDRESS.match(t)) and not t.startswith("file://"))


_ADDRESS = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]{0,15}://")


@handles("scp", "sftp", "rclone")
def _scp(cmd: Command) -> list[Effect]:
    _, _, ops = _split(cmd.args, "cFiJlLoPSDX")
    if cmd.name == "rclone" and ops:
        ops = ops[1:]
    if len(ops) < 2:  # (sftp's own commands: `put FILE` on its input, `_transfers`)
        return [Effect("send", cmd, w) for w in client_sends(cmd)] + (
            [Effect("send", cmd, None)] if cmd.name == "sftp" else [])
    *sources, dest = ops
    if remote(dest) or (cmd.name == "rclone" and ":" in dest.text):
        return [Effect("send", cmd, w) for w in sources if not remote(w)]
    return fetched(cmd, sources, dest)


# a version control system's copy of a repository or a file at an address (git's clone is
# the flow's own, its .git kept apart): `svn export|checkout|co URL [DEST]`, `hg clone`,
# `bzr branch`; the place it lands is the program table's [[output]] row's
_CHECKOUTS = {"svn": ("export", "checkout", "co", "cat"), "hg": ("clone",),
              "bzr": ("branch", "checkout", "export"), "brz": ("branch", "checkout", "export")}


@handles(*_CHECKOUTS, partly=True)
def _checkout(cmd: Command) -> list[Effect]:
    if not cmd.args or cmd.args[0].text not in _CHECKOUTS[cmd.name]:
        return []
    return [Effect("fetch", cmd, a) for a in cmd.args[1:] if _ADDRESS.match(a.text)]


# downloaders of their own: aria2c (`-o NAME` inside `-d DIR`, else the address's name) and
# axel (`-o FILE`, a folder too, else the address's name)
@handles("aria2c", "axel")
def _segmented(cmd: Command) -> list[Effect]:
    _, values, ops = _split(cmd.args, "odsxjUn", (
        "--out", "--dir", "--output", "--split", "--max-connection-per-server",
        "--user-agent", "--header", "--num-connections", "--input-file"))
    urls = [w for w in ops if _ADDRESS.match(w.text)]
    named = values.get("o") or values.get("--out") or values.get("--output")
    folder = (values.get("d") or values.get("--dir")) if cmd.name == "aria2c" else None
    out = [Effect("fetch", cmd, u) for u in urls]
    for u in urls:
        if named is None:
            out.append(Effect("write", cmd, url_name(u, folder), detail="download"))
        elif folder is not None:
            out.append(Effect("write", cmd, Word(posixpath.join(folder.text, named.text),
                                                 named.raw, named.glob, named.tame,
                                                 named.sources), detail="download"))
        else:
            out.append(Effect("write", cmd, landed(named, u.text), detail="download"))
    return out
