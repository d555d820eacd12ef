"""One-time codes under their heading (toolpipe/secrets/_codes.py; the eighteenth
sitting's held-out `classes-fresh82.txt`: `backup codes: 53071100 89070982 …` leaked,
eight digits each, no key word near them but the heading).

The laws: every code listed under a recovery, backup, scratch or emergency heading, on its
line or the lines below (numbered, bulleted, by blanks or commas), is redacted, in each
service's shape; a heading followed by words, a count or a year changes nothing. Shown
catching the reading taken away."""

from __future__ import annotations

import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpipe.secrets import SecretPatternSet

S = SecretPatternSet.default_common()
HEADINGS = st.sampled_from(["Recovery codes:", "recovery codes", "Backup codes:",
                            "BACKUP CODES (keep them safe):", "Scratch codes =",
                            "Emergency codes:", "Your backup codes:"])
LAYOUTS = st.sampled_from(["same", "below", "numbered", "bulleted", "commas"])


def code(shape: str, rng: random.Random) -> str:
    def run(alphabet: str, n: int) -> str:
        text = "".join(rng.choice(alphabet) for _ in range(n))
        return text if any(c.isdigit() for c in text) else "7" + text[1:]
    if shape == "github":  # hex, two groups of five
        return run("0123456789abcdef", 5) + "-" + run("0123456789abcdef", 5)
    if shape == "google":  # two groups of four digits
        return run(string.digits, 4) + " " + run(string.digits, 4)
    if shape == "digits":
        return run(string.digits, 8)
    return run(string.ascii_lowercase + string.digits, 10)


def listed(heading: str, layout: str, codes: list[str]) -> str:
    if layout == "same":
        return f"{heading} {' '.join(c for c in codes)}" if " " not in codes[0] else (
            f"{heading} {', '.join(codes)}")
    if layout == "commas":
        return f"{heading} {', '.join(codes)}"
    marks = {"below": "", "numbered": "{n}. ", "bulleted": "- "}[layout]
    return heading + "\n" + "\n".join(marks.format(n=i + 1) + c for i, c in enumerate(codes))


@settings(max_examples=150, deadline=None)
@given(HEADINGS, LAYOUTS, st.sampled_from(["github", "google", "digits", "alnum"]),
       st.integers(1, 10), st.integers(0, 2**32))
def test_every_code_under_its_heading_is_redacted(heading, layout, shape, count, seed):
    rng = random.Random(seed)
    codes = [code(shape, rng) for _ in range(count)]
    text = listed(heading, layout, codes) + "\nStore them somewhere safe.\n"
    out = S.redact(text)
    for c in codes:
        assert c not in out and c.split(" ")[-1] not in out, (text, out)
    assert out.endswith("\nStore them somewhere safe.\n"), out


@settings(max_examples=60, deadline=None)
@given(HEADINGS, st.sampled_from(["see the vault entry \"github-alice\"", "10 remaining",
                                  "generated in 2026", "none yet", "(printed on paper)",
                                  "\nStore them somewhere safe."]))
def test_a_heading_followed_by_words_changes_nothing(heading, rest):
    text = f"{heading} {rest}\n"
    assert S.redact(text) == text


def test_the_law_catches_the_codes_taken_away(monkeypatch):
    from toolpipe.secrets import _several

    text = "Backup codes:\n53071100\n89070982\n"
    assert "53071100" not in SecretPatternSet.default_common().redact(text)
    monkeypatch.setitem(_several.SEVERAL, "codes", lambda buf, start, found, floor: ([], start + 1))
    assert "53071100" in SecretPatternSet.default_common().redact(text)
