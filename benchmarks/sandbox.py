"""What containment costs per Bash call: `true` through the Bash tool on asyncio, in the
bubblewrap sandbox ("required") against unsandboxed ("none", under the subreaper) and a
bare `bash -c true` through the same RunProcess without the subreaper, interleaved in one
run; writes its section of docs/benchmarks.md.

    python -m benchmarks.sandbox          # about 10 seconds
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import write_section
from interpreters._processes import sandbox_status
from interpreters.asyncio import AsyncioInterpreter
from toolpipe import DispatchContext, ToolPipeline
from toolpipe.effects import RunProcess
from toolpipe.tools import workspace_registry

ROOT = Path(__file__).resolve().parent.parent


def _raw(root: str) -> Any:
    return (yield RunProcess(("bash", "-c", "true"), root, 10, contain=False))


async def measure(root: str, rounds: int) -> dict[str, list[float]]:
    interp = AsyncioInterpreter()
    pipes = {mode: ToolPipeline.new(workspace_registry(root, sandbox=mode))
             for mode in ("required", "none")}
    ctx = DispatchContext("Bash", {"command": "true"})
    times: dict[str, list[float]] = {"required": [], "none": [], "bare": []}
    for pipe in pipes.values():  # warm up: the probe, the root masks, the caches
        await interp.run(pipe.dispatch(ctx))
    for _ in range(rounds):  # interleaved, so a busy moment falls on all three alike
        for mode, pipe in pipes.items():
            started = time.perf_counter()
            result = await interp.run(pipe.dispatch(ctx))
            times[mode].append(time.perf_counter() - started)
            assert not result.is_error, result.text
        started = time.perf_counter()
        await interp.run(_raw(root))
        times["bare"].append(time.perf_counter() - started)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=str(ROOT / "docs" / "benchmarks.md"))
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="5 rounds, for a smoke test")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds = 5
    reason = sandbox_status()
    if reason is not None:
        print(f"the sandbox cannot run here: {reason}")
        return 2
    with tempfile.TemporaryDirectory() as root:
        times = asyncio.run(measure(root, args.rounds))
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    rows = "\n".join(
        f"| {label} | {med[key]:.1f} ms | {med[key] / med['bare']:.2f}x |"
        for key, label in (("bare", "bare `bash -c true`"),
                           ("none", '`sandbox="none"` (own session, subreaper)'),
                           ("required", '`sandbox="required"` (bubblewrap, seccomp, masks)')))
    who = "root" if os.geteuid() == 0 else "an ordinary user"
    section = f"""## Containment: a sandboxed `true`

`python -m benchmarks.sandbox`. `true` through the Bash tool on asyncio, {args.rounds}
interleaved rounds, medians, run as {who}. "bare" is `bash -c true` through `RunProcess`
with neither sandbox nor subreaper: the floor both modes pay.

| mode | per call | against bare |
|---|---:|---:|
{rows}

The sandbox's cost is bubblewrap's namespaces and mounts (about 6 ms on this machine) and,
for a root caller, the scan of /etc, /srv and /var/lib for what an ordinary user could not
read (a few milliseconds; /usr and /opt are scanned once per process). Unsandboxed, the
subreaper is a small Perl helper (`interpreters/_reaper.pl`, about 2 ms to start; the
Python one it falls back to without perl takes about 30). A model's turn costs seconds;
an agent's command usually far more than `true`.
"""
    write_section(args.output, section, "sandbox")
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
