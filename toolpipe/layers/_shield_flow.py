"""Session data flow: what each file written during a session holds, kept call by call.

A ``Write`` of ``run.sh`` then ``bash run.sh``; a download then ``./x``; a key copied into
the workspace then uploaded; a ``Makefile``, a git hook, ``conftest.py`` or
``sitecustomize.py`` written, then ``make``, ``git commit``, ``pytest`` or ``python``: each
call alone looks harmless. The facts (:class:`SessionFacts`) are carried forward in the
shield's history, one value per call (the last record holds them all), so a call costs the
same however long the session is: nothing earlier is read again.

A file run later (or later on the same line) is judged by what it holds when known, asks
when not, blocks when downloaded or decoded. A copy of a secret stays a secret."""

from __future__ import annotations

import fnmatch
import shlex
from collections.abc import Callable, Mapping
from typing import Any, Literal

import attrs

from toolpipe.layers._shield_fetched import (
    REF,
    REMOTE,
    checked_out,
    cloned,
    downloaded_under,
    fetched,
)
from toolpipe.layers._shield_held import (
    applied_patch,
    index_exports,
    links_out,
    packed_project,
    patching,
    secret_variables,
    setting_written,
)
from toolpipe.layers._shield_hooks import special as _special
from toolpipe.layers._shield_projects import (
    built_image,
    key,
    under,
)
from toolpipe.layers._shield_unpacked import PATCHED_BY, downloaded_input, unpacked
from toolpipe.shell import (
    DECODERS,
    DOWNLOADERS,
    Command,
    Script,
    classify,
    commands_in,
    echoed,
    edit_inserts,
    edited_commands,
    effects,
    irreversible,
    landed,
    sed_applied,
)

# "edit": a project's file edited in place by a text read whole (content: what it put in)
# "project": the whole project packed into one file (`git bundle create F --all`)
# "link": a link out of the workspace (content: where it leads; written through, it is there)
# "copy": a copy, a link or a move of a project's file no call wrote: it holds what that
# file holds, so it runs as the project's own file does (`ln -s build/app app; ./app`)
Origin = Literal["write", "download", "decoded", "secret", "edit", "patched", "project",
                 "copy", "link"]
MAX_FILES = 512  # files remembered per session (the oldest are forgotten first)
MAX_CONTENT = 1 << 16  # characters of a file's text kept for judging
BLOCKED = 0.7  # the default block threshold: a written file scored at or above it is a hazard


@attrs.frozen
class FileFact:
    origin: Origin
    content: str | None = None  # None: written, but what it holds is not known
    # the command lines its text holds, whatever its language (``commands_in``): what a
    # program that loads it would run
    commands: str = ""


def written(path: str, content: str | None) -> FileFact:
    """A file written with ``content`` (None: not known), and the commands it holds."""
    return FileFact("write", content, commands_in(path, content) if content else "")


@attrs.frozen
class SessionFacts:
    files: Mapping[str, FileFact] = attrs.field(factory=dict)
    fired: frozenset[int] = frozenset()  # combo rules whose first step an earlier call took
    # indexes of ``files``, kept as they change: downloaded files, copies of secrets, and
    # files run without being named (git hooks, conftest.py, sitecustomize.py, *.pth)
    downloaded: frozenset[str] = frozenset()
    secrets: frozenset[str] = frozenset()
    special: frozenset[str] = frozenset()
    pending: frozenset[str] = frozenset()  # written files that hold commands
    # the calls the history holds, oldest first, (tool, risky), and how many of each tool's
    # there are (all, risky): the multi-call term without counting the history again
    recent: tuple[tuple[str, bool], ...] = ()
    counts: Mapping[str, tuple[int, int]] = attrs.field(factory=dict)
    # what a shell that lasts from call to call keeps: shell text that sets it
    # (`cd -- ~`, `T=dist`; ``_shield_state``)
    shell: str = ""

    def recorded(self, tool: str, risky: bool, keep: int) -> SessionFacts:
        """These facts once a call of ``tool`` is in a history that keeps ``keep``."""
        recent = (*self.recent, (tool, risky))
        counts = dict(self.counts)
        for name, was_risky in recent[:max(0, len(recent) - keep)]:
            n_all, n_risky = counts[name]
            counts[name] = (n_all - 1, n_risky - was_risky)
        n_all, n_risky = counts.get(tool, (0, 0))
        counts[tool] = (n_all + 1, n_risky + risky)
        return attrs.evolve(self, recent=recent[-keep:] if keep else (),
                            counts={k: v for k, v in counts.items() if v[0]})

    def with_files(self, new: Mapping[str, FileFact]) -> SessionFacts:
        if not new:
            return self
        files = {k: v for k, v in self.files.items() if k not in new}
        files.update(new)
        while len(files) > MAX_FILES:
            del files[next(iter(files))]
        gone = (self.files.keys() | new.keys()) - files.keys()
        return attrs.evolve(
            self, files=files,
            downloaded=_index(self.downloaded, new, gone, lambda k, f: f.origin == "download"),
            secrets=_index(self.secrets, new, gone, lambda k, f: f.origin == "secret"),
            special=_index(self.special, new, gone, lambda k, f: _special(k)),
            pending=_index(self.pending, new, gone, lambda k, f: bool(f.commands)))


