"""The cache on a realistic session: hit rate and staleness of memoize's footprints, beside
the rule it replaced (exact paths; a Bash call whose writes it cannot name empties the
cache); writes its section of docs/benchmarks.md.

    python -m benchmarks.cache            # about half a minute
    python -m benchmarks.cache --quick

The session is an agent at work on a small project (seeded, so every run is the same):
it reads files, often again, lists and searches folders, edits and writes files, and runs
Bash commands (mostly read-only: ls, cat, grep, wc, git-like queries; some writing: sed -i,
redirections, tee, touch, rm; a few whose writes cannot be known: python3, sh). Every call
goes through the standard tools on a real workspace and the simulated interpreter. Each
read's answer is checked against the same tool without a cache: an answer that differs,
beyond the ``[cached]`` marker, is stale.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from benchmarks.common import write_section
from interpreters.simulated import SimulatedInterpreter
from toolpipe import DispatchContext, MemoizingMiddleware, ToolContext, ToolPipeline
from toolpipe.layers.memoize import MARKER
from toolpipe.program import Program, pure
from toolpipe.tools import workspace_registry

ROOT = Path(__file__).resolve().parent.parent
CACHED = ["Read", "LS", "Glob", "Grep"]
WRITES = ["Write", "Edit", "Bash"]
FILES = [f"src/mod{i}.py" for i in range(12)] + [f"tests/test_{i}.py" for i in range(6)] + [
    "README.md", "docs/guide.md", "setup.cfg"]
DIRS = [".", "src", "tests", "docs"]
WORDS = ["alpha", "beta", "gamma", "delta"]


class ExactPathRule(MemoizingMiddleware):
    """The rule memoize had before footprints: an entry is removed by a write to its exact
    path (a listing or search counts as a read of its folder's path); a Bash call removes
    the entries of the files it names, and every entry when it names none."""

    def _write_targets(self, ctx: DispatchContext) -> tuple[list[str] | None, bool]:
        paths = self._paths(ctx.tool_name, ctx.input, ctx.tool_context)
        return (sorted(paths) if paths else None), paths is None

    def _write_keys(self, targets: list[str], cwd: str) -> Program[frozenset[str]]:
        return pure(frozenset(f"f:{p}" for p in targets))

    def _read_footprint(self, ctx: DispatchContext
                        ) -> Program[tuple[frozenset[str], tuple[()]]]:
        path = ctx.input.get("path", ".")
        return pure((frozenset({f"f:{Path(ctx.tool_context.cwd, str(path)).resolve()}"}),
                     ()))


class FootprintsAlone(MemoizingMiddleware):
    """Memoize before stamps: an entry stands until a write's footprint removes it."""

    def _read_footprint(self, ctx: DispatchContext
                        ) -> Program[tuple[frozenset[str], tuple[()]] | None]:
        found = yield from super()._read_footprint(ctx)
        return None if found is None else (found[0], ())


def session(seed: int, calls: int) -> list[tuple[str, dict[str, Any]]]:
    rng = random.Random(seed)
    out: list[tuple[str, dict[str, Any]]] = []
    recent: list[str] = []
    for _ in range(calls):
        roll = rng.random()
        if roll < 0.40:  # a read, most often of a file read lately
            path = rng.choice(recent[-5:]) if recent and rng.random() < 0.6 else rng.choice(
                FILES)
            recent.append(path)
            out.append(("Read", {"path": path}))
        elif roll < 0.50:
            out.append(("LS", {"path": rng.choice(DIRS)}))
        elif roll < 0.58:
            out.append(("Glob", {"pattern": rng.choice(["src/*.py", "**/*.py", "*.md",
                                                        "tests/test_*.py"])}))
        elif roll < 0.66:
            out.append(("Grep", {"pattern": rng.choice(WORDS), "path": rng.choice(DIRS)}))
        elif roll < 0.72:
            path = rng.choice(FILES)
            out.append(("Edit", {"path": path, "old_string": rng.choice(WORDS),
                                 "new_string": rng.choice(WORDS)}))
        elif roll < 0.75:
            out.append(("Write", {"path": rng.choice(FILES),
                                  "content": " ".join(rng.choices(WORDS, k=6)) + "\n"}))
        else:
            out.append(("Bash", {"command": bash(rng)}))
    return out


def bash(rng: random.Random) -> str:
    f, d, w = rng.choice(FILES), rng.choice(DIRS), rng.choice(WORDS)
    return rng.choices([
        f"ls -la {d}", f"cat {f}", f"grep -rn {w} {d}", f"wc -l {f}", f"head -5 {f}",
        "git status 2>/dev/null || true", f"find {d} -name '*.py'", "pwd", f"tail -3 {f}",
        f"sed -i s/{w}/{rng.choice(WORDS)}/ {f}", f"echo {w} >> {f}", f"touch {f}",
        f"echo {w} | tee build.log > /dev/null", f"rm -f {d}/scratch.txt",
        f"python3 -c \"print('{w}')\"", f"sh -c 'echo {w}'",
    ], weights=[8, 8, 6, 4, 4, 4, 3, 2, 3, 2, 2, 1, 2, 1, 2, 1])[0]


def setup(root: Path) -> None:
    rng = random.Random(7)
    for path in FILES:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("\n".join(" ".join(rng.choices(WORDS, k=5))
                                           for _ in range(8)) + "\n")


def measure(make: Callable[[str], MemoizingMiddleware],
            calls: Iterable[tuple[str, dict[str, Any]]]) -> tuple[int, int, int]:
    """(cacheable calls, hits, stale answers) for one run of the session."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        setup(root)
        layer = make(str(root))
        registry = workspace_registry(str(root), bash_timeout=10.0)
        cached = ToolPipeline.builder().with_middleware(layer).with_core(registry).build()
        bare = ToolPipeline.builder().with_core(registry).build()
        sim = SimulatedInterpreter()
        reads = hits = stale = 0
        for i, (tool, input) in enumerate(calls):
            ctx = DispatchContext(tool, input, call_id=f"c{i}", turn_number=1 + i // 10,
                                  tool_context=ToolContext(cwd=str(root)))
            got = sim.run(cached.dispatch(ctx))
            if tool in CACHED:
                reads += 1
                hits += got.cached
                truth = sim.run(bare.dispatch(ctx))
                stale += got.text.removesuffix(MARKER) != truth.text
        return reads, hits, stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--output", default=str(ROOT / "docs" / "benchmarks.md"))
    args = parser.parse_args(argv)
    n = 300 if args.quick else 1500
    calls = session(1, n)
    rows = []
    for name, make in [
            ("stamps and footprints (memoize now)",
             lambda root: MemoizingMiddleware(CACHED, WRITES, root=root)),
            ("footprints alone (before stamps)",
             lambda root: FootprintsAlone(CACHED, WRITES, root=root)),
            ("exact paths (before footprints)",
             lambda root: ExactPathRule(CACHED, WRITES, root=root))]:
        print(name, "…", flush=True)
        reads, hits, stale = measure(make, calls)
        rows.append(f"| {name} | {reads:,} | {hits / reads:.1%} | {stale} |")
    costs = hit_costs(200 if args.quick else 2000)
    bash_calls = sum(tool == "Bash" for tool, _ in calls)
    command = "python -m benchmarks.cache" + (" --quick" if args.quick else "")
    text = "\n".join([
        "## The cache on a realistic session",
        "",
        f"Command: `{command}` (written by the run itself). A seeded session of {n:,} calls "
        f"({bash_calls} of them Bash; TTL 5 turns of 10 calls) through the standard tools "
        "on a real workspace, on the simulated interpreter. Every cacheable answer is "
        "checked against the same call without a cache: stale answers are those that "
        "differ.",
        "",
        "| invalidation | cacheable calls | hit rate | stale answers |",
        "|---|---:|---:|---:|",
        *rows,
        "",
        "The cost of a hit (median of the run, asyncio, one `Read` of a 2 KB file through "
        "memoize alone): checking the entry's stamp is one `FileOp('stamp')`, answered on "
        "the loop in a few system calls, or on a worker thread when the file changed in "
        "the last two seconds (its digest is computed again).",
        "",
        "| hit | median per call | ratio |",
        "|---|---:|---:|",
        *(f"| {name} | {value:.1f} µs | {value / costs[-1][1]:.2f}x |"
          for name, value in costs),
    ])
    write_section(args.output, text, "cache")
    print(text)
    return 0


def hit_costs(n: int) -> list[tuple[str, float]]:
    """Median µs per cache hit: validated (now), and unvalidated (the baseline, last)."""
    import asyncio
    import statistics
    import time

    from interpreters.asyncio import AsyncioInterpreter

    out = []
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "new.txt").write_text("x" * 2048)
        Path(folder, "a.txt").write_text("x" * 2048)
        registry = workspace_registry(folder)
        for name, layer, path in [
                ("validated, a file changed in the last 2 s (stat and digest, on a worker)",
                 MemoizingMiddleware(CACHED, WRITES, root=folder), "new.txt"),
                ("validated (stat on the loop)",
                 MemoizingMiddleware(CACHED, WRITES, root=folder), "a.txt"),
                ("trusted (no stamps: the baseline)",
                 FootprintsAlone(CACHED, WRITES, root=folder), "a.txt")]:
            if path == "a.txt":
                time.sleep(max(0.0, 2.1 - (time.time() - Path(folder, path).stat().st_ctime)))
            pipeline = ToolPipeline.builder().with_middleware(layer).with_core(
                registry).build()
            ctx = DispatchContext("Read", {"path": path}, call_id="c",
                                  tool_context=ToolContext(cwd=folder))

            async def run(p: ToolPipeline = pipeline) -> list[float]:
                interp = AsyncioInterpreter()
                await interp.run(p.dispatch(ctx))  # the miss that fills the entry
                times = []
                for _ in range(n):
                    start = time.perf_counter()
                    result = await interp.run(p.dispatch(ctx))
                    times.append(time.perf_counter() - start)
                    assert result.cached
                return times

            out.append((name, statistics.median(asyncio.run(run())) * 1e6))
    return out


if __name__ == "__main__":
    sys.exit(main())
