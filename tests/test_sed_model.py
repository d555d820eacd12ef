"""The shield's reading of a `sed -i` of plain substitutions (``sed_applied``) against GNU
sed itself: for any text and any plain pattern and replacement, the file the model says
sed leaves is the file sed leaves. A broken model (the text read as one line, so that
without ``g`` only its first occurrence is replaced) is caught by the same property."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolpipe.shell import analyse, sed_applied

# texts whose lines repeat, and patterns drawn from the text itself (or not), so that a
# pattern meets several lines, and several times in one
TEXT = st.lists(st.sampled_from(["a", "ab a", "b", "c/a", "", "a.b", "a b a"]), min_size=1,
                max_size=6).map("\n".join) | st.text(alphabet="ab c/.\n", max_size=30)


@st.composite
def texts_and_patterns(draw: st.DrawFn) -> tuple[str, str]:
    text = draw(TEXT)
    parts = [p for line in text.split("\n") for p in (line, line[:2], line[-1:]) if p
             and not set(p) & set(".")]
    pattern = draw(st.sampled_from(parts) | st.text(alphabet="ab c/", min_size=1,
                                                     max_size=4) if parts else
                   st.text(alphabet="ab c/", min_size=1, max_size=4))
    return text, pattern


REPLACEMENT = st.text(alphabet="ab c/.*", max_size=4)

pytestmark = pytest.mark.skipif(shutil.which("sed") is None, reason="no sed here")


def command(pattern: str, replacement: str, every: bool) -> str:
    escape = lambda t: t.replace("/", "\\/")  # noqa: E731
    script = f"s/{escape(pattern)}/{escape(replacement)}/{'g' if every else ''}"
    return f"sed -i {shlex.quote(script)} f.txt"


def agrees(model: Callable[[str, str], str | None], tmp: Path) -> Callable[..., None]:
    @settings(max_examples=40, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(texts_and_patterns(), REPLACEMENT, st.booleans())
    def law(drawn: tuple[str, str], replacement: str, every: bool) -> None:
        text, pattern = drawn
        line = command(pattern, replacement, every)
        predicted = model(line, text)
        assert predicted is not None, line
        path = tmp / "f.txt"
        path.write_text(text)
        subprocess.run(["bash", "-c", line], cwd=tmp, check=True, timeout=10)
        assert predicted == path.read_text(), (line, text)
    return law


def model(line: str, text: str) -> str | None:
    return sed_applied(analyse(line).commands[0], text)


def whole_text(line: str, text: str) -> str | None:  # sed's lines read as one
    out = sed_applied(analyse(line).commands[0], text.replace("\n", "\x01"))
    return None if out is None else out.replace("\x01", "\n")


@pytest.mark.process
def test_plain_substitutions_leave_what_sed_leaves(tmp_path: Path) -> None:
    agrees(model, tmp_path)()


@pytest.mark.process
def test_the_law_catches_a_model_that_reads_the_text_as_one_line(tmp_path: Path) -> None:
    with pytest.raises(AssertionError):
        agrees(whole_text, tmp_path)()


@pytest.mark.parametrize("line", [
    "sed -i 's/a.*/b/' f.txt",  # a regex: what it matches is not read here
    "sed -i 's/a/&&/' f.txt",  # the match kept
    "sed -i 's/\\(a\\)/\\1/' f.txt",
    "sed -i.bak 's/a/b/' f.txt",
    "sed -E -i 's/a/b/' f.txt",
    "sed -i '/x/d' f.txt",
    "sed 's/a/b/' f.txt",  # not in place
    "sed -i 's/a/b/' f.txt g.txt",
    "sed -i -f edits.sed f.txt",
])
def test_anything_more_than_plain_text_is_not_known(line: str) -> None:
    assert model(line, "a b\n") is None


def test_a_removal_can_make_a_command() -> None:
    assert model("sed -i 's/echo //' run.sh", "echo rm -rf ~\n") == "rm -rf ~\n"
    assert model("sed -i -e 's|/usr/local|/opt|' -e 's/x/y/g' c.sh",
                 "P=/usr/local/x/x") == "P=/opt/y/y"
