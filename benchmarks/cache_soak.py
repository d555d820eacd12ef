"""The cache's memory under load: a long session through the default pipeline holds its
resident memory; repeated reads of a large file add nothing. Writes its section of
docs/benchmarks.md.

    python -m benchmarks.cache_soak              # 1,000,000 calls: a few minutes
    python -m benchmarks.cache_soak --calls 50000

The session: every call a cached tool with a new input (a lookup tool answering 300
characters), one in ten a `Read` of one of 50 files, on the simulated interpreter (the
memory is the store's, not the interpreter's). Resident memory is read from
/proc/self/status (VmRSS) after a warm-up of 20,000 calls and at the end.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
from pathlib import Path

from benchmarks.common import write_section
from interpreters.simulated import SimulatedInterpreter
from toolpipe import DispatchContext, Tool, ToolContext, ToolRegistry
from toolpipe.config import DEFAULT_PIPELINE, load_pipeline
from toolpipe.tools import workspace_registry

ROOT = Path(__file__).resolve().parent.parent


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def soak(calls: int) -> tuple[float, float, int]:
    with tempfile.TemporaryDirectory() as folder:
        for i in range(50):
            Path(folder, f"f{i}.txt").write_text(f"file {i}\n" * 20)
        base = workspace_registry(folder, sandbox="none")
        registry = ToolRegistry([*base.tools(),
                                 Tool.from_function(
                                     "lookup", lambda input, context: "v" * 300,
                                     role="search")])
        registry.workspace = folder
        pipeline = load_pipeline(DEFAULT_PIPELINE, registry).with_core(registry).build()
        sim = SimulatedInterpreter()
        start = 0.0
        for i in range(calls):
            if i == 20_000:
                gc.collect()
                start = rss_mb()
            if i % 10 == 0:
                ctx = DispatchContext("Read", {"path": f"f{i % 50}.txt"}, call_id="c",
                                      turn_number=1 + i // 10,
                                      tool_context=ToolContext(cwd="."))
            else:
                ctx = DispatchContext("lookup", {"q": f"query {i}"}, call_id="c",
                                      turn_number=1 + i // 10)
            sim.run(pipeline.dispatch(ctx))
        gc.collect()
        return start, rss_mb(), len(sim.store)  # type: ignore[arg-type]


def large_reads(times: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "big.txt").write_text(("0123456789" * 6 + "\n") * 68_000)  # ~4 MB
        registry = workspace_registry(folder, sandbox="none")
        pipeline = load_pipeline(DEFAULT_PIPELINE, registry).with_core(registry).build()
        sim = SimulatedInterpreter()
        ctx = DispatchContext("Read", {"path": "big.txt"}, call_id="c",
                              tool_context=ToolContext(cwd="."))
        sim.run(pipeline.dispatch(ctx))
        gc.collect()
        start = rss_mb()
        for _ in range(times):
            sim.run(pipeline.dispatch(ctx))
        gc.collect()
        return start, rss_mb()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=1_000_000)
    parser.add_argument("--quick", action="store_true",
                        help="30,000 calls and 10 large reads, for a smoke test")
    parser.add_argument("--output", default=str(ROOT / "docs" / "benchmarks.md"))
    args = parser.parse_args(argv)
    if args.quick:
        args.calls = 30_000
    if args.calls <= 20_000:
        parser.error("--calls must be more than 20,000 (the warm-up)")
    start, end, entries = soak(args.calls)
    reads = 10 if args.quick else 100
    big_start, big_end = large_reads(reads)
    command = "python -m benchmarks.cache_soak" + (
        " --quick" if args.quick else
        f" --calls {args.calls}" if args.calls != 1_000_000 else "")
    text = "\n".join([
        "## The cache's memory",
        "",
        f"Command: `{command}` (written by the run itself). {args.calls:,} calls through "
        "the default pipeline, nine in ten a cached lookup with a new input, one in ten a "
        f"`Read` (simulated interpreter); then {reads} reads of a 4 MB file.",
        "",
        "| measure | at the start | at the end | growth |",
        "|---|---:|---:|---:|",
        f"| resident memory, {args.calls:,} calls (after 20,000 warm-up) | {start:.1f} MB "
        f"| {end:.1f} MB | {end - start:+.1f} MB |",
        f"| resident memory, {reads} reads of a 4 MB file | {big_start:.1f} MB | "
        f"{big_end:.1f} MB | {big_end - big_start:+.1f} MB |",
        "",
        f"Entries in the store at the end: {entries:,} (the bound: `max_entries = 1024`, "
        "`max_bytes` 32 MiB; expired ones leave as the turns pass). Answers longer than "
        "`max_entry_chars` (256 KiB) are not kept: the 4 MB file is read again each time.",
    ])
    write_section(args.output, text, "cache_soak")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
