"""Settings any program may change, judged by the words every cloud and host spells alike
(no row per provider): something opened to everyone, or a safeguard of data taken away."""

from __future__ import annotations

import re

from toolpipe.shell import MAX_JOINED, READ_ONLY, Command

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

def exposed(cmd: Command) -> list[tuple[float, str]]:
    """A setting changed to let everyone in (see ``_PUBLIC``), by any program that does
    more than read (`echo`, `grep` and their kind only print the words)."""
    argv = cmd.argv
    if len(argv) < 2 or cmd.name in READ_ONLY:
        return []
    joined = " ".join([a.text for a in argv[1:]])
    hint = joined.lower()  # (plain searches first: most commands hold none of these)
    if not ("public" in hint or "users" in hint or "/0" in hint or "anonymous" in hint
            or "principal" in hint):
        return []
    if len(joined) > MAX_JOINED or _PUBLIC.search(joined) is None:
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
    r"|(?:^| )--no-(?:enable-)?(?:backups?|automated-backups?|point-in-time-recovery|pitr|"
    r"versioning|termination-protection)(?: |$)"
    r"|(?:^| |,|=)status=suspended(?: |,|$)"
    r"|(?:^| )--[\w-]*(?:lock|retention|protection)[\w-]*[ =]['\"]?\{\s*\}['\"]?(?: |$)")
_UNPROTECT_HINTS = ("protection", "termination", "backup", "retention", "suspended", "pitr",
                    "recovery", "lock")


def unprotected(cmd: Command) -> list[tuple[float, str]]:
    """A safeguard of data taken away (see ``_UNPROTECT``), by any program that does more
    than read."""
    argv = cmd.argv
    if len(argv) < 2 or cmd.name in READ_ONLY:
        return []
    joined = " ".join([a.text for a in argv[1:]])
    hint = joined.lower()
    if not any(h in hint for h in _UNPROTECT_HINTS) or len(joined) > MAX_JOINED:
        return []
    if _UNPROTECT.search(joined) is None:
        return []
    return [(0.6, f"takes a safeguard of data away (deletion protection, backups, "
                  f"versioning or a lock): what it kept can then be lost for good "
                  f"({cmd.located()})")]
