"""What any program may be told to change, judged by the words every cloud, host and package
manager spells alike (no row per provider): something opened to everyone, a safeguard of
data taken away, a package installed unverified, a change in production (a workload
scaled to nothing, a cluster's or a deployment tool's change where production is named)."""

from __future__ import annotations

import re

from toolpipe.shell import MAX_JOINED, READ_ONLY, Command

# the words one of the checks below needs (any program but a cluster's client, which the
# production check reads whatever its words)
# (matched on the text lower-cased, without (?i): re then skips ahead by first letters,
# five times faster on a command's few dozen characters)
_HINTS = re.compile(
    r"public|users|/0|anonymous|principal|protection|termination|backup|retention|"
    r"suspended|pitr|recovery|lock|allow_|enforce_admins|review_count|replicas|count|"
    r"capacity|max-size|max-instances|unauth|insecure|untrusted|gpg|signature|digest|"
    r"dangerous|skip-verify|auth|protected-mode|grant-tables|empty_password|empty-password|"
    r"security|ssl|tls|waf|mfa|2fa|csrf|xsrf|ddos|brute|rate.?limit")

# Any program told to open something to everyone, by the words every cloud and host spells
# alike (`--acl public-read`, `allUsers`, `--public-access blob`, `--publicly-accessible`,
# `--visibility public`, a rule for 0.0.0.0/0, a principal `*`), together with a verb that
# changes a setting: no row per provider needed
_PUBLIC = re.compile(
    r"(?i)(?:^| )(?:--acl[ =])?public-read(?:-write)?(?: |$)|all(?:Authenticated)?Users"
    r"|(?:^| )--public-access[ =](?:blob|container)|(?:^| )--publicly-accessible(?:[ =]true)?"
    r"(?: |$)|(?:^| )--visibility[ =]public(?: |$)|(?:^| )--allow-blob-public-access(?:[ =]"
    r"true)?(?: |$)|(?:^| |=|,|\[)(?:0\.0\.0\.0/0|::/0)(?: |$|,|\])|--principal[ =]['\"]?\*"
    r"|\"Principal\" ?: ?\"\*\"|(?:^| )--public(?: |$)|(?:^| )--anonymous(?:-access)?(?: |$)"
    r"|(?:^| )--public-access-type[ =]\w*(?:Read|Write)|(?:^| )--acl-public(?: |$)"
    r"|(?:^| )anonymous set (?:download|upload|public)(?: |$)|(?:^| )allPublic(?: |$)")
_CHANGES = re.compile(
    r"(?i)(?:^|[ :_-])(?:set|put|add|create|update|modify|authorize|edit|ch|grant|attach|"
    r"enable|allow|apply|patch|open|expose|share|publish|setacl|setpolicy)(?:[ :_-]|$)")

def settings(cmd: Command) -> list[tuple[float, str]]:
    """The checks of this module for one command: its arguments joined once, and looked
    at in C for the words each check needs before any check runs (most commands hold
    none of them)."""
    if cmd.name in READ_ONLY or not cmd.args:
        return []
    joined = " ".join([a.text for a in cmd.args])
    if len(joined) > MAX_JOINED:
        return []
    lowered = joined.lower()
    names_production = "prod" in lowered or "prd" in lowered or "live" in lowered
    if _HINTS.search(lowered) is None and cmd.name not in _CLUSTER_CLIENTS and not (
            names_production):
        return []
    return [*exposed(cmd, joined), *unprotected(cmd, joined), *unverified(cmd, joined),
            *in_production(cmd, joined), *unguarded(cmd, lowered), *switched_off(cmd, lowered)]


# A service started (or run in a container) with its authentication off, where other
# machines reach it: any server, by the words servers spell alike (`--noauth`, `--auth
# none`, `--skip-grant-tables`, `security.enabled=false`, `ALLOW_EMPTY_PASSWORD=yes`,
# `POSTGRES_HOST_AUTH_METHOD=trust`), with an address of every interface or a port
# published (`0.0.0.0`, `--bind_ip_all`, `-p 5432:5432`); Redis' `protected-mode no` is both
_GUARDS_OFF = re.compile(
    r"(?:^| )--?(?:no-?auth|disable-auth\w*|skip-grant-tables|no-password|allow-empty-password)"
    r"(?:[ =]|$)|(?:^| )--auth(?:entication)?[ =](?:none|false|off|disabled?|no)(?: |$)"
    r"|(?:^|[ .])(?:security|auth\w*)\.enabled=false(?: |$)|allow_empty_password=(?:yes|true|1)"
    r"|_auth_method=trust(?: |$)|(?:^| )--?protected-mode[ =]no(?: |$)")
