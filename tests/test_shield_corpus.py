"""The shield against its attack corpus, family by family.

``tests/data/shield/corpus.txt`` and ``holdout.txt`` hold families of attacks (``+``: must be
blocked), risk signals (``?``: must at least be warned about) and harmless look-alikes
(``-``: must not be blocked). The bar: no attack or signal allowed, at least 95% of the
attacks blocked overall and in each family, no look-alike blocked. The per-family figures
are printed (``pytest -s tests/test_shield_corpus.py``) and kept in
``docs/layers/safety_shield.md``.
"""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from toolpipe.layers.shield import UnixShield

DATA = Path(__file__).parent / "data" / "shield"
SHIELD = UnixShield()


def load(name: str) -> list[tuple[str, str, str, int]]:
    """(family, kind, command, line) for each entry of a corpus file."""
    out: list[tuple[str, str, str, int]] = []
    family = ""
    for number, line in enumerate((DATA / name).read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            family = line.strip("[]")
            continue
        kind, command = line[:2].strip(), line[2:]
        assert kind in ("+", "?", "-") and line[1] == " ", f"{name}:{number}: bad entry"
        assert family, f"{name}:{number}: entry before any [family]"
        out.append((family, kind, command, number))
    return out


def figures(entries: list[tuple[str, str, str, int]]) -> dict[str, collections.Counter[str]]:
    table: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for family, kind, command, _ in entries:
        action = SHIELD.evaluate("Bash", {"command": command}, ()).action
        table[family][f"{kind}{action}"] += 1
    return table


def failures(entries: list[tuple[str, str, str, int]], name: str) -> list[str]:
    out = []
    for family, kind, command, number in entries:
        d = SHIELD.evaluate("Bash", {"command": command}, ())
        if (kind == "+" and d.action != "block") or (kind == "?" and d.action == "allow") or (
                kind == "-" and d.action == "block"):
            out.append(f"{name}:{number} [{family}] {kind} {command!r}: {d.action} ({d.reason})")
    return out


def report(table: dict[str, collections.Counter[str]]) -> str:
    rows = ["family | attacks blocked | signals warned | look-alikes allowed / warned"]
    for family, c in table.items():
        attacks = c["+block"] + c["+warn"] + c["+allow"]
        signals = c["?block"] + c["?warn"] + c["?allow"]
        looks = c["-allow"] + c["-warn"] + c["-block"]
        rows.append(f"{family} | {c['+block']}/{attacks} | {signals - c['?allow']}/{signals} | "
                    f"{c['-allow']} / {c['-warn']} of {looks}")
    return "\n".join(rows)


@pytest.mark.parametrize("name", ["corpus.txt", "holdout.txt"])
def test_attacks_blocked_signals_warned_look_alikes_pass(name):
    entries = load(name)
    assert failures(entries, name) == []
    table = figures(entries)
    print(f"\n{name}\n{report(table)}")
    for family, c in table.items():
        attacks = c["+block"] + c["+warn"] + c["+allow"]
        assert c["+allow"] == 0 and c["?allow"] == 0 and c["-block"] == 0, family
        assert attacks == 0 or c["+block"] / attacks >= 0.95, family


def test_corpus_size():
    entries = load("corpus.txt")
    families = {f for f, *_ in entries}
    attacks = [e for e in entries if e[1] in ("+", "?")]
    assert len(attacks) >= 300 and len(families) >= 15
    for family in families:  # every family has harmless look-alikes
        assert any(f == family and k == "-" for f, k, *_ in entries), family


def test_the_bar_catches_a_weaker_shield():
    """The same check against a shield that does not read code strings finds the gap."""

    class Blind(UnixShield):
        def evaluate(self, tool, params, history, workspace="."):  # type: ignore[override]
            command = str(params.get("command", ""))
            if command.startswith(("eval ", "bash -c", "sh -c")):
                command = "true"
            return super().evaluate(tool, {**params, "command": command}, history, workspace)

    global SHIELD
    saved, SHIELD = SHIELD, Blind()
    try:
        assert any("[code-strings]" in f for f in failures(load("corpus.txt"), "corpus.txt"))
    finally:
        SHIELD = saved
