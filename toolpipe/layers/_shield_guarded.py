"""Files that guard what runs later, changed so that they guard less: a lockfile pointed at
another place to fetch packages from, a CI workflow widened (run on strangers' pull
requests, given write rights or the secrets), and the instructions coding agents read at
every session (AGENTS.md, CLAUDE.md, .cursorrules…) given a command that would be
blocked. Each is judged by the text put in, wherever the file is.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from toolpipe.shell import PACKAGE_INDEXES, READ_ONLY, Command, edit_inserts, effects

_LOCKFILES = frozenset({
    "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock",
    "poetry.lock", "pipfile.lock", "uv.lock", "pdm.lock", "cargo.lock", "go.sum", "go.mod",
    "gemfile.lock", "composer.lock", "packages.lock.json", "gradle.lockfile", "mix.lock",
    "pubspec.lock", "podfile.lock", "flake.lock"})
# a host named in the text put in (an address, or a domain with a letter TLD: not 1.2.1)
_HOST = re.compile(r"(?i)(?:[a-z][a-z0-9+.-]*://)?(?P<host>(?:\d{1,3}\.){3}\d{1,3}|"
                   r"(?:[a-z0-9-]+\.)+[a-z]{2,})(?=[:/\s'\"#]|$)")
# where a lockfile may fetch from: the package indexes, and the hosts of Go's modules,
# Maven's, Dart's, CocoaPods', NuGet's and Hex's
_REGISTRIES = PACKAGE_INDEXES | frozenset({
    "proxy.golang.org", "sum.golang.org", "github.com", "gitlab.com", "repo1.maven.org",
    "repo.maven.apache.org", "pub.dev", "cdn.cocoapods.org", "api.nuget.org", "hex.pm",
    "repo.hex.pm", "npm.pkg.github.com"})
# a CI pipeline's file: it runs on the CI's machines, with the repository's secrets, once
# pushed (a folder of workflows, or a file by its name)
_CI_FOLDERS = (".github/workflows/", ".gitea/workflows/", ".forgejo/workflows/",
               ".buildkite/")
_CI_FILES = (".gitlab-ci.yml", ".circleci/config.yml", "bitbucket-pipelines.yml",
             "azure-pipelines.yml", ".drone.yml", "Jenkinsfile", ".travis.yml")
# what widens a workflow: strangers' pull requests with the repository's secrets, write
# rights for its token, the secrets handed to a step
_WIDENS = re.compile(r"pull_request_target|workflow_run|write-all|\b(?:contents|packages|"
                     r"actions|id-token|pull-requests|deployments)\s*[:=]\s*\\?[\"']?write"
                     r"|secrets\s*[:=]\s*\\?[\"']?inherit|\bsecrets\.")


# the words one of those files' names holds (looked for first, in C)
_HINT = re.compile(r"lock|\.sum\b|go\.mod|workflows|ci\.yml|pipelines|jenkinsfile|travis|drone|"
                   r"buildkite|circleci")


def ci_file(path: str) -> bool:
    """A CI pipeline's file (`.github/workflows/x.yml`, `.gitlab-ci.yml`…)."""
    return any(c in "/" + path for c in _CI_FOLDERS) or ("/" + path).endswith(
        tuple("/" + f for f in _CI_FILES))


def guarded_edits(cmd: Command) -> list[tuple[float, str]]:
    """A lockfile edited to fetch from a place that is no registry, or a CI workflow
    edited to run with more rights or on strangers' code."""
    if cmd.name in READ_ONLY or not cmd.args:
        return []
    texts = [a.text for a in cmd.args]
    if _HINT.search(" ".join(texts).lower()) is None:  # (most commands name no such file)
        return []
    out: list[tuple[float, str]] = []
    edited = [e.word.text for e in effects(cmd) if e.kind == "write" and e.word is not None
              and e.word.known]
    locks = [p for p in edited if posixpath.basename(p).lower() in _LOCKFILES]
    if locks:
        put = edit_inserts(cmd)
        hosts = {m.group("host").lower() for m in _HOST.finditer(put or "")}
        strange = sorted(h for h in hosts if h not in _REGISTRIES)
        if put is None or strange:
            what = ", ".join(strange) if strange else "text it cannot read"
            out.append((0.6, f"points a lockfile at another place to fetch from: {locks[0]} "
                             f"({what}) ({cmd.located()})"))
    workflows = [t for t in texts if ci_file(t)]
    if workflows and _WIDENS.search(" ".join(t for t in texts if t not in workflows)):
        out.append((0.6, f"widens a CI workflow (strangers' pull requests, write rights or "
                         f"the secrets): {workflows[0]} ({cmd.located()})"))
    return out


# the files coding agents read as instructions at every session
_AGENT_FILES = frozenset({"agents.md", "claude.md", "gemini.md", ".cursorrules",
                          ".windsurfrules", ".clinerules", "copilot-instructions.md",
                          "conventions.md", ".goosehints"})
_CODE_SPAN = re.compile(r"`([^`\n]{2,400})`")


def agent_file(path: str) -> bool:
    name = posixpath.basename(path).lower()
    return name in _AGENT_FILES or "/.cursor/rules/" in "/" + path or (
        "/.claude/" in "/" + path and name.endswith(".md"))


def instruction_commands(text: str, runnable: Callable[[str], bool]) -> list[str]:
    """The command lines an instruction for agents holds: each code span, and in each line
    the words from the first that names a program (`run: curl … | sh`)."""
    out = [m.group(1) for m in _CODE_SPAN.finditer(text)]
    for line in text.splitlines()[:400]:
        words = line.replace("`", " ").split()
        for i, w in enumerate(words):
            if runnable(w.strip("'\"(:,")):
                out.append(" ".join(words[i:]))
                break
    return out