_EVERYWHERE = re.compile(
    r"(?:^|[ =:'\"])0\.0\.0\.0(?:[: '\"]|$)|(?:^| )--bind[_-]ip[_-]all(?: |$)"
    r"|(?:^| )(?:-p|--publish)[ =]\d+:\d+(?: |$)|(?:^| )--(?:network|net)[ =]host(?: |$)"
    r"|(?:^| )--?protected-mode[ =]no(?: |$)|(?:^|[ =])\[?::\]?(?::\d+)?(?: |$)")


def unguarded(cmd: Command, lowered: str) -> list[tuple[float, str]]:
    """A server's authentication switched off where other machines reach it."""
    if _GUARDS_OFF.search(lowered) is None or _EVERYWHERE.search(lowered) is None:
        return []
    return [(0.6, f"starts a service with its authentication off, reachable from other "
                  f"machines ({cmd.located()})")]


def exposed(cmd: Command, joined: str) -> list[tuple[float, str]]:
    """A setting changed to let everyone in (see ``_PUBLIC``), by any program that does
    more than read (`echo`, `grep` and their kind only print the words)."""
    if _PUBLIC.search(joined) is None:
        return []
    if _CHANGES.search(joined) is None:
        return []  # reads a setting (`get-bucket-acl`, `describe-security-groups`)
    return [(0.6, f"opens something to everyone ({cmd.located()})")]


# A safeguard of data taken away, by any program: deletion or termination protection off
# (`--no-deletion-protection`, `--no-disable-api-termination`, `DeletionProtection=false`),
# backups off or kept for no time (`--backup-retention-period 0`, `--no-backup`),
# versioning suspended, a lock's or retention's configuration emptied (`'{}'`). What it
# protects can then be deleted for good, by the next command or by anyone
_UNPROTECT = re.compile(
    r"(?i)(?:^| )--no-[\w-]*(?:deletion|delete|termination|destroy)-protection[\w-]*(?:[ =]|$)"
    r"|(?:^| )--no-disable-api-(?:termination|stop)(?: |$)"
    r"|(?:^| )--(?:enable-)?(?:deletion|delete|termination|destroy)-protection(?:-enabled)?"
    r"[ =](?:false|0|off|no|disabled?)(?: |$)"
    r"|(?:^| |,)(?:deletion|termination)protection(?:enabled)?=false(?: |,|$)"
    r"|(?:^| |,)pointintimerecoveryenabled=false(?: |,|$)"
    r"|(?:^| )--(?:backups?-retention(?:-period|-days)?|retention(?:-period|-days|-in-days)?)"
    r"[ =]0(?: |$)"
    # or kept for less than a week (`--retention-days=1`, `--retention 12h`): what is older
    # goes at once, and the rest goes soon
    r"|(?:^| )--[\w-]*retention[\w-]*[ =]['\"]?(?:[1-6](?:d|days?)?|[0-9]+(?:ms|s|m|h|min|"
    r"mins|minutes?|hours?|seconds?))['\"]?(?: |$)"
    r"|(?:^| )--no-(?:enable-)?(?:backups?|automated-backups?|point-in-time-recovery|pitr|"
    r"versioning|termination-protection)(?: |$)"
    r"|(?:^| |,|=)status=suspended(?: |,|$)"
    r"|(?:^| )--[\w-]*(?:lock|retention|protection)[\w-]*[ =]['\"]?\{\s*\}['\"]?(?: |$)"
    # a repository's guards, through its host's API: force pushes or deletions allowed,
    # admins exempted, reviews not required
    r"|(?:^| |=)allow_(?:force_pushes|deletions)=true(?: |$)"
    r"|(?:^| |=)enforce_admins=false(?: |$)|(?:^| |=)required_approving_review_count=0(?: |$)")


# A package installed with its signature or digest unchecked, by any package manager:
# whoever serves it, or stands on the way, chooses what runs as its install scripts
_UNVERIFIED = re.compile(
    r"(?:^| )--(?:allow-unauthenticated|allow-insecure-repositories|allow-untrusted|"
    r"nogpgcheck|no-gpg-checks?|no-gpg-verify|nosignature|nodigest|"
    r"dangerous|skip-signature-check|no-verify-signature|force-signature|"
    r"insecure-skip-signature|skip-verify)(?: |=|$)")


