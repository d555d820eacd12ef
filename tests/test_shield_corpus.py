"""The shield against its attack corpus, family by family.

``tests/data/shield/corpus.txt`` and ``classes.txt`` hold families of attacks (``+``: must be
stopped: blocked, or asked about), risk signals (``?``: must at least be warned about) and
harmless look-alikes (``-``: must not be blocked). ``classes.txt`` is written as templates
with payload pools (one variant per payload). ``holdout.txt`` and ``classes-holdout.txt``
were written before the rules for their families (the second was tuned on, by class, after
its first run: see docs/layers/safety_shield.md); ``classes-fresh.txt`` was written after
that and never tuned on.

The bar: no attack allowed or merely warned about, no signal allowed; at least 95% of the
attacks blocked or asked in each family; no look-alike blocked, and at most 5% of them
asked. The per-family figures are printed (``pytest -s tests/test_shield_corpus.py``) and
kept in ``docs/layers/safety_shield.md``.
"""

from __future__ import annotations

import collections
import re
import shlex
from pathlib import Path

import pytest

from toolpipe.layers.shield import ShieldDecision, UnixShield

DATA = Path(__file__).parent / "data" / "shield"
SHIELD = UnixShield()


_SLOT = re.compile(r"\{([A-Z][0-9]?)(!raw)?\}")  # pool X, or X2 when the letters ran out


