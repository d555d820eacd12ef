"""The cache never serves what a write may have changed, and keeps what no write touched:
call sequences an agent makes, through the default pipeline with the standard tools over a
real workspace, on asyncio and on the simulated interpreter.

Each case: files to start with, calls, and what the last call must be: ``fresh`` (its
answer equals the answer of the same pipeline without memoize) or ``cached`` (a hit, and
still equal)."""

from __future__ import annotations

import asyncio
import os
import shutil

import pytest

from interpreters.asyncio import AsyncioInterpreter
from interpreters.simulated import SimulatedInterpreter
from toolpipe import DispatchContext, ToolContext
from toolpipe.config import DEFAULT_PIPELINE, load_pipeline
from toolpipe.layers.memoize import MARKER
from toolpipe.tools import workspace_registry

FILES = {"a.txt": "alpha\n", "b.py": "old = 1\n", "src/main.py": "x = 'old'\n",
         "src/util.py": "def util(): pass\n", "docs/guide.md": "# guide\nold words\n",
         "target.py": "old target\n", "i.py": "old i\n", "j.py": "old j\n",
         "k.py": "old k\n", "l.py": "old l\n", "c.py": "old c\n",
         "multi.py": "one\ntwo\nthree\nfour\n"}


def R(path, **kw):
    return ("Read", {"path": path, **kw})


def LS(path="."):
    return ("LS", {"path": path})


def G(pattern, path=None):
    return ("Glob", {"pattern": pattern, **({"path": path} if path else {})})


def GREP(pattern, path="."):
    return ("Grep", {"pattern": pattern, "path": path})


def W(path, content):
    return ("Write", {"path": path, "content": content})


def E(path, old, new):
    return ("Edit", {"path": path, "old_string": old, "new_string": new})


def B(command):
    return ("Bash", {"command": command})


