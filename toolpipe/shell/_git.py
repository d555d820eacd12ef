"""Effects of git: what its pushes send and force, what `clean` and `worktree remove`
delete, what it reads of a folder it is pointed at, the history it rewrites.

The handler registers itself with :func:`~toolpipe.shell._effects.handles`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolpipe.shell._effects import Effect, handles
from toolpipe.shell._model import Command
from toolpipe.shell._options import split as _split
from toolpipe.shell._places import classify
from toolpipe.shell._words import Word, literal

# git subcommands that read the files of the folder they are pointed at (-C, --work-tree)
# into a commit, an archive or a patch: pointed at a secret folder, they read the secrets
_GIT_READS = frozenset({"add", "commit", "push", "archive", "bundle", "stash", "format-patch",
                        "send-email", "diff", "show", "log", "grep", "cat-file"})


# and those that write the files of the work tree (forced or not: a checkout of another
# tree's history over a folder replaces its files)
_TREE_WRITES = frozenset({"checkout", "switch", "restore", "reset", "merge", "pull", "stash",
                          "read-tree", "cherry-pick", "revert", "rebase", "am", "apply",
                          "checkout-index"})


_RELEASE_TAG = re.compile(r"v?[0-9]+(?:\.[0-9]+){1,3}(?:[-+.][\w.]+)?")


def _options(args: Sequence[Word]) -> tuple[list[tuple[str, Word]], list[Word]]:
    """git's options before its subcommand: (option, the folder it names) for ``-C DIR``,
    ``--git-dir`` and ``--work-tree``, and the words from the subcommand on (none: empty).
    ``-c NAME=VALUE`` and ``--namespace NAME`` take their value; other flags none."""
    rest = list(args)
    named: list[tuple[str, Word]] = []
    while rest and rest[0].text.startswith("-"):
        a = rest[0]
        if a.text.startswith(("--git-dir=", "--work-tree=")):
            option, value = a.text.split("=", 1)
            named.append((option, Word(value, a.raw, a.glob, a.tame, a.sources)))
            rest = rest[1:]
        elif a.text in ("-C", "-c", "--git-dir", "--work-tree", "--namespace"):
            if a.text not in ("-c", "--namespace") and len(rest) > 1:
                named.append((a.text, rest[1]))
            rest = rest[2:]
        else:
            rest = rest[1:]
    return named, rest


def git_subcommand(args: Sequence[Word]) -> tuple[list[Word], list[Word]]:
    """git's options before its subcommand read: the folders they point it at (``-C DIR``,
    ``--git-dir``, ``--work-tree``), and the words from the subcommand on (none: empty)."""
    named, rest = _options(args)
    return [folder for _, folder in named], rest


def _tree(named: Sequence[tuple[str, Word]]) -> Word | None:
    """The work tree git is pointed at (``--work-tree``'s or ``-C``'s, the last): ``None``
    when it is the folder the command runs in."""
    return next((w for option, w in reversed(named) if option in ("-C", "--work-tree")), None)


@handles("git")
def _git(cmd: Command) -> list[Effect]:
    named, args = _options(cmd.args)  # git -C DIR, --git-dir DIR, --work-tree DIR
    folders = [folder for _, folder in named]
    if not args:
        return []
    sub, rest = args[0].text, args[1:]
    texts = [a.text for a in rest]
    out: list[Effect] = []
    if sub in _GIT_READS:  # `git -C ~/.ssh add .`: the folder's files are read
        out += [Effect("read", cmd, f) for f in folders]
        if sub in ("push", "send-email"):  # and sends them: a secret folder's, judged so
            out += [Effect("send", cmd, f) for f in folders
                    if classify(f, cmd.cwd).kind == "secret"]
    if sub == "push":
        if any(t in ("-n", "--dry-run") for t in texts):
            return out  # a dry run sends nothing (what it reads was judged above)
        ops = [a for a in rest if not a.text.startswith("-")]
        # the branches it pushes to: protected ones, others, or not known (no refspec)
        refs = [o.text.lstrip("+").rsplit(":", 1)[-1].removeprefix("refs/heads/")
                for o in ops[1:]]
        # (a release's tag moved: what others fetched as v1.2.0 is now other code; a
        # pattern, `refs/heads/*`, names every branch, the protected ones among them)
        target = ("" if not refs or any(not o.known for o in ops[1:]) else
                  "protected" if any(_PROTECTED.fullmatch(r) or "*" in r for r in refs) else
                  "tag" if any(r.startswith("refs/tags/") or _RELEASE_TAG.fullmatch(r)
                               for r in refs) else "feature")
        if any(t in ("-f", "--force", "--mirror") or re.fullmatch(r"-[a-z]*f[a-z]*", t)
               for t in texts):
            out.append(Effect("force-push", cmd, detail=f"--force {target}".strip()))
        if any(t.startswith("+") for t in texts):
            out.append(Effect("force-push", cmd, detail=f"a + refspec {target}".strip()))
        if any(t.startswith(("--force-with-lease", "--force-if-includes")) for t in texts):
            # a lease guards against others' pushes, not against rewriting main's history
            out.append(Effect("force-push", cmd, detail=f"--force-with-lease {target}".strip()
                              if target in ("protected", "tag") else "--force-with-lease"))
        if any(t in ("-d", "--delete", "--prune") for t in texts) or any(
                t.startswith(":") and len(t) > 1 for t in texts):
            # which branches: named ones of one's own ("feature"), or main, a release's
            # tag, a pattern, every branch not here (--prune), or not known
            out.append(Effect("remote-delete", cmd, detail="" if "--prune" in texts
                              else target))
        return out
    if sub == "clean":
        flags, _, paths = _split(rest, "e", ("--exclude",))
        if not flags & {"f", "--force"} or flags & {"n", "--dry-run"}:
            return []
        if "X" in flags:  # only what .gitignore names: build output, caches
            return [Effect("delete", cmd, Word("./{}", "<ignored files>"), "d" in flags,
                           True, "git clean -X")]
        tree = _tree(named)  # `git -C vendor/lib clean -fdx`: that folder's
        targets = [_under(tree, p) for p in paths if p.known] or [tree or literal(".")]
        return [Effect("delete", cmd, t, "d" in flags, True, "git clean") for t in targets]
    if sub == "worktree" and texts[:1] == ["remove"] and {"-f", "--force"} & set(texts):
        # forced: the folder goes with what was not committed in it (unforced, git removes
        # only a clean one)
        ops = [a for a in rest[1:] if not a.text.startswith("-")]
        return [Effect("delete", cmd, w, True, True, "git worktree remove") for w in ops]
    if sub in _TREE_WRITES:  # `git --work-tree=$HOME --git-dir=d.git checkout -f`
        tree = _tree(named)
        # (`-C .` is where it runs anyway: `git -C . checkout main` was asked about as
        # writing the whole workspace, where `git checkout main` was not)
        if tree is not None and tree.text.rstrip("/") not in (".", ""):
            out.append(Effect("write", cmd, tree, detail=f"git {sub} into its work tree"))
    if sub == "filter-branch" or (sub == "reflog" and "expire" in texts):
        return [Effect("force-push", cmd, detail=f"git {sub} rewrites history")]
    return out


def _under(tree: Word | None, path: Word) -> Word:
    """``path`` as git reads it, inside the work tree it was pointed at."""
    if tree is None or path.text.startswith("/"):
        return path
    joined = f"{tree.text.rstrip('/')}/{path.text}"
    return Word(joined, joined, path.glob, path.tame, path.sources) if tree.known else tree


_PROTECTED = re.compile(r"(?i)(?:main|master|trunk|develop|dev|release.*|prod.*|production|"
                        r"stable|live|HEAD|gh-pages)")