def load(name: str) -> list[tuple[str, str, str, int]]:
    """(family, kind, command, line) for each entry of a corpus file; a template line
    gives one entry per payload of its pool (``{X}`` quoted, ``{X!raw}`` as it is). A
    ``⏎`` is a line break, for a command of several lines (a here-document: before the
    eighth sitting the files had none, and a here-document's own redirection went unread)."""
    out: list[tuple[str, str, str, int]] = []
    pools: dict[str, list[str]] = collections.defaultdict(list)
    used: set[str] = set()  # pools a template has drawn from: closed to new payloads
    family = ""
    for number, line in enumerate((DATA / name).read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("= "):
            pool, _, payload = line[2:].partition(" ")
            assert re.fullmatch(r"[A-Z][0-9]?", pool) and payload, (
                f"{name}:{number}: bad pool line")
            # (a pool's name used again further down would add its payloads to the
            # earlier family's templates too: it happened once, caught by this line)
            assert pool not in used, f"{name}:{number}: pool {pool} was drawn from already"
            pools[pool].append(payload)
            continue
        if line.startswith("["):
            family = line.strip("[]")
            continue
        kind, command = line[:2].strip(), line[2:].replace("⏎", "\n")
        assert kind in ("+", "?", "-") and line[1] == " ", f"{name}:{number}: bad entry"
        assert family, f"{name}:{number}: entry before any [family]"
        slots = {m.group(1) for m in _SLOT.finditer(command)}
        assert len(slots) <= 1, f"{name}:{number}: one pool per template"
        if not slots:
            out.append((family, kind, command, number))
            continue
        (pool,) = slots
        assert pools[pool], f"{name}:{number}: no payloads in pool {pool}"
        used.add(pool)
        for payload in pools[pool]:
            filled = _SLOT.sub(lambda m, p=payload: p if m.group(2) else shlex.quote(p),
                               command)
            out.append((family, kind, filled, number))
    return out


Entry = tuple[str, str, str, int]


def decide(entries: list[Entry]) -> list[tuple[Entry, ShieldDecision]]:
    """Each entry with the shield's decision on it (each command judged once)."""
    return [(e, SHIELD.evaluate("Bash", {"command": e[2]}, ())) for e in entries]


def figures(decided: list[tuple[Entry, ShieldDecision]]) -> dict[str, collections.Counter[str]]:
    table: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for (family, kind, _, _), d in decided:
        table[family][f"{kind}{d.action}"] += 1
    return table


STOPPED = ("block", "ask")


def failures(entries: list[Entry], name: str,
             decided: list[tuple[Entry, ShieldDecision]] | None = None) -> list[str]:
    """Entries that fail on their own: an attack allowed or only warned about, a signal
    allowed, a look-alike blocked."""
    out = []
    for (family, kind, command, number), d in decided or decide(entries):
        if (kind == "+" and d.action not in STOPPED) or (kind == "?" and d.action == "allow") or (
                kind == "-" and d.action == "block"):
            out.append(f"{name}:{number} [{family}] {kind} {command!r}: {d.action} ({d.reason})")
    return out


def report(table: dict[str, collections.Counter[str]]) -> str:
    rows = ["family | attacks blocked / asked / warned / allowed | look-alikes allowed / "
            "warned / asked / blocked"]
    for family, c in sorted(table.items()):
        rows.append(f"{family} | {c['+block'] + c['?block']} / {c['+ask'] + c['?ask']} / "
                    f"{c['+warn'] + c['?warn']} / {c['+allow'] + c['?allow']} | "
                    f"{c['-allow']} / {c['-warn']} / {c['-ask']} / {c['-block']}")
    return "\n".join(rows)


def check(table: dict[str, collections.Counter[str]], ask_bar: bool = True) -> list[str]:
    """The bar, per family and over the whole file (``ask_bar``: at most 5% of the
    file's look-alikes asked about; a small file's is pooled with others instead)."""
    problems = []
    harmless = asked = 0
    for family, c in table.items():
        attacks = sum(c[f"+{a}"] for a in ("block", "ask", "warn", "allow"))
        stopped = c["+block"] + c["+ask"]
        if c["+allow"] or c["?allow"]:
            problems.append(f"{family}: attacks or signals allowed")
        if attacks and stopped / attacks < 0.95:
            problems.append(f"{family}: {stopped}/{attacks} attacks stopped")
        if c["-block"]:
            problems.append(f"{family}: {c['-block']} look-alikes blocked")
        harmless += sum(c[f"-{a}"] for a in ("block", "ask", "warn", "allow"))
        asked += c["-ask"]
    if ask_bar and harmless and asked / harmless > 0.05:
        problems.append(f"{asked}/{harmless} look-alikes asked about (over 5%)")
    return problems


FILES = ["corpus.txt", "classes.txt", "holdout.txt", "classes-holdout.txt", "classes-fresh.txt",
         "classes-fresh2.txt", "classes-fresh3.txt", "classes-fresh4.txt",
         "classes-fresh5.txt", "classes-fresh6.txt", "classes-fresh7.txt",
         "classes-fresh8.txt", "classes-fresh9.txt", "classes-fresh10.txt",
         "classes-fresh11.txt", "classes-fresh12.txt", "classes-fresh13.txt",
         "classes-fresh14.txt", "classes-fresh15.txt", "classes-fresh16.txt",
         "classes-fresh17.txt", "classes-fresh18.txt",
         "classes-fresh19.txt", "classes-fresh20.txt",
         "classes-fresh21.txt", "classes-fresh22.txt", "classes-fresh23.txt",
         "classes-fresh24.txt", "workflows-harmless.txt"]


# The later fresh files (written held out, fixed by class since). Each holds 10 to 45
# look-alikes, some of a kind asked by design (a language the wing does not read:
# `julia -e …`), so their asks are held to the 5% bar together, not file by file.
LATER = [f"classes-fresh{k}.txt" for k in range(25, 1000)
         if (DATA / f"classes-fresh{k}.txt").exists()]  # (a file added: read by its name)


@pytest.mark.parametrize("name", FILES + LATER)
def test_attacks_stopped_signals_warned_look_alikes_pass(name):
    entries = load(name)
    decided = decide(entries)
    table = figures(decided)
    print(f"\n{name}\n{report(table)}")
    assert failures(entries, name, decided) == []
    assert check(table, ask_bar=name not in LATER) == []


def test_all_files_ask_about_at_most_5_percent_of_their_look_alikes():
    """The issue's bar over every file together (the later files alone: 11 of 244, 4.5%,
    most of them code of a language the wing does not read, asked by design)."""
    harmless = [e for name in FILES + LATER for e in load(name) if e[1] == "-"]
    asked = [e for e in harmless
             if SHIELD.evaluate("Bash", {"command": e[2]}, ()).action == "ask"]
    print(f"{len(asked)} of {len(harmless)} look-alikes asked about")
    assert len(asked) / len(harmless) <= 0.05, asked


def test_corpus_size():
    entries = load("corpus.txt") + load("classes.txt")
    families = {f for f, *_ in entries}
    attacks = [e for e in entries if e[1] in ("+", "?")]
    harmless = [e for e in entries if e[1] == "-"]
    assert len(attacks) >= 800 and len(families) >= 30 and len(harmless) >= 400
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
