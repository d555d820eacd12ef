"""Tables drawn with box characters (the twenty-second sitting's held-out
`classes-fresh102.txt`: psql's unicode style, ` usename │ passwd` over `───┼───`, leaked,
3 of its 30 secret lines; a box's header naming a credential before another bar, `│ user
│ password │ role │`, had no trigger at all): a box's bars are a table's bars, its rules
rules between rows; and SSM's parameter printed by `--output text`
(`classes-fresh103.txt`: the value after `SecureString`, 3 of 30 leaked).

The laws, each shown catching its reading taken away: whatever the box's style, the cells
under a credential's header are redacted and no other cell changes."""

from __future__ import annotations

import importlib

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import drawn
from toolpipe.secrets import SecretPatternSet

S = SecretPatternSet.default_common()
# (bar, the rule under the header, the top and bottom borders or none, outer bars)
STYLES = st.sampled_from([
    ("│", "─┼─", None, False), ("│", "─┼─", ("┌─┬─┐", "└─┴─┘"), True),
    ("║", "═╬═", ("╔═╦═╗", "╚═╩═╝"), True), ("│", "━╇━", ("┏━┳━┓", "└─┴─┘"), True),
    ("|", "-+-", ("+-+-+", "+-+-+"), True), ("|", "-+-", None, False)])
CREDENTIAL = st.sampled_from(["password", "passwd", "api_token", "secret", "DB_PASSWORD",
                              # (in other languages: classes-fresh109.txt)
                              "Passwort", "contraseña", "mot de passe", "пароль"])
OTHER = st.sampled_from(["user", "host", "role", "usename", "created"])


def drawn_table(style: tuple, names: list[str], rows: list[list[str]]) -> str:
    bar, rule, borders, outer = style
    widths = [max(len(n), *(len(r[i]) for r in rows)) + 2 for i, n in enumerate(names)]

    def line(cells: list[str], sep: str, fill: str = " ") -> str:
        inner = sep.join(c.center(w, fill) if fill != " " else f" {c:<{w - 2}} "
                         for c, w in zip(cells, widths, strict=True))
        return f"{sep}{inner}{sep}" if outer else inner

    def ruled(shape: str) -> str:
        left, fill, mid, right = (shape[0], shape[1], shape[2], shape[4]) if len(
            shape) == 5 else ("", shape[0], shape[1], "")
        inner = mid.join(fill * w for w in widths)
        return f"{left}{inner}{right}" if outer and left else inner

    out = [ruled(borders[0])] if borders else []
    out += [line(names, bar), ruled(rule if not outer or not borders else (
        borders[0][0].translate(str.maketrans("┌╔┏+", "├╠┡+")) + rule[0] + rule[1] + rule[1]
        + borders[0][4].translate(str.maketrans("┐╗┓+", "┤╣┩+"))))]
    out += [line(r, bar) for r in rows]
    if borders:
        out.append(ruled(borders[1]))
    return "\n".join(out)


@settings(max_examples=120, deadline=None)
@given(STYLES, CREDENTIAL, st.lists(OTHER, min_size=1, max_size=3, unique=True),
       st.integers(0, 2), st.integers(0, 2**32))
def test_a_box_s_credential_column_is_redacted_and_no_other_cell(style, credential, others,
                                                                 at, seed):
    names = list(others)
    names.insert(min(at, len(names)), credential)
    # (a value ending in a digit: one ending in `PW` is read as a name, `userPW`, by the
    # key-value rule, a reading of its own, not a table's)
    rows = [[drawn(seed + k, 14) + "9" if n == credential else f"v{k}{n[:3]}" for n in names]
            for k in range(2)]
    text = drawn_table(style, names, rows)
    out = S.redact(text)
    for row in rows:
        for name, cell in zip(names, row, strict=True):
            assert (cell not in out) == (name == credential), (text, out)


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["", "3\t"]), st.integers(0, 2**32))
def test_an_ssm_parameter_printed_as_text_has_its_value_redacted(version, seed):
    value = drawn(seed, 16)
    text = f"PARAMETER\t/prod/db/conn\tSecureString\t{version}{value}"
    assert value not in S.redact(text)
    plain = f"PARAMETER\t/prod/db/host\tString\t{version}db.internal"
    assert S.redact(plain) == plain


def test_the_laws_catch_the_readings_taken_away(monkeypatch):
    cells = importlib.import_module("toolpipe.secrets._cells")
    text = " user  │ password\n───────┼──────────────────\n admin │ 7QxAbcdefgh0123456"
    assert "7QxAbcdefgh0" not in SecretPatternSet().redact(text)
    monkeypatch.setattr(cells, "BOX_BARS", ())
    monkeypatch.setattr(importlib.import_module("toolpipe.secrets._tabular"), "DELIMITERS",
                        cells.DELIMITERS[:4])
    assert "7QxAbcdefgh0" in SecretPatternSet().redact(text)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["passwd", "password", "Passwort"]), st.integers(0, 2**32))
def test_an_expanded_record_s_credential_row_is_redacted(name, seed):
    """psql's expanded display in the unicode style (`─[ RECORD 1 ]`, then `name │ value`
    rows: classes-fresh109.txt) had its password leak: a row, not a boxed one."""
    value = drawn(seed, 14) + "9"
    text = f"─[ RECORD 1 ]─────\nusename │ app\n{name:<7} │ {value}"
    out = S.redact(text)
    assert value not in out and "usename │ app" in out, out
