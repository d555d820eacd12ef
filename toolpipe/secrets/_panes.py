"""A debugger's variables pane, as JetBrains' IDEs copy it (``password = {str} 'PW'``,
``self.token = {str} '…'``, ``config = {dict: 3} {…}``): the value's type in braces
between the name's ``=`` and the value. Each line with such a type is read again without
it (``password = 'PW'``), so that a credential's name judges its value as it would
written plain, and what is found there is redacted where it stands."""

from __future__ import annotations

import re

from toolpipe.secrets._escapes import marks, read_escapes
from toolpipe.secrets._re2 import compile_text

# the type after a name's `=`: a Python type's name, with a count for a container
_TYPE = r"\{[A-Za-z_][\w.]{0,63}(?:: \d{1,9})?\} "
_TYPED = compile_text(r"[\w.\]\)'\"]+ = " + _TYPE)
_TYPE_AFTER = re.compile(r"(?<= = )" + _TYPE)


def pane_lines(text: str) -> list[int]:
    """Where each line of a variables pane with a value's type is (one mark a line)."""
    if " = {" not in text:
        return []
    return marks(_TYPED, text, _TYPE_AFTER)


def pane_line(line: str, limit: int) -> tuple[str, list[int], int] | None:
    """The line with each value's type left out (see ``read_escapes``)."""
    return read_escapes(line, limit, _TYPE_AFTER, lambda m: "")