EMPTY = SessionFacts()


def _index(old: frozenset[str], new: Mapping[str, FileFact], gone: set[str],
           belongs: Callable[[str, FileFact], bool]) -> frozenset[str]:
    kept = (old - new.keys()) - gone
    return frozenset(kept | {k for k, f in new.items() if belongs(k, f)})


# --- what a call writes -------------------------------------------------------------------


def _text(value: object) -> str | None:
    return value[:MAX_CONTENT] if isinstance(value, str) else None


def written_by_tool(tool_input: Mapping[str, Any], path: str, workspace: str,
                    before: SessionFacts) -> dict[str, FileFact]:
    """A file tool's write: ``content`` whole (Write), or the new text (Edit: what it puts
    in is what can run)."""
    k = key(path, ".", workspace)
    content = _text(tool_input.get("content"))
    if content is None:
        edits = [e for e in tool_input.get("edits", []) if isinstance(e, Mapping)]
        pairs = [(tool_input.get("old_string"), tool_input.get("new_string"),
                  tool_input.get("replace_all"))] + [
            (e.get("old_string"), e.get("new_string"), e.get("replace_all")) for e in edits]
        old = before.files.get(k)
        base = old.content if old is not None and old.content is not None else None
        content = _applied(base, pairs) if base is not None else None
        if content is None:  # not known where it lands: the text as it was, and what it put in
            known = [t for _, n, _ in pairs if (t := _text(n)) is not None]
            content = "\n".join([base or "", *known]) if known else None
    return {k: written(k, content)}


def _applied(base: str, pairs: list[tuple[object, object, object]]) -> str | None:
    """``base`` with each edit made as the Edit tool makes it (each old text found there,
    once or every time), or None when one is not there to replace."""
    for old, new, every in pairs:
        if old is None and new is None:
            continue
        if not isinstance(old, str) or not isinstance(new, str) or not old or old not in base:
            return None
        base = base.replace(old, new, -1 if every else 1)
    return base[:MAX_CONTENT]


def _reads_secret(cmd: Command, workspace: str, facts: SessionFacts) -> bool:
    for c in (*cmd.upstream, cmd):
        row = irreversible(c.name, [a.text for a in c.args], c.cwd)
        if row is not None and row.secret:
            return True  # printenv AWS_SECRET_ACCESS_KEY > k, gh auth token > t (the rows)
        for e in effects(c):
            if e.kind == "read" and e.word is None:
                return True  # env > env.txt: the environment holds the credentials
            if e.kind in ("read", "send") and e.word is not None and e.word.known:
                if classify(e.word, c.cwd, workspace).kind == "secret":
                    return True
                if secret_at(facts, key(e.word.text, c.cwd, workspace)):
                    return True
    return False


def file_copies(facts: SessionFacts) -> list[str]:
    """The copies of secrets that are files (not a variable, `$K`, nor an image,
    `image:NAME`, which the facts keep beside them)."""
    return [k for k in facts.secrets if not k.startswith(("$", "image:"))]


