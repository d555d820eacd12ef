"""Faults stay in their call, on every interpreter.

The one rule: whatever a tool, verifier, resolver, check, store, layer or listener raises or
returns, the call that met it gets a result whose cause names what failed, and every other
call of the turn goes on as if nothing happened. Only KeyboardInterrupt stops a run, and it
arrives as itself (never inside an exception group).

The matrix (tests/faults.py) is faults × components; every cell runs on the simulator,
asyncio and trio (coroutine tools only where there is an event loop).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreters.asyncio import AsyncioInterpreter
from interpreters.simulated import SimulatedInterpreter
from interpreters.trio import TrioInterpreter
from toolpipe import Engine, ToolCall
from toolpipe.failures import (
    BadReturn,
    ComponentFailed,
    Denied,
    Panicked,
    ToolFailed,
)
from toolpipe.result import DispatchResult

from . import faults
from .helpers import INTERPRETERS, run_program

MAKERS = {"simulated": SimulatedInterpreter, "asyncio": AsyncioInterpreter,
          "trio": TrioInterpreter}

# what the faulty call's result must say, by component
TOOL_CAUSES = (Panicked, ToolFailed, BadReturn, ComponentFailed)
EXPECTED = {
    **{c: TOOL_CAUSES for c in faults.TOOL_COMPONENTS},
    "resolver": (Denied,),
    "check": (Denied,),
    "store": (ComponentFailed, BadReturn),
    "layer_call": (ComponentFailed, BadReturn),
    "layer_program": (ComponentFailed, BadReturn),
}


def cases(kind: str) -> list[tuple[str, str]]:
    return [(component, fault) for component in faults.COMPONENTS for fault in faults.FAULTS
            if faults.applies(component, fault)
            and not (kind == "simulated" and component == "tool_coroutine")]


def run_turn(kind: str, component: str, fault_names: list[str | None]) -> list[DispatchResult]:
    """One turn: a call of ``F`` for each fault name (None: a healthy ``ok`` call)."""
    fault = next(f for f in fault_names if f is not None)
    spec = faults.build(component, fault)
    engine = Engine(spec.registry, max_concurrency=3)
    engine.set_pipeline(spec.builder)
    calls = [ToolCall(f"c{i}", "ok" if f is None else "F", {"i": i})
             for i, f in enumerate(fault_names)]
    interpreter = MAKERS[kind](**spec.options)
    return run_program(kind, lambda: engine.dispatch_turn(calls), interpreter)  # type: ignore[no-any-return]


def check_contained(component: str, fault: str, result: DispatchResult) -> None:
    assert isinstance(result, DispatchResult)
    if component == "listener":  # a listener's fault is logged; the call is untouched
        assert not result.is_error and result.text == "fine"
    elif component.startswith("verifier"):  # verify's verdict, never an error result
        assert not result.is_error, result.text
        assert "[verify] failed: verifier" in result.text, result.text
    else:
        assert result.is_error, result.text
        assert isinstance(result.cause, EXPECTED[component]), (result.cause, result.text)
    assert isinstance(result.text, str) and result.text


@pytest.mark.parametrize("kind", INTERPRETERS)
def test_every_fault_stays_in_its_call(kind: str) -> None:
    """The whole matrix on one interpreter: each cell a turn of a faulty call between two
    healthy ones. A failing cell is reported with its coordinates."""
    broken = []
    count = 0
    for component, fault in cases(kind):
        count += 1
        try:
            results = run_turn(kind, component, [None, fault, None])
            assert [r.tool_call_id for r in results] == ["c0", "c1", "c2"]
            for healthy in (results[0], results[2]):
                assert not healthy.is_error and healthy.text == "fine", healthy.text
            check_contained(component, fault, results[1])
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt):
                raise
            broken.append(f"{component} / {fault}: {type(error).__name__}: {error!s:.200}")
    assert count >= 80
    assert not broken, f"{len(broken)} of {count} cells broken:\n" + "\n".join(broken)


@pytest.mark.parametrize(("kind", "component"), [
    (k, c) for k in INTERPRETERS for c in faults.COMPONENTS
    if not (k == "simulated" and c == "tool_coroutine")])  # no coroutines on the simulator
def test_keyboard_interrupt_stops_the_run_as_itself(kind: str, component: str) -> None:
    faults.RAISES["KeyboardInterrupt"] = KeyboardInterrupt
    faults.FAULTS["raises KeyboardInterrupt"] = ("raise", KeyboardInterrupt)
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            run_turn(kind, component, [None, "raises KeyboardInterrupt"])
    finally:
        del faults.RAISES["KeyboardInterrupt"], faults.FAULTS["raises KeyboardInterrupt"]
    assert type(caught.value) is KeyboardInterrupt  # not wrapped in a group


@settings(max_examples=40)
@given(kind=st.sampled_from(INTERPRETERS), data=st.data())
def test_many_faults_in_one_turn(kind: str, data: st.DataObject) -> None:
    """A property: a turn of any mix of healthy calls and faulty ones (one component, any
    faults) gives every healthy call its answer and contains every fault."""
    component, _ = data.draw(st.sampled_from(cases(kind)))
    fault_list = [f for c, f in cases(kind) if c == component]
    names = data.draw(st.lists(st.none() | st.sampled_from(fault_list), min_size=1,
                               max_size=6).filter(lambda xs: any(x is not None for x in xs)))
    # one set-up per turn: every faulty call meets the first fault drawn
    first = next(n for n in names if n is not None)
    results = run_turn(kind, component, [None if n is None else first for n in names])
    assert len(results) == len(names)
    for name, result in zip(names, results, strict=True):
        if name is None:
            assert not result.is_error and result.text == "fine"
        else:
            check_contained(component, first, result)


def test_the_guard_is_not_a_placebo() -> None:
    """Without the guard (the pipeline's entry called directly) a layer's fault escapes:
    the matrix above would catch its removal."""
    spec = faults.build("layer_program", "raises ValueError")
    engine = Engine(spec.registry)
    engine.set_pipeline(spec.builder)
    from toolpipe import DispatchContext

    bare = engine.pipeline._entry  # the chain without its guard
    with pytest.raises(ValueError, match="bad value"):
        SimulatedInterpreter().run(bare(DispatchContext("F")))
    guarded = SimulatedInterpreter().run(engine.pipeline.dispatch(DispatchContext("F")))
    assert guarded.is_error and isinstance(guarded.cause, ComponentFailed)
    assert guarded.text == ("Tool 'F' failed: layer 'faulty_program' raised ValueError: "
                            "bad value")
