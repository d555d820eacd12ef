"""Long options shortened to a prefix: GNU's getopt_long, git's parse-options, curl,
Python's argparse (pip) and npm's nopt take any unambiguous prefix of a long option
(`rm --rec --forc ~`, `git reset --har`, `tar --remove-f`), so each is read as the option
it stands for before anything judges the command. A prefix of several options is left
as written (the program stops: `git push --forc` could be `--force-with-lease` or
`--force-if-includes`), and an option a program takes only whole is too (rm's
`--no-preserve-root`). Each program's list holds the options the rules read and their
neighbours by prefix, with the long options the program table's rows name for it; a
prefix it cannot place is left as it is."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from toolpipe.shell._table import _LOADED
from toolpipe.shell._words import Word

_GIT_SHARED = ("--force", "--dry-run", "--quiet", "--verbose", "--all")
LONG_OPTIONS: dict[str, tuple[str, ...]] = {
    "rm": ("--recursive", "--force", "--dir", "--interactive", "--one-file-system",
           "--preserve-root", "--verbose"),
    **dict.fromkeys(("chmod", "chown", "chgrp"), (
        "--recursive", "--reference", "--verbose", "--changes", "--silent", "--quiet",
        "--preserve-root", "--dereference", "--no-dereference", "--from")),
    **dict.fromkeys(("tar", "gtar"), (
        "--remove-files", "--absolute-names", "--to-command", "--checkpoint-action",
        "--checkpoint", "--use-compress-program", "--extract", "--create", "--directory",
        "--file", "--files-from", "--overwrite", "--overwrite-dir", "--unlink-first",
        "--recursive-unlink", "--list", "--verbose", "--get", "--append", "--update",
        "--transform", "--info-script", "--new-volume-script", "--rsh-command",
        "--exclude", "--exclude-from", "--gzip", "--auto-compress")),
    "shred": ("--remove", "--zero", "--iterations", "--force", "--exact", "--size",
              "--verbose", "--random-source"),
    "cp": ("--remove-destination", "--force", "--recursive", "--archive", "--verbose",
           "--dereference", "--no-dereference", "--preserve", "--parents", "--reflink",
           "--target-directory", "--link", "--symbolic-link", "--no-clobber", "--update"),
    "mv": ("--force", "--target-directory", "--verbose", "--no-clobber", "--backup",
           "--update", "--exchange"),
    "ln": ("--force", "--symbolic", "--no-dereference", "--target-directory", "--relative",
           "--verbose", "--logical", "--physical", "--backup"),
    **dict.fromkeys(("sed", "gsed"), (
        "--in-place", "--expression", "--file", "--quiet", "--silent", "--null-data",
        "--regexp-extended", "--separate", "--sandbox", "--posix", "--debug")),
    "wget": ("--delete-after", "--output-document", "--execute", "--post-file",
             "--post-data", "--body-file", "--body-data", "--config", "--input-file",
             "--directory-prefix", "--quiet", "--output-file", "--append-output",
             "--header", "--method", "--user", "--password"),
    "curl": ("--upload-file", "--data", "--data-binary", "--data-raw", "--data-urlencode",
             "--data-ascii", "--form", "--form-string", "--output", "--output-dir",
             "--request", "--user", "--header", "--config", "--insecure", "--proxy",
             "--remote-name", "--unix-socket", "--url", "--upload-flags"),
    "truncate": ("--size", "--no-create", "--reference", "--io-blocks"),
    "systemctl": ("--force", "--now", "--user", "--system", "--runtime", "--global",
                  "--quiet", "--no-block", "--no-reload"),
    **dict.fromkeys(("pip", "pip3"), (
        "--yes", "--index-url", "--extra-index-url", "--trusted-host", "--upgrade",
        "--user", "--target", "--requirement", "--editable", "--break-system-packages",
        "--force-reinstall", "--no-deps", "--pre", "--quiet", "--root", "--prefix")),
    "npm": ("--force", "--global", "--registry", "--unsafe-perm", "--ignore-scripts",
            "--dry-run", "--prefix", "--save", "--workspace", "--yes"),
    # (programs the wing reads in code, not by the table's rows)
    **dict.fromkeys(("iptables", "ip6tables"), (
        "--flush", "--delete-chain", "--delete", "--policy", "--zero", "--table",
        "--append", "--insert", "--replace", "--list", "--new-chain", "--jump",
        "--source", "--destination", "--protocol", "--check", "--list-rules")),
    "wipefs": ("--all", "--force", "--no-act", "--offset", "--backup", "--types", "--quiet",
               "--lock", "--parsable", "--noheadings", "--output", "--json"),
    "journalctl": ("--vacuum-time", "--vacuum-size", "--vacuum-files", "--rotate", "--flush",
                   "--sync", "--since", "--until", "--unit", "--user-unit", "--user",
                   "--follow", "--lines", "--output", "--boot", "--list-boots",
                   "--disk-usage", "--verify", "--relinquish-var", "--smart-relinquish-var"),
    "rsync": ("--delete", "--delete-before", "--delete-during", "--delete-delay",
              "--delete-after", "--delete-excluded", "--delete-missing-args",
              "--remove-source-files", "--rsh", "--rsync-path", "--files-from", "--exclude",
              "--exclude-from", "--include", "--filter", "--archive", "--recursive",
              "--dry-run", "--verbose", "--backup", "--backup-dir", "--chmod", "--owner",
              "--group", "--compress", "--progress", "--delay-updates"),
    "userdel": ("--remove", "--force", "--root", "--prefix", "--selinux-user", "--help"),
    "usermod": ("--password", "--uid", "--gid", "--groups", "--append", "--home",
                "--move-home", "--shell", "--lock", "--unlock", "--expiredate",
                "--non-unique", "--login", "--inactive", "--root", "--prefix"),
    "passwd": ("--delete", "--expire", "--lock", "--unlock", "--stdin", "--status",
               "--keep-tokens", "--inactive", "--mindays", "--maxdays", "--warndays",
               "--root", "--prefix", "--all", "--quiet", "--repository"),
    "git push": (*_GIT_SHARED, "--force-with-lease", "--force-if-includes", "--delete",
                 "--mirror", "--prune", "--tags", "--no-verify", "--set-upstream",
                 "--receive-pack", "--exec", "--follow-tags", "--atomic", "--porcelain",
                 "--repo", "--push-option", "--signed", "--recurse-submodules",
                 "--no-force-with-lease", "--branches"),
    "git clean": (*_GIT_SHARED, "--interactive", "--exclude"),
    "git reset": ("--hard", "--soft", "--mixed", "--merge", "--keep", "--quiet",
                  "--patch", "--recurse-submodules", "--no-refresh", "--pathspec-from-file"),
    "git branch": (*_GIT_SHARED, "--delete", "--move", "--copy", "--list", "--remotes",
                   "--set-upstream-to", "--unset-upstream", "--edit-description",
                   "--contains", "--merged", "--no-merged", "--track", "--no-track"),
    "git checkout": ("--force", "--quiet", "--merge", "--detach", "--orphan", "--ours",
                     "--theirs", "--track", "--no-track", "--patch", "--overwrite-ignore",
                     "--ignore-other-worktrees", "--recurse-submodules", "--progress"),
    "git gc": ("--prune", "--aggressive", "--auto", "--quiet", "--force", "--keep-largest-pack",
               "--cruft", "--no-prune"),
    "git reflog": ("--expire", "--expire-unreachable", "--all", "--rewrite",
                   "--updateref", "--stale-fix", "--dry-run", "--verbose", "--single-worktree"),
    "git rm": ("--force", "--cached", "--recursive", "--dry-run", "--quiet",
               "--ignore-unmatch", "--sparse", "--pathspec-from-file"),
    "git apply": ("--unsafe-paths", "--directory", "--check", "--stat", "--index",
                  "--cached", "--reverse", "--reject", "--verbose", "--3way"),
}
def _table_options() -> dict[str, tuple[str, ...]]:
    """The long options the program table's rows name, by program (a program whose own
    parser takes no prefix rejects one: reading it as the option is only stricter)."""
    found: dict[str, set[str]] = {}
    for section in ("irreversible", "code", "output", "credential", "file"):
        for row in _LOADED["rows"].get(section, []):
            programs = row.get("program", [])
            text = " ".join(str(v) for k, v in row.items()
                            if k not in ("program", "example", "harmless", "reason"))
            options = set(_LONG.findall(text))
            for program in [programs] if isinstance(programs, str) else programs:
                found.setdefault(program, set()).update(options)
    return {p: tuple(sorted(o)) for p, o in found.items() if o}


_LONG = re.compile(r"--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
TABLE_OPTIONS = _table_options()
# each program's options, its list's and the table's rows' (git's by its subcommand only:
# the rows name its options of every one), joined once
_VOCABULARY = {name: LONG_OPTIONS.get(name, ()) + (
    TABLE_OPTIONS.get(name, ()) if name.split()[0] != "git" else ())
    for name in {*LONG_OPTIONS, *TABLE_OPTIONS}}
# options a program takes only whole (GNU rm refuses `--no-preserve-root` shortened)
_WHOLE_ONLY = {"rm": ("--no-preserve-root",)}
# a short name a program gives an option of its own (rsync's `--del`)
_ALIASES = {"rsync": {"--del": "--delete-during"}}
_GIT_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace"})


def unabbreviated(argv: Sequence[Word]) -> tuple[Word, ...]:
    """``argv`` with each long option shortened to an unambiguous prefix written whole
    (see above), up to ``--``."""
    if not any(a.text.startswith("--") for a in argv[1:]):
        return tuple(argv)  # (most commands: no long option to place)
    name = posixpath.basename(argv[0].text).lower()
    key = name
    if name == "git":
        words = [a.text for a in argv[1:]]
        i = 0
        while i < len(words) and words[i].startswith("-"):
            i += 2 if words[i] in _GIT_VALUED else 1
        key = f"git {words[i]}" if i < len(words) else name
    options = _VOCABULARY.get(key, ())
    if not options:
        return tuple(argv)
    out = [argv[0]]
    for k, a in enumerate(argv[1:], 1):
        if a.text == "--":
            out += argv[k:]
            break
        alias = _ALIASES.get(key, {}).get(a.text)
        out.append(Word(alias, a.raw, a.glob, a.tame, a.sources) if alias else _whole(
            a, options, _WHOLE_ONLY.get(key, ())))
    return tuple(out)


def _whole(a: Word, options: tuple[str, ...], whole_only: tuple[str, ...]) -> Word:
    if not a.known or not a.text.startswith("--") or len(a.text) < 3:
        return a
    option, eq, value = a.text.partition("=")
    if option in options or option in whole_only:
        return a
    found = [o for o in options if o.startswith(option)]
    if len(found) != 1:
        return a  # none it can place, or several: the program stops
    return Word(found[0] + eq + value, a.raw, a.glob, a.tame, a.sources)
