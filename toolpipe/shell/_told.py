"""What an unknown program is told to do: its subcommand words that delete or destroy,
and the places its options and operands hand it (the shell wing's judgement of a program
no table describes, ``_carried.unknown_program``)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence

from toolpipe.shell._places import classify, holds_secrets
from toolpipe.shell._table import IRREVERSIBLE
from toolpipe.shell._words import Word

# Subcommand words of command-line tools that delete or destroy (heroku's apps:destroy, an
# aws-style delete-bucket too), for a program no table knows: the strong ones alone, the
# common ones (delete, remove…) only with a flag that skips the question (--yes, --force,
# compared lower-cased: `-F`, aliyun's `--Force true`)
_STRONG = (r"destroy|purge|wipe|erase|nuke|terminate|deprovision|decommission|drop|teardown"
           r"|revoke")  # (a certificate or a key revoked cannot be trusted again)
_WEAK = (r"delete|del|remove|rm|rb|uninstall|reset|flush|truncate|prune|kill|shutdown"
         r"|down|disable")  # (`railway down -y`, `azd down --force`: a deployment torn
# down; `firebase hosting:disable --force`: a site taken offline)
_VERB = r"(?i)(?:[\w-]*[:\-_])?(?:{})(?:[:\-_][\w-]*)?"  # apps:destroy, delete_vhost
_STRONG_VERB = re.compile(_VERB.format(_STRONG))
_WEAK_VERB = re.compile(_VERB.format(_WEAK))
_NO_QUESTION = frozenset({"-f", "--force", "-y", "--yes", "--confirm", "--no-confirm",
                          "--auto-approve", "--assume-yes", "--non-interactive",
                          "--force-delete", "--noconfirm", "-yes", "--no-prompt",
                          "--no-prompts", "--quiet", "--no-input", "--silent",
                          # or that deletes everything under a name (`etcdctl del / --prefix`)
                          "--prefix", "--from-key", "-recurse", "--recursive", "--all",
                          "--purge", "--cascade"})


# options that name what a cache purge throws away (`fastly purge --key K`, a URL, a
# tag): one entry of a cache, not data (`purge --all` stays a strong verb)
_CACHE_SELECTORS = frozenset({"--key", "--url", "--urls", "--surrogate-key", "--tag", "--tags",
                              "--file", "--files", "--path", "--paths", "--host", "--hosts"})


def destroying(args: Sequence[Word]) -> str | None:
    """The first of an unknown program's words (its subcommands: the first three that are
    not options) that destroys, or deletes without asking, if any."""
    texts = [a.text for a in args if a.known]
    # (camelCase read as words: liquibase's dropAll, forceDelete)
    words = [_CAMEL.sub("_", t) for t in texts if not t.startswith("-")][:3]
    # a verb given as an option (`kafka-topics --delete --topic X`, Go's `-purge`) counts
    words += [t.lstrip("-") for t in texts if t.startswith("-") and _DELETE_FLAG.match(t)]
    strong = next((w for w in words if _STRONG_VERB.fullmatch(w)
                   or _CONTAINER_VERB.search(w)), None)  # delete_queue: what holds data
    if strong is not None and not (strong.lower() == "purge" and any(
            a.text.split("=")[0] in _CACHE_SELECTORS for a in args)):
        return strong
    weak = next((w for w in words if _WEAK_VERB.fullmatch(w)), None)
    if weak is None:
        return None
    forced = any(a.text.lower() in _NO_QUESTION or a.text.startswith("--confirm=") or
                 a.text in _EVERYTHING or _PRODUCTION.search(a.text)
                 or _CONTAINER_OPTION.match(a.text) for a in args)
    if not forced and _DELETES.fullmatch(weak):
        forced = any(_OFF_MACHINE.match(a.text.partition("=")[2] if a.text.startswith("-")
                                        else a.text) for a in args if a.known)
    return weak if forced else None


# Off this machine (a registry's image, a DNS zone, a service's customer): a common verb
# that deletes needs no flag that skips a question, since a service's command-line client
# mostly asks none. Known by how such names are spelled: an address with a scheme
# (`docker://…`, `library://…`), a host with a path (`ghcr.io/acme/api:latest`), a domain
# (`acme.com`, not a reverse one: `com.example.app` is an app's id), an ARN, a cloud's
# resource path, a service's object id (`cus_NffrFeUf…`)
_DELETES = re.compile(_VERB.format(r"delete|del|rm|rb|remove|revoke"))
_TLD = r"(?:com|net|org|io|dev|app|co|ai|cloud|me|info|biz|us|uk|de|fr|eu|tech|sh|xyz)"
_OFF_MACHINE = re.compile(
    r"^(?:[a-z][\w+.-]*://\S|arn:aws[\w-]*:|projects/[\w-]+/"
    r"|(?:[a-z0-9-]+\.)+[a-z]{2,}(?::[0-9]+)?/[\w.-]"
    r"|(?!(?:com|org|net|io|de|fr|uk|eu|us|dev|app)\.)(?:[a-z0-9-]+\.)+" + _TLD + r"\.?$"
    r"|[a-z]{2,8}_[A-Za-z0-9]{10,}$)")


def _stem(name: str) -> str:
    """A command's name (its basename, as ``Command.name`` gives it) without its
    extension: `wipe.sh` is `wipe`, `.cleanup` stays as it is."""
    return name.rsplit(".", 1)[0] if "." in name[1:] else name


def named_for_deleting_data(name: str, args: Sequence[Word]) -> str | None:
    """A program whose own name is a verb that deletes and what holds data
    (`kafka-delete-records.sh`, `drop-tables`): its name, else None. Not one a table's row
    judges (`dropdb`), nor one asked only for its help or version."""
    stem = _stem(name)
    if name in IRREVERSIBLE or not _CONTAINER_VERB.search(stem) or any(
            a.text in ("--help", "-h", "--version", "-V") for a in args):
        return None
    return stem


# operands that name everything a store holds (`delete_vhost /`, `--topic '.*'`, `rm '*'`):
# as sure as a flag that skips the question
_EVERYTHING = frozenset({"/", "*", ".*", "**", "", "%", "^.*$", ".+"})
# an operand that names production (`argocd app delete prod`): as sure as --force
_PRODUCTION = re.compile(r"(?i)^(?:prod|production|prd|live)(?:[-_.:/]\S*)?$"
                         r"|[-_.:/](?:prod|production|prd)$")


_OUTPUT_FLAGS = frozenset({"-o", "--output", "--out", "--outfile", "--output-file",
                           "--write", "--save", "--dest", "--destination", "--target"})
# the option names that delete (one list for the flag and for the quick scan below)
_DELETING_OPTIONS = r"(?:delete|remove|rm|purge|wipe|erase|destroy|prune|clean|revoke)"
_DELETE_FLAG = re.compile(r"--?" + _DELETING_OPTIONS + r"(?:[-_=][\w-]*)?$")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# a verb that deletes, joined to what holds data: delete_queue, remove-bucket, drop_tables
# what a cloud runs, its machines and clusters (aliyun's DeleteInstance, `hcloud server
# delete`): among what holds data for the joined forms and the separate words alike
_CLOUD_RUNS = r"instances?|servers?|vms?|machines?|droplets?|clusters?"
# the verbs that delete what holds data, for the joined forms and the separate words alike
_DELETES_WHAT = r"delete|del|remove|rm|truncate|flush|drop|purge|wipe|erase"
_CONTAINER = (r"(?:queue|topic|table|index|indices|indexes|bucket|stream|database|db|vhost|"
              r"collection|keyspace|namespace|volume|snapshot|backup|repo|repository|schema|"
              r"storage|disks?|data|"
              r"records?|messages?|objects?|rows?|documents?|entries|"
              + _CLOUD_RUNS + r"|dbinstances?)")
_CONTAINER_VERB = re.compile(r"(?i)(?:^|[:\-_])(?:" + _DELETES_WHAT + r")[:\-_]?(?:all[:\-_]?)?"
                             + _CONTAINER + r"s?(?:[:\-_]|$)")
# an option naming what holds data, beside a verb that deletes (`--delete --topic orders`)
_CONTAINER_OPTION = re.compile(r"(?i)^--?" + _CONTAINER + r"(?:=|$)")
_REMOTE = re.compile(r"^(?:s3|gs|az|r2|b2|oss|swift|sftp|ftps?|https?|rsync|ssh|scp|webdavs?)"
                     r"://|^[\w.-]+@[\w.-]+:")
# the places that matter: what a told program or one named for deleting is handed there
_MATTERS = frozenset({"system", "persistence", "root", "device", "secret"})
_ANY_TOLD = re.compile(
    r"(?:^| )(?:" + "|".join(re.escape(f) for f in sorted(_OUTPUT_FLAGS)) + r")(?:[ =]|$)"
    r"|(?:^| )--" + _DELETING_OPTIONS +
    r"|(?:^| )(?:[a-z0-9]+://|[\w.-]+@[\w.-]+:)")


def told(args: Sequence[Word], cwd: str | None) -> str | None:
    """What an unknown program's options and operands tell it to do to a place that
    matters: write it (an output option), delete under it (a deleting option), or send a
    folder that holds secrets to a remote address."""
    texts = [a.text for a in args]
    if not _ANY_TOLD.search(" ".join(texts)):
        return None  # the common case: nothing that could tell it so (one C scan)
    places = [(a, classify(a, cwd)) for a in args if a.known and not a.text.startswith("-")]
    for i, t in enumerate(texts):
        name, eq, value = t.partition("=")
        if name in _OUTPUT_FLAGS:
            target = value if eq else (texts[i + 1] if i + 1 < len(texts) else "")
            if target and classify(target, cwd).kind in _MATTERS:
                return f"write {target}"
        if _DELETE_FLAG.match(t):
            hit = next((p for _, p in places if p.kind in _MATTERS | {"outside"}), None)
            if hit is not None:
                return f"delete ({t}) {hit.path}"
    if any(_REMOTE.match(t) for t in texts):
        sent = next((p for _, p in places if p.kind == "secret" or (
            p.kind in ("outside", "root", "system") and holds_secrets(p.path))), None)
        if sent is not None:
            return f"send {sent.path}, which holds secrets, to a remote address"
    return None


# A program named for cleaning or deleting (`./cleanup`, `wipe-all.sh`, a build target
# `//tools:cleanup`), handed a place that matters: what it deletes there is its name's job
_DELETING_NAME = re.compile(r"(?i)(?:^|[-_.:])(?:clean(?:up|er)?|scrub|zap|killall|" + _STRONG + "|"
                            + _WEAK + r")(?:[-_.]|$)")


def named_for_deleting(name: str, args: Sequence[Word], cwd: str | None,
                       program: Word | None = None) -> str | None:
    """The place that matters handed to a program whose name says it deletes, if any; or,
    for one whose name says it removes what it was installed with (`k3s-uninstall.sh`,
    `rke2-killall.sh`) run from outside the project (on the PATH, or by an absolute
    path), that: its own job, which no argument narrows."""
    if not _DELETING_NAME.search(_stem(name)):
        return None
    for a in args:
        if not a.known:
            continue
        value = a.text.partition("=")[2] if a.text.startswith("-") else a.text
        place = classify(value, cwd) if value else None
        if place is not None and place.kind in _MATTERS:
            return place.path
    if program is not None and program.known and _REMOVES_ITS_OWN.search(_stem(name)) and (
            "/" not in program.text or program.text.startswith("/")) and not any(
            a.text in _HELP for a in args):
        return "what it was installed to remove (run from outside the project)"
    return None


_HELP = frozenset({"-h", "--help", "-?", "--version", "-V", "help"})
# names of the scripts that remove what a product installed, or kill its every process
_REMOVES_ITS_OWN = re.compile(r"(?i)(?:^|[-_.])(?:uninstall|killall|nuke|teardown|wipe|"
                              r"destroy|purge|decommission|deprovision)(?:[-_.]|$)")


_PROJECT_RUNS = {"cargo": "run", "go": "run", "npm": "run", "yarn": "run", "pnpm": "run",
                 "bun": "run", "bazel": "run", "bazelisk": "run", "dotnet": "run",
                 "swift": "run", "cabal": "run", "stack": "run", "deno": "task"}


def project_program(name: str, args: Sequence[Word]) -> tuple[str, int] | None:
    """``cargo run -- ARGS``, ``go run ./cmd/x ARGS``, ``npm run clean -- ARGS``, ``bazel run
    //tools:x -- ARGS``: the name of the project's program a runner runs and where the
    arguments handed to it start, or None. (The program is the project's own: an unknown
    program, judged as one by what it is handed.)"""
    texts = [a.text for a in args]
    if _PROJECT_RUNS.get(name) is None or texts[:1] != [_PROJECT_RUNS[name]]:
        return None
    dash = texts.index("--") + 1 if "--" in texts else None
    operands = [i for i, t in enumerate(texts[1:], 1) if not t.startswith("-")]
    if name in ("cargo", "dotnet", "stack"):
        named = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t in (
            "--bin", "--example", "--project")]
        target = named[0] if named else f"{name}-run"
        return (target, dash) if dash is not None else None
    if not operands:
        return None
    first = operands[0]
    target = re.split(r"[:/]", texts[first].rstrip("/"))[-1].removesuffix(".go") or name
    start = dash if dash is not None else first + 1
    return target, start


# What a service's client is told to do that moves money or changes what a customer pays
# (`stripe refunds create`, `… payouts create`, `… subscriptions cancel`), or that silences
# the alerts people rely on (`amtool silence add …`, `… synthetics mute --all`): a noun of
# the kind, then a verb that acts (a read, `list`, `get`, `query`, is not one)
_MONEY = re.compile(r"(?i)(?:refunds?|payouts?|transfers?|charges?|payments?|payment_intents?"
                    r"|invoices?|subscriptions?|credit_notes?|disputes?|balance)$")
_MONEY_ACTS = re.compile(r"(?i)(?:create|capture|cancel|pay|void|send|confirm|delete|update"
                         r"|finalize|close|accept|refund|new)$")
_MESSAGES = re.compile(r"(?i)(?:messages?|emails?|mails?|sms|calls?|notifications?|campaigns?"
                       r"|broadcasts?|newsletters?)$")
_MESSAGES_ACTS = re.compile(r"(?i)(?:create|send|publish|post|new|start|schedule|blast)$")
_SILENCE = re.compile(r"(?i)(?:silences?|downtimes?|maintenance(?:[-_]windows?)?|alerts?)$")
_SILENCE_ACTS = re.compile(r"(?i)(?:add|create|new|set|schedule|start|mute|snooze|expire)$")
_WATCHES = re.compile(r"(?i)(?:monitors?|synthetics?|alerts?|alarms?|checks?|notifications?"
                      r"|incidents?|policies|policy|escalations?|pagers?)$")
_MUTES = re.compile(r"(?i)(?:mute|snooze|silence|pause|disable)(?:[-_]all)?$")
# a feature flag's state changed, in an environment named for production (`ldcli flags
# update … --environment production`, `unleash-cli toggle off X --environment prod`)
_FLAGS = re.compile(r"(?i)(?:flags?|features?|toggles?|feature[-_]flags?|switch(?:es)?"
                    r"|kill[-_]switch(?:es)?|experiments?|segments?|rollouts?)$")
_FLAGS_ACTS = re.compile(r"(?i)(?:update|set|toggle|enable|disable|on|off|kill|archive|delete"
                         r"|patch|(?:turn|toggle)[-_]?(?:on|off)|rollout|release|flip|rm|remove)$")


# people's accounts changed by an identity provider's client (`okta-cli users deactivate
# ID`, `… members remove …`): a noun for people, then a verb that takes their access
_PEOPLE = re.compile(r"(?i)(?:users?|accounts?|members?|principals?|identities|employees?"
                     r"|people|persons?)$")
_PEOPLE_ACTS = re.compile(r"(?i)(?:deactivate|suspend|disable|lock|delete|remove|rm|offboard"
                          r"|reset[-_]?password|set[-_]?password|expire[-_]?password"
                          r"|unenroll|make[-_]?admin|promote)$")
# what holds data, then (or after) a verb that deletes it, as separate words (`typesense
# collections delete products`, `pc index delete -n x`, `tool delete tables/orders`): the
# joined forms (`delete_queue`) are `_CONTAINER_VERB`'s
_HOLDS_DATA = re.compile(r"(?i)(?:collections?|index|indexes|indices|tables?|databases?|dbs?"
                         r"|buckets?|keyspaces?|topics?|queues?|streams?|volumes?|snapshots?"
                         r"|backups?|schemas?|namespaces?|repos?|repositories|realms?|tenants?"
                         r"|vaults?|datasets?|warehouses?|" + _CLOUD_RUNS + r"|linodes?)$")
_DELETES_DATA = re.compile(r"(?i)(?:" + _DELETES_WHAT + r"|empty|destroy)$")
# a service told to send its events to an address (`stripe webhook_endpoints create --url
# https://…`): whatever the events hold goes there
_HOOKS = re.compile(r"(?i)(?:(?:web)?hooks?|webhook[_-]?endpoints?|endpoints?|destinations?"
                    r"|sinks?|integrations?|subscriptions?|notification[_-]?channels?)$")
_HOOKS_ACTS = re.compile(r"(?i)(?:create|add|new|update|set|register)$")
_ADDRESS = re.compile(r"(?i)(?:^|[=\"' ,(\[])https?://"
                      r"(?!(?:localhost|127\.0\.0\.1|\[::1\])(?:[:/\"']|$))")


def _production_named(args: Sequence[Word]) -> bool:
    return any(a.known and _PRODUCTION.search(a.text.partition("=")[2] or a.text)
               for a in args)


def _address_given(args: Sequence[Word]) -> bool:
    return any(a.known and _ADDRESS.search(a.text) for a in args)


# (a noun, a verb, what the arguments must hold too, what the pair does), tried in order
_ACTS: tuple[tuple[re.Pattern[str], Callable[[str], object],
                   Callable[[Sequence[Word]], bool] | None, str], ...] = (
    (_MONEY, _MONEY_ACTS.match, None, "moves money or changes what a customer pays"),
    (_MESSAGES, _MESSAGES_ACTS.match, None, "sends messages to people in the user's name"),
    (_SILENCE, _SILENCE_ACTS.match, None, "silences the alerts people rely on"),
    (_WATCHES, lambda verb: _MUTES.match(verb) or _DELETES.fullmatch(verb), None,
     "silences the alerts people rely on"),
    (_FLAGS, _FLAGS_ACTS.match, _production_named, "changes a feature flag in production"),
    (_PEOPLE, _PEOPLE_ACTS.match, None, "changes people's accounts"),
    (_HOOKS, _HOOKS_ACTS.match, _address_given, "sends a service's events to an address"),
    (_HOLDS_DATA, _DELETES_DATA.match, None, "deletes what holds data"),
)
# any of the nouns (a word that none is can start no pair): the nouns' own patterns
_ANY_NOUN = re.compile("|".join(f"(?:{noun.pattern.removeprefix('(?i)')})"
                                for noun, _, _, _ in _ACTS), re.IGNORECASE)


def acts_off_the_machine(args: Sequence[Word]) -> str | None:
    """What an unknown program's subcommand words (the first five that are not options,
    split at colons) tell it to do to money, to people and their accounts, to alerts, to
    production's feature flags or to where a service's events go, if any."""
    words = [w for a in args[:6] if a.known and not a.text.startswith("-")
             for w in _resource(a.text).split(":") if w][:5]  # (twilio's
    # `api:core:messages:create`, `api:events:v1:sinks:create`)
    if len(words) < 2 or not any(_ANY_NOUN.match(w) for w in words):
        return None
    for first, second in itertools.pairwise(words):
        # a noun then its verb (`users delete ID`), or a verb then its noun (`delete users/ID`)
        for noun, verb in ((first, second), (second, first)):
            for nouns, acts, needs, does in _ACTS:
                if nouns.match(noun) and acts(verb) and (needs is None or needs(args)):
                    return f"{first} {second}: {does}"
    return None


def _resource(text: str) -> str:
    """An operand read as a subcommand word: a resource's path (`users/4f2c…`, as an
    admin API's client takes it) by its first part; anything else as it is."""
    if "/" in text and "://" not in text and not text.startswith(("/", ".", "~")):
        return text.split("/", 1)[0]
    return text


