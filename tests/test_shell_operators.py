"""Bash's string operators as the shell wing works them out (``toolpipe/shell/_operators``)
agree with bash itself: random values, operators and glob patterns, each batch run by one
real bash. A value the wing cannot work out stays unknown (which the shield asks about),
never a wrong value."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from toolpipe.shell import _operators, analyse

_VALUES = st.text(alphabet="ab./_-xX", max_size=8)
_PATTERNS = st.sampled_from(["a", "*a", "a*", "*.", "?", "[ab]", "[!a]*", "*/", "x", "*",
                             "'a*'", '"."', ".*", "b?", "\\*", "/", "*b*", "[.-]"])
_CASES = st.one_of(
    st.tuples(_VALUES, st.sampled_from([",,", "^^", ",", "^"]).map(lambda op: "${v" + op + "}")),
    st.tuples(_VALUES, st.tuples(st.sampled_from(["%", "%%", "#", "##"]), _PATTERNS).map(
        lambda t: "${v" + t[0] + t[1] + "}")),
    st.tuples(_VALUES, st.tuples(st.sampled_from(["/", "//", "/#", "/%"]), _PATTERNS,
                                 st.sampled_from(["", "Q", "R."])).map(
        lambda t: "${v" + t[0] + t[1] + "/" + t[2] + "}")),
    st.tuples(_VALUES, st.tuples(st.integers(0, 9), st.integers(0, 9)).map(
        lambda t: f"${{v:{t[0]}:{t[1]}}}")),
)


def _disagreements(cases: list[tuple[str, str]]) -> list[str]:
    script = "".join(f"v='{v}'; printf '%s\\n' \"<{e}>\"\n" for v, e in cases)
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=10)
    said = done.stdout.splitlines()
    assert len(said) == len(cases), done.stderr
    out = []
    for (value, expansion), bash in zip(cases, said, strict=True):
        cmd = next(c for c in analyse(f"v='{value}'; echo \"<{expansion}>\"").commands
                   if c.name == "echo")
        ours = cmd.args[0]
        if ours.known and ours.text != bash:
            out.append(f"v={value!r} {expansion}: bash {bash!r}, the wing {ours.text!r}")
    return out


@pytest.mark.process
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@settings(max_examples=8, deadline=None, phases=[Phase.generate])  # (no shrinking: a
# bash per try; the report names the disagreement)
@given(st.lists(_CASES, min_size=50, max_size=50))
def test_the_operators_agree_with_bash(cases: list[tuple[str, str]]) -> None:
    assert _disagreements(cases) == []


@pytest.mark.process
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_comparison_catches_a_broken_operator(monkeypatch: pytest.MonkeyPatch) -> None:
    """The law above fails for an operator that cuts the longest suffix for ``%``."""
    real: Callable[..., str | None] = _operators.operate

    def broken(value: str, op: str, *rest: object) -> str | None:
        return real(value, "%%" if op == "%" else op, *rest)

    monkeypatch.setattr("toolpipe.shell._parameters.operate", broken)
    assert _disagreements([("a.b.c", "${v%.*}")]) != []


def test_a_name_built_by_an_operator_is_the_program_it_names() -> None:
    for text in ("c=RM; ${c,,} -rf ~", "p=xrm; ${p#x} -rf ~", "s='r m'; ${s// /} -rf ~",
                 "w=barm; ${w:2} -rf ~"):
        assert [c.name for c in analyse(text).commands] == ["rm"], text


def test_what_it_cannot_work_out_stays_unknown() -> None:
    for text in ('v=abc; echo "${v: -2}"', 'v=abc; echo "${v:$i}"', 'echo "${u%x}"',
                 'v=abc; echo "${v%[[:alpha:]]}"', 'v=abc; echo "${v%$p}"'):
        echo = next(c for c in analyse(text).commands if c.name == "echo")
        assert not echo.args[0].known, text
