"""157 agent sequences in 7 classes (tests/cache_sequences.py) in which a write really
changes what a later read shows: through the default pipeline and ConstrainedProfile, the
last read must equal the workspace's answer. Figures per class in the failure message."""

from __future__ import annotations

import os
import shutil
from collections import Counter

import pytest

from interpreters.simulated import SimulatedInterpreter
from toolpipe import DispatchContext, Tool, ToolContext, ToolPipeline, ToolRegistry
from toolpipe.config import DEFAULT_PIPELINE, load_pipeline
from toolpipe.effects import FileOp
from toolpipe.layers.memoize import MARKER
from toolpipe.profiles import ConstrainedProfile
from toolpipe.tools import workspace_registry

from .cache_sequences import SEED, sequences

pytestmark = [pytest.mark.process,
              pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")]
SEQUENCES = sequences()
CLASSES = sorted({c for c, *_ in SEQUENCES})


def registry_for(root: str) -> ToolRegistry:
    base = workspace_registry(root, bash_timeout=10.0, sandbox="none")

    def writer(input, context):  # a tool the cache knows nothing about, that writes
        yield FileOp("write", root, input["path"], input["text"])
        return "done"

    registry = ToolRegistry([*base.tools(),
                             Tool.from_function("Stamp", writer),
                             Tool.from_function("fetch_to_file", writer, role="network")])
    registry.workspace = root
    return registry


def pipelines(kind: str, registry: ToolRegistry) -> tuple[ToolPipeline, ToolPipeline]:
    if kind == "default":
        cached = load_pipeline(DEFAULT_PIPELINE, registry).with_core(registry).build()
    else:
        cached = ConstrainedProfile.for_registry(registry).pipeline_builder().with_core(
            registry).build()
    return cached, ToolPipeline.builder().with_core(registry).build()


def prepare(root: str, steps) -> None:
    for path, text in SEED.items():
        os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as out:
            out.write(text)


def stale_after(kind: str, root: str, steps, read) -> tuple[str, str] | None:
    prepare(root, steps)
    registry = registry_for(root)
    cached, bare = pipelines(kind, registry)
    sim = SimulatedInterpreter()

    def call(pipeline, tool, input):
        ctx = DispatchContext(tool, input, call_id="c", turn_number=1,
                              tool_context=ToolContext(cwd="."))
        return sim.run(pipeline.dispatch(ctx))

    for step in steps:
        what = step[0]
        if what == "call":
            call(cached, step[1], step[2])
        elif what == "behind":
            with open(os.path.join(root, step[1]), "w") as out:
                out.write(step[2])
        elif what == "remove":
            os.remove(os.path.join(root, step[1]))
        elif what == "link":
            target = os.path.join(root, step[1])
            if os.path.lexists(target):
                os.remove(target)
            os.symlink(step[2], target)
        elif what == "hardlink":
            os.link(os.path.join(root, step[2]), os.path.join(root, step[1]))
    through = call(cached, *read).text
    truth = call(bare, *read).text
    if through.removesuffix(MARKER) != truth:
        return through, truth
    return None


@pytest.mark.parametrize("kind", ["default", "constrained"])
@pytest.mark.parametrize("klass", CLASSES)
def test_no_stale_answer(kind, klass, tmp_path):
    cases = [s for s in SEQUENCES if s[0] == klass]
    stale = []
    for i, (_, name, steps, read) in enumerate(cases):
        root = tmp_path / str(i)
        root.mkdir()
        found = stale_after(kind, str(root), steps, read)
        if found is not None:
            stale.append(f"{name}: cached {found[0]!r}, workspace {found[1]!r}")
    assert not stale, f"{kind}/{klass}: {len(stale)} of {len(cases)} stale\n" + "\n".join(
        stale[:10])


def test_enough_sequences_by_class():
    counts = Counter(c for c, *_ in SEQUENCES)
    assert len(SEQUENCES) >= 120 and len(counts) >= 7 and min(counts.values()) >= 9
