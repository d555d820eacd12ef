"""The benchmarks' own machinery: a peer that hangs or fails costs its own figures only,
and is reported as not measured."""

from __future__ import annotations

import asyncio
import math

import pytest

peers = pytest.importorskip("benchmarks.peers")


def test_a_hanging_measurement_is_reported_as_not_measured(monkeypatch):
    monkeypatch.setattr(peers, "MEASURE_TIMEOUT", 0.01)

    async def hangs():
        await asyncio.sleep(30)

    async def fails():
        raise RuntimeError("the peer fell over")

    async def answers():
        return {"median": 1e-6}

    async def main():
        return [await peers.bounded("hang", hangs(), peers.NOT_MEASURED),
                await peers.bounded("fail", fails(), math.nan),
                await peers.bounded("ok", answers(), None)]

    hung, failed, answered = asyncio.run(main())
    assert hung is peers.NOT_MEASURED and math.isnan(failed)
    assert answered == {"median": 1e-6}


def test_figures_not_measured_print_as_such():
    assert peers.us(math.nan) == "not measured" and peers.us(2e-6) == "2.0 µs"
    assert peers.times(math.nan, 1.0) == "-" and peers.times(3.0, 1.5, 2) == "2.00x"


def test_the_run_page_reads_with_any_section_still_to_come():
    """benchmarks.run writes its page as each section finishes: a page written before the
    rest (or by a run that stopped) says which sections are not measured yet."""
    run = pytest.importorskip("benchmarks.run")
    page = run.write_report({}, "python -m benchmarks.run", quick=True)
    for title, _, _ in run.SECTIONS:
        assert f"## {title}\n\nNot measured yet" in page
    assert page.startswith("# Benchmarks")
