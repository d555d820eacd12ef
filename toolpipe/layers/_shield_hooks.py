"""Files a program runs without being named: git's hooks (in .git/hooks, or a folder
core.hooksPath may name), pytest's conftest.py, Python's sitecustomize.py and .pth files.
The session's facts keep an index of them (``SessionFacts.special``)."""

from __future__ import annotations

import posixpath

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