def secret_at(facts: SessionFacts, path: str) -> bool:
    """Does the session know ``path`` as a copy of a secret (or as one of the files a glob
    of copies stands for: ``split``'s `/tmp/part_*` holds `/tmp/part_aa`)?"""
    fact = facts.files.get(path)
    if fact is not None:
        return fact.origin == "secret"
    return any("*" in k and fnmatch.fnmatchcase(path, k) for k in facts.secrets)


def written_by_shell(script: Script, workspace: str, facts: SessionFacts
                     ) -> dict[str, FileFact]:
    """Each file a command line writes, with what it holds when the line says so."""
    out: dict[str, FileFact] = {}
    for name, url in index_exports(script.text):  # read by later installs as a setting
        out[f"${name}"] = FileFact("write", url,
                                   f"pip install --index-url {shlex.quote(url)} package")
    for cmd in script.commands:
        secret: bool | None = None  # (asked at its first write: most commands write none)
        for e in effects(cmd):
            if e.kind != "write" or e.word is None or not e.word.known:
                continue
            k = key(e.word.text, cmd.cwd, workspace)
            if e.detail == "rewrites in place":  # a formatter's: what the file held it holds
                out.update({k: facts.files[k]} if k in facts.files else {})
                continue
            if secret is None:
                secret, feeds = _reads_secret(cmd, workspace, facts), {cmd.name, *(
                    c.name for c in cmd.upstream)}
                # made from a download (`gunzip -c x.gz > x.sh`, `cat a.sh b.sh > c.sh`), or
                # fetched from elsewhere (`scp host:x .`, `aws s3 cp s3://b/x .`)
                derived = any(f.kind == "fetch" for f in effects(cmd)) or (bool(
                    facts.downloaded) and any(
                    _fetched(key(a.text, c.cwd, workspace), facts) for c in (*cmd.upstream, cmd)
                    for a in c.args if a.known and not a.text.startswith("-")))
            if secret:
                out[k] = FileFact("secret")
            elif feeds & DOWNLOADERS or derived:
                out[k] = FileFact("download")
            elif feeds & DECODERS and cmd.name not in ("echo", "printf", "cat"):
                out[k] = FileFact("decoded")
            elif e.detail == "redirect":
                shown = echoed(cmd)
                out[k] = written(k, shown if shown is not None else _from_files(
                    cmd, workspace, lambda f: out.get(f) or facts.files.get(f)))
            elif e.detail == "edits in place":  # (after what this line wrote there first)
                out[k] = _edited(cmd, k, facts.with_files({k: out[k]}) if k in out else facts)
            else:
                out[k] = FileFact("write")
        modules = facts.files.get(".gitmodules") if cmd.name == "git" else None
        for folder in cloned(cmd, modules.content if modules is not None else None):
            # a clone is a download: every file under its folder is (but its .git, which
            # git writes itself: no config or hook is cloned)
            out[key(folder, cmd.cwd, workspace)] = FileFact("download")
            out[key(folder + "/.git", cmd.cwd, workspace)] = FileFact("copy")
        out.update({k: FileFact("patched" if k.endswith(PATCHED_BY) else "download")
                    for k in unpacked(cmd, workspace, lambda k: _fetched(k, facts))})
        setting = setting_written(cmd, workspace)  # git config alias.st '!…': .git/config
        if setting is not None:  # added to what the file is known to hold (None: not known)
            path, line = setting
            before = out.get(path) or facts.files.get(path)
            held = "" if before is None else before.content
            out[path] = written(path, None if held is None else held + line)
        if cmd.name == "git":  # a stranger's repository fetched, then checked out
            names = facts.files.keys() | out.keys()
            out.update({name: FileFact("download") for name in fetched(cmd, names)})
            out.update({k: FileFact("download" if origin == "download" else "patched")
                        for k, origin in checked_out(cmd, workspace, names).items()})
        packed = packed_project(cmd, workspace)
        if packed is not None and not secret:
            out[packed] = FileFact("project")
        patch = applied_patch(cmd, workspace)
        if patch is not None and _fetched(patch, facts):
            out[patch] = FileFact("patched")  # what it put into the project is not known
        elif patch is None and patching(cmd):
            fed = downloaded_input(cmd)  # (`curl -s URL | patch -p0`: the same)
            if fed is not None:
                out[key(fed, cmd.cwd, workspace)] = FileFact("patched")
        for name in secret_variables(script, cmd, lambda c: _reads_secret(c, workspace, facts)):
            out[f"${name}"] = FileFact("secret")  # a shell of later calls may still hold it
        image = built_image(cmd, workspace, file_copies(facts))
        if image is not None:  # an image built from a folder holding a copy of a secret
            out[image] = FileFact("secret")
        if cmd.name in _COPIERS and len(cmd.args) >= 2:
            src, dst = cmd.args[-2], cmd.args[-1]
            dst = landed(dst, src.text)  # (into a folder: the source's name under it)
            if src.known and dst.known and not src.text.startswith("-"):
                source, target = key(src.text, cmd.cwd, workspace), key(dst.text, cmd.cwd,
                                                                        workspace)
                fact = out.get(source) or facts.files.get(source)  # (this line's, too)
                if fact is not None and not secret:
                    out[target] = fact
                elif fact is None and _holds_download(source, facts):
                    # a folder with downloaded files in it (or in one), copied: what lands
                    # in the copy is treated as downloaded, as a clone's folder is
                    out[target] = FileFact("download")
                elif fact is None and not secret and (out[target].origin if target in out
                                                      else "write") == "write" and classify(
                        src, cmd.cwd, workspace).kind == "workspace":
                    out[target] = FileFact("copy")  # (not a fetch: `rsync host:x x`)
                elif fact is None and not secret and links_out(cmd, src.text, dst.text,
                                                                workspace):
                    out[target] = FileFact("link", src.text)  # (written through: there)
    return out




