"""A text's shape and its holder's tags are not what it says: a line is judged the same
whatever blanks end it, whatever returns a CRLF file adds, whatever indent all its lines
share, and inside HTML's tags.

Found in the thirteenth sitting by giving every corpus text a shape a copy or a platform
leaves: blanks at the end of every line leaked 65 of 9,416 secrets and changed 30 of
2,855 look-alikes (`-----BEGIN OpenVPN Static key V1----- `, a continuation's `\\ `), a
tab at the end of a TSV's last row hid its table, CRLF endings leaked 6 (`| passwd\\r`,
base64 wrapped in CRLF lines), an indent shared by every line 120 (a line's start anchors
`$ kubectl get secret … | base64 -d` then its output, a REPL's `Out[4]:`, a user list's
row); and, as the twelfth had found, every line in a `<pre>` 127 of 2,727 (forms no word
announces: `memgraph-cli -u mg -p …`, a markdown table's row). Each text is read trimmed
(`_shape`), and the text between tags as lines of their own (`_tags`). After: none of
the shapes leaks or changes anything the plain text does not; the `<pre>`, 15."""

from __future__ import annotations

import html
import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import leaked, load, place_rates
from toolpipe.secrets import SecretPatternSet

SHAPES = {
    "crlf": lambda t: t.replace("\n", "\r\n") + "\r\n",
    "trailing-blanks": lambda t: t.replace("\n", " \n") + " ",
    "trailing-tab": lambda t: t + "\t",
    "indent": lambda t: "    " + t.replace("\n", "\n    "),
    "tab-indent": lambda t: "\t" + t.replace("\n", "\n\t"),
}
FILES = ("corpus.txt", "classes.txt", "classes-fresh15.txt", "classes-fresh35.txt",
         "classes-fresh41.txt", "classes-fresh12.txt", "classes-fresh42.txt")


def _differences(shapes: dict, every: int = 3) -> dict[str, tuple[int, int]]:
    """For each shape: the secret lines the plain text hides and the shaped one leaks,
    and the look-alikes the plain text leaves and the shaped one changes (every
    ``every``-th of the files above)."""
    patterns = SecretPatternSet()
    lines = [line for name in FILES for line in load(name)[::every]]
    assert len(lines) > 1000
    out = {}
    for name, shape in shapes.items():
        leaks = changes = 0
        for line in lines:
            plain, shaped = patterns.redact(line.text), patterns.redact(shape(line.text))
            if line.secrets:
                leaks += not any(leaked(s, plain) for s in line.secrets) and any(
                    leaked(s, shaped) for s in line.secrets)
            else:
                changes += plain == line.text and shaped != shape(line.text)
        out[name] = (leaks, changes)
    return out


def test_a_text_s_shape_changes_nothing_it_says():
    assert _differences(SHAPES) == dict.fromkeys(SHAPES, (0, 0))


@pytest.mark.parametrize(("shape", "broken"), [("trailing-blanks", "trimmed"),
                                               ("indent", "_shared_indent")])
def test_the_law_catches_a_redactor_that_reads_the_text_as_written(monkeypatch, shape, broken):
    shapes = importlib.import_module("toolpipe.secrets._shape")
    package = importlib.import_module("toolpipe.secrets")
    if broken == "trimmed":
        monkeypatch.setattr(package, "trimmed", lambda buf: None)
    else:
        monkeypatch.setattr(shapes, "_shared_indent", lambda buf: b"")
    leaks, changes = _differences({shape: SHAPES[shape]}, every=2)[shape]
    assert leaks + changes > 10


TAGS = {
    "pre": lambda t: "<pre>" + html.escape(t) + "</pre>",
    "cell": lambda t: "<tr><td>" + html.escape(t, quote=False) + "</td></tr>",
    "code": lambda t: "<li><code>" + html.escape(t) + "</code></li>",
}


def _tag_rates() -> dict[str, tuple[float, float]]:
    return place_rates(TAGS, 6, 250, 100)


def test_a_line_between_tags_is_read_as_a_line():
    """At most 2% leak (the held-out bar), at most 3% of look-alikes change (HTML's rate
    before this reading, as `test_redaction_glued` measures it)."""
    rates = _tag_rates()
    assert all(leak <= 0.02 and change <= 0.03 for leak, change in rates.values()), rates


def test_the_tag_law_catches_a_redactor_that_reads_no_tags(monkeypatch):
    monkeypatch.setattr(importlib.import_module("toolpipe.secrets"), "tagged_lines",
                        lambda text: [])
    rates = _tag_rates()
    assert max(leak for leak, _ in rates.values()) > 0.02, rates


_LINES = [line for name in FILES for line in load(name)]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_LINES), st.sampled_from(["", " ", "  ", "\t", " \t"]),
       st.lists(st.sampled_from(["", " ", "\t", "\r", "  \r"]), min_size=1, max_size=8))
def test_any_mix_of_indents_and_line_ends_reads_as_the_text(line, indent, ends):
    """Each line its own end (drawn), one indent for all: what the plain text hides stays
    hidden, what it leaves stays as it is."""
    rows = line.text.split("\n")
    shaped = "\n".join(indent + row + ends[k % len(ends)] for k, row in enumerate(rows))
    patterns = SecretPatternSet()
    plain, read = patterns.redact(line.text), patterns.redact(shaped)
    if line.secrets:
        if not any(leaked(s, plain) for s in line.secrets):
            assert not any(leaked(s, read) for s in line.secrets), (shaped, read)
    elif plain == line.text:
        assert read == shaped, (shaped, read)