# (name, calls, expectation of the last call)
CASES = [
    # the sequences: stale before footprints
    ("ls after a new file", [LS("src"), W("src/brand_new.py", "n = 1\n"), LS("src")], "fresh"),
    ("glob after a new file", [G("src/*.py"), W("src/new.py", "1\n"), G("src/*.py")],
     "fresh"),
    ("grep after a write inside", [GREP("needle", "src"), W("src/n.py", "needle\n"),
                                   GREP("needle", "src")], "fresh"),
    ("sed -i", [R("b.py"), B("sed -i s/old/new/ b.py > /dev/null"), R("b.py")], "fresh"),
    ("tee", [R("c.py"), B("echo new | tee c.py > /dev/null"), R("c.py")], "fresh"),
    ("cd then redirect", [R("src/main.py"),
                          B("cd src && echo new > main.py"), R("src/main.py")], "fresh"),
    ("python writes", [R("k.py"), B("python3 -c \"open('k.py','w').write('new')\" > out.log"),
                       R("k.py")], "fresh"),
    ("cp from stdin", [R("l.py"), B("cp /dev/stdin l.py <<< new 2> err.log"), R("l.py")],
     "fresh"),
    ("through a link", [R("link.py"), W("target.py", "new target\n"), R("link.py")], "fresh"),
    ("./i.py", [R("./i.py"), W("i.py", "new i\n"), R("./i.py")], "fresh"),
    ("src/../j.py", [R("src/../j.py"), W("j.py", "new j\n"), R("src/../j.py")], "fresh"),
    ("offset after edit", [R("multi.py", offset=2, limit=2), E("multi.py", "two", "2"),
                           R("multi.py", offset=2, limit=2)], "fresh"),
    ("glob without a path", [G("**/*.md"), W("docs/new.md", "new\n"), G("**/*.md")],
     "fresh"),
    # more writes the cache must see
    ("ls root after a deep write", [LS(), W("new/deep/file.txt", "x\n"), LS()], "fresh"),
    ("read after rm", [R("a.txt"), B("rm a.txt"), R("a.txt")], "fresh"),
    ("read after mv onto it", [R("a.txt"), B("echo moved > tmp.txt && mv tmp.txt a.txt"),
                               R("a.txt")], "fresh"),
    ("read after rm -rf of its folder", [R("src/util.py"), B("rm -rf src"),
                                         R("src/util.py")], "fresh"),
    ("grep after sed in a subfolder", [GREP("old", "docs"),
                                       B("sed -i s/old/new/ docs/guide.md"),
                                       GREP("old", "docs")], "fresh"),
    ("read after truncate", [R("a.txt"), B("truncate -s 0 a.txt"), R("a.txt")], "fresh"),
    ("read after append", [R("a.txt"), B("echo more >> a.txt"), R("a.txt")], "fresh"),
    ("read after a write through the link", [R("target.py"), W("link.py", "via link\n"),
                                             R("target.py")], "fresh"),
    ("ls after touch", [LS("src"), B("touch src/touched.py"), LS("src")], "fresh"),
    ("ls after mkdir", [LS(), B("mkdir newdir"), LS()], "fresh"),
    ("read after make-like unknown", [R("a.txt"), B("sh ./script.sh"), R("a.txt")], "fresh"),
    ("read after a variable target", [R("a.txt"), B("f=a.txt; echo v > \"$f\""),
                                      R("a.txt")], "fresh"),
    ("read after a glob rm", [R("i.py"), B("rm -f *.py"), R("i.py")], "fresh"),
    ("read after git checkout-like", [R("a.txt"), B("cp b.py a.txt"), R("a.txt")], "fresh"),
    ("read after eval", [R("a.txt"), B("eval 'echo e > a.txt'"), R("a.txt")], "fresh"),
    ("read after bash -c", [R("a.txt"), B("bash -c 'echo c > a.txt'"), R("a.txt")],
     "fresh"),
    ("read after ln -sf", [R("link.py"), B("ln -sf a.txt link.py"), R("link.py")], "fresh"),
    ("grep root after write", [GREP("needle"), W("x/needle.txt", "needle\n"),
                               GREP("needle")], "fresh"),
    ("read after edit", [R("b.py"), E("b.py", "old", "new"), R("b.py")], "fresh"),
    ("grep after tee -a", [GREP("alpha"), B("echo alpha | tee -a docs/guide.md"),
                           GREP("alpha")], "fresh"),
    ("ls after rm", [LS("src"), B("rm src/util.py"), LS("src")], "fresh"),
    ("ls after mv between folders", [LS("docs"), B("mv a.txt docs/a.txt"), LS("docs")],
     "fresh"),
    ("read after sudo-less wrapper", [R("a.txt"), B("timeout 5 sed -i s/alpha/beta/ a.txt"),
                                      R("a.txt")], "fresh"),
    ("read after xargs sed", [R("a.txt"), B("echo a.txt | xargs sed -i s/alpha/z/"),
                              R("a.txt")], "fresh"),
    ("read after a here-document", [R("a.txt"), B("cat > a.txt <<EOF\nnew\nEOF"),
                                    R("a.txt")], "fresh"),
    ("read after a subshell write", [R("a.txt"), B("(cd src && echo s > ../a.txt)"),
                                     R("a.txt")], "fresh"),
    ("read after a function that writes", [R("a.txt"),
                                           B("w() { echo f > \"$1\"; }; w a.txt"),
                                           R("a.txt")], "fresh"),
    ("glob after rm -rf of a folder", [G("src/*.py"), B("rm -rf src"), G("src/*.py")],
     "fresh"),
    ("read after cp -r over its folder", [R("src/util.py"), B("cp -r docs/. src/"),
                                          R("src/util.py")], "fresh"),
    ("read after dd", [R("a.txt"), B("dd if=b.py of=a.txt 2>/dev/null"), R("a.txt")],
     "fresh"),
    ("ls after a write in a new subfolder", [LS("src"), W("src/pkg/__init__.py", ""),
                                             LS("src")], "fresh"),
    ("read after edit through ./", [R("b.py"), E("./b.py", "old", "new"), R("b.py")],
     "fresh"),
    ("read after write with src/..", [R("a.txt"), W("src/../a.txt", "via dots\n"),
                                      R("a.txt")], "fresh"),
    # and what no write touched stays cached
    ("read, find, read", [R("a.txt"), B("find . -name '*.py'"), R("a.txt")], "cached"),
    ("read, diff, read", [R("a.txt"), B("diff a.txt b.py || true"), R("a.txt")], "cached"),
    ("grep, write a file it cannot see", [GREP("old", "src"), W("docs/z.md", "old\n"),
                                          GREP("old", "src")], "cached"),
    ("read, ls -la, read", [R("a.txt"), B("ls -la"), R("a.txt")], "cached"),
    ("read, cat, read", [R("a.txt"), B("cat a.txt"), R("a.txt")], "cached"),
    ("read, grep, read", [R("a.txt"), B("grep -rn alpha ."), R("a.txt")], "cached"),
    ("read, write elsewhere, read", [R("a.txt"), W("b.py", "z\n"), R("a.txt")], "cached"),
    ("ls src, write elsewhere, ls src", [LS("src"), W("docs/other.md", "o\n"), LS("src")],
     "cached"),
    ("grep docs, write in src", [GREP("old", "docs"), W("src/x.py", "old\n"),
                                 GREP("old", "docs")], "cached"),
    ("read, redirect elsewhere, read", [R("a.txt"), B("echo hi > other.txt"), R("a.txt")],
     "cached"),
    ("read, cd and write elsewhere", [R("a.txt"), B("cd src && echo x > a.txt"),
                                      R("a.txt")], "cached"),
    ("read, wc and head, read", [R("a.txt"), B("wc -l a.txt && head -1 a.txt"),
                                 R("a.txt")], "cached"),
    ("read, echo, read", [R("a.txt"), B("echo done"), R("a.txt")], "cached"),
    ("read, failed write, read", [R("a.txt"), E("a.txt", "not there", "x"), R("a.txt")],
     "cached"),
    ("glob, write a non-matching folder", [G("src/*.py"), W("docs/n.md", "n\n"),
                                           G("src/*.py")], "cached"),
    ("read, sed without -i, read", [R("a.txt"), B("sed s/alpha/beta/ a.txt"), R("a.txt")],
     "cached"),
]