def unverified(cmd: Command, joined: str) -> list[tuple[float, str]]:
    """A package installed with its signature unchecked (see ``_UNVERIFIED``)."""
    if _UNVERIFIED.search(joined) is None:
        return []
    return [(0.6, f"installs a package whose signature it does not check: whoever serves "
                  f"it chooses what its install runs ({cmd.located()})")]


# A protection of a service switched off by a setting, by any program that changes one
# (`kcadm.sh update realms/master -s sslRequired=NONE`, `--security-policy=""`, a rate
# limit or a firewall set to off): TLS, a web application firewall, a second factor,
# request forgery checks, flood and guessing limits
_GUARD = (r"[\w.-]*(?:ssl|tls|waf|security[-_]?(?:policy|level)|mfa|2fa|csrf|xsrf|ddos"
          r"|brute[-_]?force|rate[-_]?limit(?:ing)?)[\w.-]*")
_OFF = r"(?:none|off|false|disabled?|no|0|essentially_off)"
_GUARD_OFF = re.compile(
    r"(?:^| )--" + _GUARD + r"(?:=['\"]{0,2}| ['\"]{2}| (?= ))(?= |$)"  # emptied
    r"|(?:^| )--" + _GUARD + r"[= ]['\"]?" + _OFF + r"['\"]?(?= |$)"
    r"|(?:^| )" + _GUARD + r"=['\"]?" + _OFF + r"['\"]?(?= |$)")


def switched_off(cmd: Command, lowered: str) -> list[tuple[float, str]]:
    """A protection switched off by a setting (see ``_GUARD_OFF``)."""
    if _GUARD_OFF.search(lowered) is None or _CHANGES.search(lowered) is None:
        return []
    return [(0.6, f"switches a protection off (TLS, a firewall, a second factor or a "
                  f"limit) ({cmd.located()})")]


def unprotected(cmd: Command, joined: str) -> list[tuple[float, str]]:
    """A safeguard of data taken away (see ``_UNPROTECT``), by any program that does more
    than read."""
    if _UNPROTECT.search(joined) is None:
        return []
    return [(0.6, f"takes a safeguard of data away (deletion protection, backups, "
                  f"versioning or a lock): what it kept can then be lost for good "
                  f"({cmd.located()})")]


# A change to what runs in production, by the clients of clusters and clouds: any of their
# subcommands but those that read (`describe`, `get`, `list`, `status`, `history`…) or run
# a command (`exec`, judged as the command), with a word that names production (`-n prod`,
# `--cluster production`, `prod-db`, `acme-prod-eu`), or one that switches what serves
# users (traffic moved, a rollback, a promotion, slots swapped); and any program told to
# scale a workload to nothing (`--replicas=0`, `--desired-count 0`, `"replicas":0`)
_CLUSTER_CLIENTS = frozenset({
    "kubectl", "oc", "helm", "aws", "gcloud", "az", "doctl", "eksctl", "flyctl", "fly",
    "heroku", "copilot", "ecs-cli", "argocd", "nomad", "kn", "linode-cli", "hcloud", "scw",
    "ibmcloud", "oci", "vercel", "netlify", "railway", "render", "kamal", "dokku",
    # code hosts' and CI's clients, and deployment tools, whose runs go to production
    "gh", "glab", "jenkins-cli", "argo", "circleci", "bk", "tkn", "flux", "spin",
    "skaffold", "helmfile", "waypoint", "octo", "cap", "shipit", "mina", "dep"})
# a program no table knows whose own name or subcommand says it deploys (`./deploy.sh`,
# `shipit … deploy`): a production word handed to it is a change in production
_DEPLOYS = re.compile(r"(?i)(?:^|[-_.:/])(?:deploy|release|ship|promote|rollout|publish|"
                      r"migrate|rollback)(?:s|er|ment)?(?:$|[-_.:/])")
_READS = re.compile(
    r"(?i)(?:describe|get|list|ls|show|view|status|history|logs?|top|explain|diff|plan|"
    r"preview|wait|inspect|watch|output|lookup|search|query|info|cat|print|version|help|"
    r"check|validate|lint|template|whoami|can-i|port-forward|proxy|exec|attach|events|"
    r"api-resources|api-versions|cluster-info|completion|tail|test|estimate|download|"
    r"read|browse|open|login|auth|configure|config|ssh|scp|cp)(?:-[\w-]*)?")
