"""A line percent-encoded whole (a URL's query, a form's body, a logged redirect), read as
a URL's reader reads it: its escapes as the UTF-8 they spell, a form's `+` as a blank, a
query's own `?` and `&` ending its parts, what each parameter holds as a line of its own
(the reading ``redact`` gives every line with a percent escape; ``_escapes`` holds the
machinery the readings share)."""

from __future__ import annotations

import itertools
import re

from toolpipe.secrets._escapes import joined, marks, read_again, read_escapes
from toolpipe.secrets._re2 import compile_text

# A line percent-encoded whole (a URL's query holding a command, a form's body, a logged
# redirect): its blanks, quotes and separators encoded (`db_password%20%3D%20%22pw%22`,
# `Bearer%20token`), so that a key's separator, a value's quotes and a word's boundary are
# not there as written. Every line with an escape is read decoded, whatever its words
# (found by putting every corpus line in a query string, `q=` and `urllib.parse.quote`:
# 1,377 of 2,727 leaked; 551 when only the lines with a credential's word were read, the
# rest a URL's user-info, a `.pgpass` row, a token glued to `%20`), and the entropy guess
# leaves a run glued to an escape to that reading (`%2B7z0M…` read as written is a
# public key's middle; 17% of the look-alikes, encoded so, changed): one re2 pattern, a
# match a line; past MARKS_BUDGET of them, every line with an escape is.
# (or a query's parameter whose value a form's `+` splits: `?q=rootpw+…`)
_ANY_ESCAPE = compile_text(r"(?:%[0-9a-fA-F]{2}|[?&][\w.\-]+=[^\s&+]*\+)[^\n]*")
_PERCENT = re.compile(r"%[0-9a-fA-F]{2}")


def percent_encoded_lines(text: str) -> list[int]:
    """Where each line with a percent escape starts (see above)."""
    if "%" not in text and "+" not in text:
        return []
    return marks(_ANY_ESCAPE, text, _PERCENT)


# (not where a Windows variable is named, `%DB_PASSWORD%`: its `%DB` is no escape; a name
# in one case of four characters or more, so that `p%D0%B0ssword%3A`'s escapes, an escape
# in capitals then small letters, stay escapes)
_ESCAPE = r"%(?![A-Z_][A-Z0-9_]{3,}%|[a-z_][a-z0-9_]{3,}%)[0-9a-fA-F]{2}"
_PERCENT_ESCAPE = re.compile(rf"(?:{_ESCAPE})+")
_ENCODED_TWICE = re.compile(r"%25[0-9a-fA-F]{2}")
# (a form's encoding, `quote_plus`: a blank is `+`, never `%20`)
_PERCENT_OR_PLUS = re.compile(rf"(?:{_ESCAPE})+|\+")
# (a parameter's value with an escape or a form's blank in it: `q=…`, `&cmd=…`)
_HELD_BY_PARAMETER = re.compile(r"=([^&=\s]*[%+][^&\s]*)")


def _percent(m: re.Match[str]) -> str:
    """A run of escapes read as the UTF-8 bytes they spell (`%E5%AF%86%E7%A0%81`: 密码),
    a `+` as a blank."""
    if m.group(0) == "+":
        return " "
    return bytes.fromhex(m.group(0).replace("%", "")).decode("utf-8", "replace")


def percent_unescaped_line(line: str, limit: int) -> tuple[str, list[int], int] | None:
    """The line with its percent escapes read, and then what each parameter with an
    escape holds (after its `=`, up to the next `&`), read alone as a line of its own
    (`q=rootpw%20…`: what `q` holds starts a line); where each character came from (each
    break: where its piece ends, ``joined``), and the characters the escapes took (see
    ``read_escapes``); None past ``limit``."""
    # (a form's `+` only where a form is: a parameter's `=`; `password%3D7Qx+0…`, a value
    # with a plus in it and its separator encoded, keeps its plus: hypothesis found it)
    form = "+" in line and "%20" not in line and "=" in line
    whole = read_escapes(line, limit, _PERCENT_OR_PLUS if form else _PERCENT_ESCAPE, _percent)
    # (encoded twice, a redirect's URL in a query: `%253A` is `%3A`, read again)
    if whole is not None and _ENCODED_TWICE.search(line):
        whole = read_again(whole, read_escapes(whole[0], limit - whole[2], _PERCENT_ESCAPE,
                                               _percent))
    if whole is None:
        return None
    plain, origin, taken = whole
    if "&" in line or "?" in line:  # (a query's own `?` and `&` end a part: `password:
        # null&page=2` is none)
        plain = "".join("\n" if c in "&?" and line[at] == c else c
                        for c, at in zip(plain, origin, strict=True))
    pieces = [(plain, origin, len(line))]
    at = {place: k for k, place in enumerate(origin)}  # (where each place is read)
    for m in itertools.islice(_HELD_BY_PARAMETER.finditer(line), 16):
        lo, hi = at.get(m.start(1), len(plain)), at.get(m.end(1), len(plain))
        pieces.append((plain[lo:hi], origin[lo:hi], m.end(1)))
    return (*joined(pieces), taken)
