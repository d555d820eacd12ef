"""How a copy of a secret that an earlier call made leaves the machine: read or sent by a
line that talks to the network, named by a variable an earlier call gave it, pushed in
the repository or in an image built with it, or handed out by a web server of its folder
(``served_folder``)."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Iterator

from toolpipe.layers._shield_flow import SessionFacts, file_copies, secret_at
from toolpipe.layers._shield_held import EXPANDED, packs_to_output
from toolpipe.layers._shield_projects import BUILDERS, key, under
from toolpipe.shell import Command, Script, effects, sends

_SERVER_ROOT = {"-d", "--directory", "-t", "-h", "--root", "--dir"}


def served_folder(cmd: Command) -> str | None:
    """The folder a command serves over HTTP, if it is a web server of files
    (``python3 -m http.server``, ``php -S``, ``ruby -run -e httpd``, ``busybox httpd``,
    ``http-server``, ``serve``, ``caddy file-server``): its root option's value, else its
    folder operand, else the folder it runs in."""
    texts = [a.text for a in cmd.args]
    joined = " ".join(texts)
    if not ((cmd.name.startswith("python") and (
            "-m http.server" in joined or "-m SimpleHTTPServer" in joined))
            or (cmd.name == "php" and "-S" in texts)
            or (cmd.name == "ruby" and "httpd" in texts) or (
                cmd.name == "httpd" and "busybox" in cmd.wrappers)  # (busybox is peeled)
            or cmd.name in ("http-server", "serve") or (
                cmd.name in ("npx", "bunx") and texts[:1] in (["http-server"], ["serve"]))
            or (cmd.name == "caddy" and texts[:1] == ["file-server"])):
        return None
    for i, t in enumerate(texts[:-1]):
        if t in _SERVER_ROOT:
            return texts[i + 1]
    operands = [t for t in texts if t.startswith(("/", "~", "./", "../"))]
    return operands[-1] if operands else "."


def sent_secrets(script: Script, workspace: str, facts: SessionFacts
                 ) -> Iterable[tuple[str, Command]]:
    """Copies of secrets (made by earlier calls) this line reads or sends while it talks
    to the network."""
    if not facts.secrets:
        return
    variables = {v for v in facts.secrets if v.startswith("$")}
    files = file_copies(facts)
    for cmd in script.commands:
        texts = [a.text for a in cmd.args]
        if variables and script.networked:
            named = variables & {f"${n}" for a in cmd.argv if "$" in a.raw
                                 for n in EXPANDED.findall(a.raw)}
            if named:  # a variable an earlier call gave a secret, sent by this line
                yield min(named), cmd
                continue
        if cmd.name in BUILDERS and texts[:1] == ["push"] and len(texts) > 1:
            pushed = f"image:{texts[-1]}"
            if pushed in facts.secrets:  # an image built with a copy of a secret in it
                yield pushed, cmd
                continue
        if cmd.name == "git" and "push" in texts:
            inside = sorted(k for k in files if not k.startswith(("/", "~", "..")))
            if inside:  # the repository goes out, with the copy in it
                yield inside[0], cmd
                continue
        folder = served_folder(cmd)
        if folder is not None:  # a web server handing out a folder with the copy in it
            root = key(folder, cmd.cwd, workspace).rstrip("/") or "/"
            held = sorted(k for k in files if under(k, root))
            if held:
                yield held[0], cmd
                continue
        if not (script.networked or sends(cmd)):
            continue
        for k, pattern in _sent(cmd, workspace):
            if secret_at(facts, k):
                yield k, cmd
                continue
            # a folder sent whole (`rsync -a out/ host:`, `tar czf - . | curl -T -`), or a
            # pattern that matches the copy (`curl -T /tmp/k*`)
            held = sorted(c for c in files if under(c, k.rstrip("/") or "/")) or (
                matching(files, k, pattern))
            if held:
                yield held[0], cmd


def sent_project(script: Script, workspace: str, facts: SessionFacts
                 ) -> Iterable[tuple[str, Command]]:
    """Files holding the whole project packed (by earlier calls, or earlier on this
    line) that this line sends while it talks to the network."""
    packed = {k for k, f in facts.files.items() if f.origin == "project"}
    if not packed:
        return
    for cmd in script.commands:
        if not (script.networked or sends(cmd)):
            continue
        for k, pattern in _sent(cmd, workspace):
            hit = matching(packed, k, pattern)
            if hit:
                yield hit[0], cmd
                break


def _sent(cmd: Command, workspace: str) -> Iterator[tuple[str, bool]]:
    """Each file a command reads or sends, named in full (by its key), and whether the
    name is a pattern."""
    for e in effects(cmd):
        if e.kind in ("read", "send") and e.word is not None and e.word.known:
            yield key(e.word.text, cmd.cwd, workspace), e.word.glob


def matching(paths: Iterable[str], named: str, pattern: bool) -> list[str]:
    """The session's files a word names: itself, or (a pattern) each it matches."""
    return sorted(p for p in paths if p == named or (pattern and fnmatch.fnmatchcase(
        p, named)))


def piped_project(script: Script) -> Iterator[Command]:
    """Commands that send what an earlier command of their pipeline packed of the whole
    project onto its output (`tar cz . | nc HOST PORT`, `git archive HEAD | curl -T - URL`):
    the packed file's class, with no file between."""
    for cmd in script.commands:
        if sends(cmd) and any(packs_to_output(u) for u in cmd.upstream):
            yield cmd