_COPIERS = frozenset({"cp", "mv", "install", "ln", "rsync", "ditto"})


def _holds_download(path: str, facts: SessionFacts) -> bool:
    """Is ``path`` downloaded, in a downloaded folder, or a folder holding a download?"""
    root = path.rstrip("/") or "/"
    return _fetched(root, facts) or any(under(k, root) for k in facts.downloaded
                                        if not k.startswith((REF, REMOTE)))


def _from_files(cmd: Command, workspace: str, files: Callable[[str], FileFact | None]
                ) -> str | None:
    """What a line prints of files whose text the session knows, into a file: `cat a b`
    joins them, a sed of plain substitutions changes one (`sed 's/X/Y/' t > out`); None
    for anything else, or a file not known."""
    if cmd.upstream or cmd.name not in ("cat", "sed", "gsed"):
        return None
    names = [a for a in cmd.args if not a.text.startswith("-")]
    names = names[1:] if cmd.name != "cat" and "-e" not in [a.text for a in cmd.args] else (
        names)
    held = [files(key(a.text, cmd.cwd, workspace)) for a in names if a.known]
    if not held or len(held) != len(names) or any(
            f is None or f.origin != "write" or f.content is None for f in held):
        return None
    texts = [f.content for f in held if f is not None and f.content is not None]
    if cmd.name == "cat":
        return "".join(texts) if not any(a.text.startswith("-") for a in cmd.args) else None
    return sed_applied(cmd, texts[0], printed=True) if len(texts) == 1 else None


def _edited(cmd: Command, path: str, facts: SessionFacts) -> FileFact:
    """A project's file edited in place (`sed -i`): what the edit puts in, if read whole."""
    prior = facts.files.get(path)
    if prior is not None and prior.origin == "copy":  # (edited as the project's file is)
        prior = None
    if prior is not None and prior.origin == "write" and prior.content is not None:
        after = sed_applied(cmd, prior.content)  # plain text for plain text: known still
        if after is not None:
            return written(path, after)
    if prior is not None and prior.origin != "edit":
        return prior if prior.origin != "write" else FileFact("write")
    inserted = edit_inserts(cmd)
    if inserted is None:
        return FileFact("write")
    commands = edited_commands(path, inserted)
    if prior is not None:  # edited before: what each edit put in
        return FileFact("edit", f"{prior.content}\n{inserted}",
                        "\n".join(c for c in (prior.commands, commands) if c))
    return FileFact("edit", inserted, commands)


def _fetched(path: str, facts: SessionFacts) -> bool:
    fact = facts.files.get(path) or downloaded_under(path, facts.files, facts.downloaded)
    return fact is not None and fact.origin == "download"
