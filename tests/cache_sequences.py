"""Agent call sequences in which a write really changes what a later read shows, by
class (issue 26), each class a template with generated variants. A sequence: the steps,
then the read whose answer must equal the workspace's (never a stale cache entry).

Steps: ("call", tool, input): through the pipeline; ("behind", path, text): a write the
pipeline never sees (a background job, an editor, another agent); ("link", name, target):
a symlink made behind its back; ("hardlink", name, target).

Classes:
- misread: shell commands the shell wing reads as writing nothing, though they write
  (``sort -o``, ``sed 's/…/…/w f'``, ``awk`` printing to a file, ``find -fprint``,
  ``uniq in out``, ``git diff --output``, ``perl -i``, ``awk -f prog``).
- unknown_tool: a tool of role "other" or "network" that writes.
- behind: writes behind the pipeline's back, same size, within one clock tick.
- links: a link re-pointed, a link inside a listed folder, a dangling link made real, a
  hard link written through.
- spelling: relative and absolute spellings, ``./`` and ``..`` of one file.
- failed: a command that wrote and then failed.
- trees: a listing or search after a file below it changed behind the back.
"""

from __future__ import annotations

import itertools
from typing import Any

Step = tuple[Any, ...]
Sequence = tuple[str, str, list[Step], tuple[str, dict[str, Any]]]  # class, name, steps, read

FILES = ("a.txt", "src/b.py", "docs/c.md")
SEED = {"a.txt": "alpha one\nbeta two\n", "src/b.py": "x = 'beta'\nalpha = 1\n",
        "docs/c.md": "# c\nalpha beta\n"}


def R(path: str) -> tuple[str, dict[str, Any]]:
    return ("Read", {"path": path})


def bash(command: str) -> Step:
    return ("call", "Bash", {"command": command})


MISREAD = (
    # (a here-document written to a file, the redirection after it: the shell wing dropped
    # the write with the here-document's node until the eighth sitting; the cache, which
    # checks each answer against the file's stamp, stayed right even so)
    "cat <<'EOF' > {f}\nomega\nEOF",
    "cat <<EOF >> {f}\nomega $((1 + 1))\nEOF",
    "sort -o {f} {f}",
    "sed -n 's/alpha/ALPHA/w {f}' {g}",
    "awk '{{print > \"{f}\"}}' {g}",
    "find . -name '*.none' -fprint {f}",
    "uniq {g} {f}",
    "git diff --no-index --output={f} {g} /dev/null || true",
    "perl -i -pe 's/alpha/omega/' {f}",
    "printf '{{print > \"{f}\"}}' > /tmp/toolpipe-prog.awk; awk -f /tmp/toolpipe-prog.awk {g}",
    "sed -i.bak s/alpha/omega/ {f}",
    "cp --remove-destination {g} {f}",
)


def misread() -> list[Sequence]:
    out = []
    for i, (template, f, g) in enumerate(itertools.product(MISREAD, FILES, FILES)):
        if f == g and "{g}" in template and "{f}" in template and "sort" not in template \
                and "perl" not in template and "sed -i" not in template:
            continue
        command = template.format(f=f, g=g)
        out.append(("misread", f"{i}: {command}", [("call", "Read", {"path": f}),
                                                     bash(command)], R(f)))
    return out[:40]


def unknown_tool() -> list[Sequence]:
    out = []
    for tool, f, text in itertools.product(("Stamp", "fetch_to_file"), FILES,
                                           ("omega\n", "alpha one\nbeta two\n!\n")):
        out.append(("unknown_tool", f"{tool} {f} {text!r}",
                    [("call", "Read", {"path": f}),
                     ("call", tool, {"path": f, "text": text})], R(f)))
    return out


def behind() -> list[Sequence]:
    out = []
    for f, text, reader in itertools.product(FILES, ("same size\n", "x"),
                                             ("Read", "Grep", "LS", "Glob")):
        if reader == "Read":
            first: tuple[str, dict[str, Any]] = R(f)
        elif reader == "Grep":
            first = ("Grep", {"pattern": "e", "path": "."})
        elif reader == "LS":
            first = ("LS", {"path": f.rsplit("/", 1)[0] if "/" in f else "."})
        else:
            first = ("Glob", {"pattern": "**/*"})
        size_text = "x" * len(SEED[f]) if text == "same size\n" else text
        out.append(("behind", f"{reader} after {f} <- {size_text[:10]!r}",
                    [("call", *first), ("behind", f, size_text)], first))
    return out


def links() -> list[Sequence]:
    out = []
    for f, g in itertools.permutations(FILES, 2):
        out.append(("links", f"repoint link {f}->{g}",
                    [("link", "l.txt", f), ("call", "Read", {"path": "l.txt"}),
                     ("link", "l.txt", g)], R("l.txt")))
        out.append(("links", f"write the target of a link {f}",
                    [("link", "l.txt", f), ("call", "Read", {"path": "l.txt"}),
                     ("behind", f, "new target\n")], R("l.txt")))
        out.append(("links", f"dangling link made real {g}",
                    [("link", "l.txt", "missing.txt"), ("call", "Read", {"path": "l.txt"}),
                     ("behind", "missing.txt", SEED[g])], R("l.txt")))
        out.append(("links", f"hard link written through {f}",
                    [("hardlink", "h.txt", f), ("call", "Read", {"path": f}),
                     ("behind", "h.txt", "via the other name\n")], R(f)))
    for f in FILES:
        out.append(("links", f"link in a listed folder {f}",
                    [("link", "src/l", f"../{f}"), ("call", "LS", {"path": "src"}),
                     ("behind", f, "changed size now\n")], ("LS", {"path": "src"})))
    return out


def spelling() -> list[Sequence]:
    out = []
    for f in FILES:
        for read_as, write_as in itertools.product((f, f"./{f}", f"src/../{f}"), repeat=2):
            out.append(("spelling", f"read {read_as}, write {write_as}",
                        [("call", "Read", {"path": read_as}),
                         ("call", "Write", {"path": write_as, "content": "spelled\n"})],
                        R(read_as)))
    return out


def failed() -> list[Sequence]:
    out = []
    for f, tail in itertools.product(FILES, ("false", "exit 3", "ls /nonexistent")):
        out.append(("failed", f"write {f} then {tail}",
                    [("call", "Read", {"path": f}), bash(f"echo wrote > {f}; {tail}")], R(f)))
    return out


def trees() -> list[Sequence]:
    out = []
    for f, reader in itertools.product(FILES, ("Grep", "Glob", "LS")):
        folder = f.rsplit("/", 1)[0] if "/" in f else "."
        first: tuple[str, dict[str, Any]] = {
            "Grep": ("Grep", {"pattern": "alpha", "path": "."}),
            "Glob": ("Glob", {"pattern": "**/*.new"}),
            "LS": ("LS", {"path": folder})}[reader]
        out.append(("trees", f"{reader} after a new file beside {f}",
                    [("call", *first), ("behind", f"{folder}/made.new", "alpha\n")], first))
        out.append(("trees", f"{reader} after {f} removed behind the back",
                    [("call", *first), ("remove", f)], first))
    return out


def sequences() -> list[Sequence]:
    return [*misread(), *unknown_tool(), *behind(), *links(), *spelling(), *failed(),
            *trees()]