# subcommands that switch what serves users, wherever: traffic moved between revisions,
# a release rolled back or promoted, deployment slots swapped
_SWITCHES = re.compile(r"(?i)(?:update-traffic|set-traffic|traffic|rollback|undo|promote|swap|"
                       r"releases:rollback)")
PRODUCTION = re.compile(r"(?i)(?:^|[-_.:/=,@])(?:prod|production|prd|live)(?:$|[-_.:/,@])")
_ZERO = re.compile(r"(?:^| )--(?:replicas|desired-count|desired-capacity|max-size|max-count|"
                   r"max-instances|max-replicas|count)[ =]0(?: |$)|[\"']?replicas[\"']?\s*:\s*0\b")


def in_production(cmd: Command, joined: str) -> list[tuple[float, str]]:
    """Any workload scaled to nothing; a cluster's or a cloud's client changing what runs
    in production, or switching what serves users; a program named for deploying handed
    production (see above)."""
    if "--dry-run" in joined:
        return []
    if "0" in joined and _ZERO.search(joined):
        return [(0.6, f"scales a workload to nothing: it stops serving "
                      f"({cmd.located()})")]
    texts = [a.text for a in cmd.args]
    words = [t for t in texts if not t.startswith("-")][:4]
    if cmd.name not in _CLUSTER_CLIENTS:
        deploys = _DEPLOYS.search(cmd.name.rsplit(".", 1)[0]) or any(
            _DEPLOYS.search(w) for w in words)
        if not deploys or "--help" in texts or not any(
                PRODUCTION.search(t) for t in texts if a_value(t)):
            return []
        return [(0.55, f"deploys to production ({cmd.located()})")]
    if not words or any(_READS.fullmatch(part) for w in words for part in w.split(":")):
        return []
    switched = next((w for w in words if _SWITCHES.fullmatch(w)), None)
    if switched is not None:  # what serves users switched: production by its nature
        return [(0.55, f"switches what serves users ({switched}) ({cmd.located()})")]
    if not any(PRODUCTION.search(t) for t in texts if a_value(t)):
        return []
    return [(0.55, f"changes what runs in production ({cmd.located()})")]


def a_value(text: str) -> bool:
    """A word that could name a place or a thing: not a URL or a path of files."""
    return "://" not in text and not text.startswith(("./", "/", "~"))


# A server's own settings file written to open it to everyone: PostgreSQL trusting any
# address (pg_hba.conf) or listening on every interface, Redis without its protected mode,
# sshd letting root or a blank password in, MongoDB on every interface or without
# authorization, MySQL without its grant tables (by the file's name, wherever it is)
_SERVER_FILES: dict[str, re.Pattern[str]] = {
    "pg_hba.conf": re.compile(r"(?im)^[ \t]*host\w*[ \t]+\S+[ \t]+\S+[ \t]+"
                              r"(?:0\.0\.0\.0/0|::/0|all|0\.0\.0\.0/\d+)[ \t]+trust\b"),
    "postgresql.conf": re.compile(r"(?im)^[ \t]*listen_addresses[ \t]*=[ \t]*'\*'"),
    "redis.conf": re.compile(r"(?im)^[ \t]*(?:protected-mode[ \t]+no|bind[ \t]+0\.0\.0\.0)\b"),
    "sshd_config": re.compile(r"(?im)^[ \t]*(?:PermitRootLogin[ \t]+yes|PermitEmptyPasswords"
                              r"[ \t]+yes)\b"),
    "mongod.conf": re.compile(r"(?im)^[ \t]*(?:bindIpAll:[ \t]*true|bindIp:[ \t]*0\.0\.0\.0|"
                              r"authorization:[ \t]*disabled)"),
    "my.cnf": re.compile(r"(?im)^[ \t]*skip[-_]grant[-_]tables\b"),
}
_SERVER_FILES["mysqld.cnf"] = _SERVER_FILES["my.cnf"]


def opens_server(path: str, text: str) -> str | None:
    """What a server's settings file, written with ``text``, opens (None: nothing)."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    if "/sshd_config.d/" in path:
        name = "sshd_config"
    pattern = _SERVER_FILES.get(name)
    found = pattern.search(text) if pattern is not None else None
    return None if found is None else f"{name}: {found.group(0).strip()}"
