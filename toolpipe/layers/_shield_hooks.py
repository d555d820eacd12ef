"""Files a program runs without being named: git's hooks (in .git/hooks, or a folder
core.hooksPath may name), pytest's conftest.py, Python's sitecustomize.py and .pth files.
The session's facts keep an index of them (``SessionFacts.special``). And the hooks a
package.json gives the hook managers that installed git's hooks run from it."""

from __future__ import annotations

import json
import posixpath

from toolpipe.shell import json_strings

# git's hooks, by name: in .git/hooks, or in a folder core.hooksPath may name (husky's
# .husky, a project's hooks/ or .githooks/)
GIT_HOOKS = frozenset({"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit",
                       "pre-push", "pre-rebase", "post-checkout", "post-merge",
                       "post-rewrite", "pre-merge-commit", "pre-applypatch",
                       "applypatch-msg", "post-applypatch", "reference-transaction"})
_HOOK_FOLDERS = frozenset({"hooks", ".githooks", "githooks", ".husky", ".hooks", "git-hooks"})


def git_hook(path: str) -> bool:
    return "/.git/hooks/" in "/" + path or (posixpath.basename(path) in GIT_HOOKS and (
        posixpath.basename(posixpath.dirname(path)) in _HOOK_FOLDERS))


def special(path: str) -> bool:
    """A file a program runs without being named."""
    name = posixpath.basename(path)
    return git_hook(path) or name in (
        "conftest.py", "sitecustomize.py", "usercustomize.py") or name.endswith(".pth")


# package.json's sections a hook manager's installed hook reads at each commit: simple-git-
# hooks', husky 4's (`husky.hooks`), yorkie's (`gitHooks`), ghooks' (`config.ghooks`), the
# pre-commit package's (script names) and lint-staged's (its commands, which a hook runs)
_HOOK_SECTIONS = ("simple-git-hooks", "husky", "gitHooks", "ghooks", "lint-staged",
                  "pre-commit", "pre-push")
PACKAGE_HOOKS = "package-hooks"  # (how a package.json is read at a git command: its hooks)


def holds_package_hooks(content: str | None) -> bool:
    """Does a package.json's text name one of the hook managers' sections?"""
    return content is not None and any(f'"{k}"' in content for k in _HOOK_SECTIONS)


def package_hooks(content: str) -> str:
    """The command lines a package.json's hook managers' sections run (one per line);
    ``\x00unreadable`` for a file that is not a JSON object."""
    try:
        package = json.loads(content)
    except (ValueError, RecursionError):
        return "\x00unreadable"
    if not isinstance(package, dict):
        return "\x00unreadable"
    config = package.get("config")
    sections = [package.get(k) for k in _HOOK_SECTIONS] + [
        config.get("ghooks") if isinstance(config, dict) else None]
    scripts = package.get("scripts")
    scripts = scripts if isinstance(scripts, dict) else {}
    out: list[str] = []
    for section in sections:
        for value in json_strings(section):  # (a script's name, as pre-commit's package's)
            named = scripts.get(value)
            out.append(named if isinstance(named, str) else value)
    return "\n".join(out)