def workspace(tmp_path):
    root = tmp_path / "ws"
    for path, text in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    os.symlink("target.py", root / "link.py")
    (root / "script.sh").write_text("echo script > a.txt\n")
    return root


def pipelines(root):
    # the cache is judged here, not containment: Bash unsandboxed (quicker, same writes)
    registry = workspace_registry(str(root), bash_timeout=10.0, sandbox="none")
    without = DEFAULT_PIPELINE.split('[[layer]]\nname = "memoize"')[0]
    return (load_pipeline(DEFAULT_PIPELINE, registry).with_core(registry).build(),
            load_pipeline(without, registry).with_core(registry).build())


def run_case(kind, root, calls):
    cached, bare = pipelines(root)
    ctx_of = [DispatchContext(tool, input, call_id=f"c{i}", turn_number=1,
                              tool_context=ToolContext(cwd=str(root)))
              for i, (tool, input) in enumerate(calls)]
    if kind == "simulated":
        sim = SimulatedInterpreter()
        texts = [sim.run(cached.dispatch(c)).text for c in ctx_of]
        fresh = sim.run(bare.dispatch(ctx_of[-1])).text
        return texts, fresh

    async def main():
        interp = AsyncioInterpreter()
        texts = [(await interp.run(cached.dispatch(c))).text for c in ctx_of]
        return texts, (await interp.run(bare.dispatch(ctx_of[-1]))).text

    return asyncio.run(main())


def test_enough_cases():
    assert len(CASES) >= 13 + 40 and sum(e == "cached" for *_, e in CASES) >= 15


@pytest.mark.process
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("kind", ["asyncio", "simulated"])
@pytest.mark.parametrize(("name", "calls", "expect"), CASES, ids=[c[0] for c in CASES])
def test_sequence(kind, name, calls, expect, tmp_path):
    root = workspace(tmp_path)
    texts, fresh = run_case(kind, root, calls)
    last = texts[-1]
    assert last.removesuffix(MARKER) == fresh, (name, texts)
    if expect == "cached":
        assert last.endswith(MARKER), (name, texts)


@pytest.mark.process
def test_reads_racing_writes_never_see_an_empty_file_nor_keep_a_stale_one(tmp_path):
    """Reads and Writes of one file at once, on asyncio (file operations run in threads):
    a Read sees a whole old or new text, and what is cached at the end is the last write."""
    root = workspace(tmp_path)
    cached, _ = pipelines(root)
    context = ToolContext(cwd=str(root))
    texts = [f"version {i}\n" for i in range(30)]

    async def main():
        interp = AsyncioInterpreter()

        async def read(i):
            ctx = DispatchContext("Read", {"path": "a.txt"}, call_id=f"r{i}",
                                  tool_context=context)
            return (await interp.run(cached.dispatch(ctx))).text

        async def write(i):
            ctx = DispatchContext("Write", {"path": "a.txt", "content": texts[i]},
                                  call_id=f"w{i}", tool_context=context)
            return (await interp.run(cached.dispatch(ctx))).text

        jobs = [read(i) for i in range(600)]
        for i in range(30):
            jobs.insert(i * 20, write(i))
        got = await asyncio.gather(*jobs)
        final = DispatchContext("Read", {"path": "a.txt"}, call_id="last",
                                tool_context=context)
        return got, (await interp.run(cached.dispatch(final))).text

    got, last = asyncio.run(main())
    reads = [t.removesuffix(MARKER) for t in got if not t.startswith("Wrote")]
    assert all(t in texts or t == FILES["a.txt"] for t in reads), sorted(set(reads))[:5]
    assert last.removesuffix(MARKER) == (root / "a.txt").read_text()
