"""The house's rules, checked on the import graph of toolpipe/ (module-level imports): no
cycle, nothing imports upward, a wing is entered through its face, no module over 400
lines."""

from __future__ import annotations

import pathlib

import pytest

from .sources import imports

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "toolpipe"

# Lower ranks may not import higher ones.
KERNEL = {"toolpipe._json", "toolpipe._cattrs", "toolpipe._checks", "toolpipe._names",
          "toolpipe.context", "toolpipe.result", "toolpipe.effects", "toolpipe.program",
          "toolpipe.registry", "toolpipe.pipeline", "toolpipe.errors", "toolpipe.events",
          "toolpipe.failures", "toolpipe.roles", "toolpipe._schema", "toolpipe._faults",
          "toolpipe.observe", "toolpipe._approval_marks", "toolpipe._made", "toolpipe._lazy_re",
          "toolpipe._text"}
RANKS = [("kernel", lambda m: m in KERNEL), ("shell", lambda m: m.startswith("toolpipe.shell")),
         ("secrets", lambda m: m.startswith("toolpipe.secrets")),
         ("layers", lambda m: m.startswith("toolpipe.layers")),
         ("agent", lambda m: m.startswith("toolpipe.agent")),
         ("session", lambda m: m.startswith("toolpipe.session"))]
WINGS = ("toolpipe.shell", "toolpipe.secrets", "toolpipe.agent", "toolpipe.session")


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def graph() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        deps: set[str] = set()
        found = imports(path)  # module level only
        for module, names in found["top_from"]:
            if module.startswith("toolpipe"):
                deps.add(module)
                deps |= {f"{module}.{name}" for name in names}
        deps |= {name for name in found["top"] if name.startswith("toolpipe")}
        out[name] = deps
    modules = set(out)
    return {m: {d for d in deps if d in modules and d != m} for m, deps in out.items()}


def rank(module: str) -> int:
    for i, (_, test) in enumerate(RANKS):
        if test(module):
            return i
    return len(RANKS)  # the rest: profiles, config, tools, formats, testing, cli…


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def test_no_cycle():
    assert cycles(graph()) == []


def test_nothing_imports_upward():
    bad = [(m, d) for m, deps in graph().items() for d in deps if rank(d) > rank(m)]
    assert bad == []


def test_wings_are_entered_through_their_faces():
    bad = [(m, d) for m, deps in graph().items() for d in deps for wing in WINGS
           if d.startswith(wing + ".") and not m.startswith(wing)]
    assert bad == []


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=str)
def test_module_size(path):
    assert len(path.read_text().splitlines()) <= 400


def test_the_checks_can_fail():
    assert cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]
    assert rank("toolpipe.context") < rank("toolpipe.layers.shield") < rank("toolpipe.cli")
