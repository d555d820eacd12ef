"""A here-document's body is read as bash reads it (found in the ninth sitting: a body
whose first line starts with a backslash, `bash <<'EOF'` then `\\rm -rf ~`, was read by
tree-sitter-bash as words of the redirection and an empty body, and the shield allowed
it; `psql <<'EOF'` then `\\! rm -rf ~` too). The law: whatever its lines, a body under a
quoted delimiter is the command's input exactly, and `<<-` takes off the tabs that start
its lines. Shown catching the parse without its repair."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from toolpipe.layers.shield import UnixShield
from toolpipe.shell import _expand, _parse, analyse

LINE = st.text(alphabet="ab \\!$'\"`|;&<>(){}#*~-.=\t", max_size=12).filter(
    lambda line: line.strip("\t") != "EOF")
DELIMITERS = st.sampled_from(["'EOF'", '"EOF"', "\\EOF"])


def read_input(source: str) -> list[str]:
    return [d.text for c in analyse(source).commands if c.name == "cat" for d in c.stdin_data]


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(LINE, min_size=1, max_size=4), DELIMITERS)
@example(["\\! rm -rf ~"], "'EOF'")
@example(["", "", "\\", ".)=b'a\"$~{!"], '"EOF"')  # blank lines, then a backslash's line
@example(["\\;(", "\\;("], "'EOF'")  # (a parse with an ERROR node, before its repair)
def test_a_quoted_body_is_the_input_as_written(lines, delimiter):
    body = "\n".join(lines) + "\n"
    assert read_input(f"cat <<{delimiter} > out.txt\n{body}EOF") == [body]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), LINE), min_size=1, max_size=4))
def test_dash_takes_off_leading_tabs(lines):
    body = "".join("\t" * tabs + line + "\n" for tabs, line in lines)
    expected = "".join(line.lstrip("\t") + "\n" for _, line in lines)
    assert read_input(f"cat <<-'EOF' > out.txt\n{body}\tEOF") == [expected]


def test_the_shield_reads_a_body_that_starts_with_a_backslash():
    shield = UnixShield()
    for command in ("bash <<'EOF'\n\\rm -rf ~\nEOF", "psql <<'EOF'\n\\! rm -rf ~\nEOF",
                    "cat <<'EOF' | psql\n\\! rm -rf ~\nEOF"):
        assert shield.evaluate("Bash", {"command": command}, (), "/ws").action == "block"


def test_the_law_catches_the_parse_without_its_repair(monkeypatch):
    body = "\\;(\n\\;(\n"  # tree-sitter reads it as an ERROR: no input at all
    assert read_input(f"cat <<'EOF' > out.txt\n{body}EOF") == [body]
    monkeypatch.setattr(_parse, "MAX_REPAIRS", 0)
    assert read_input(f"cat <<'EOF' > out.txt\n{body}EOF") == []


def test_the_law_catches_the_body_as_tree_sitter_gives_it(monkeypatch):
    monkeypatch.setattr(_expand, "body_text", _parse._text)
    assert read_input("cat <<'EOF' > out.txt\n\n  x\nEOF") == ["x\n"]  # not "\n  x\n"