# A Windows program's or library's file (or a script Windows' hosts run, an installer, a
# setup information file): handed to a program this wing does not know from outside the
# workspace, it may be run (`pcalua -a F`, `installutil F`, `regasm F`, `cmstp /s F`,
# `odbcconf /a {REGSVR F}`: Windows' own programs that load what they are given)
_WINDOWS_CODE = re.compile(r"(?i)\.(?:exe|dll|ocx|cpl|scr|com|msi|msp|inf|hta|sct|wsf|wsc"
                           r"|vbs|vbe|jse?|ps1|psm1|bat|cmd)$")
_OUTSIDE = frozenset({"outside", "system", "root", "scratch", "secret", "persistence"})


def windows_code(args: Sequence[Word], cwd: str | None) -> str | None:
    """The Windows program file from outside the workspace among ``args``, if any (an
    option's value too, `/i:F`, `/U F`; a brace's word, `{REGSVR F}`)."""
    for a in args:
        text = a.text.strip("{}\"'")
        text = text.split("=", 1)[-1] if text.startswith(("-", "/")) and "=" in text else text
        if text[:1] == "/" and text[2:3] == ":":  # (`/i:C:\x.sct`: the value after `/i:`)
            text = text[3:]
        if a.known and _WINDOWS_CODE.search(text) and "://" not in text and classify(
                text, cwd).kind in _OUTSIDE:
            return text
    return None
