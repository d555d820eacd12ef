"""Parts several rows of the program table share (``[patterns]`` in programs.toml): a
regular expression written once, and ``<<NAME>>`` in a row's ``args`` standing for it
(the bus rows' method that does not only read)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from toolpipe.errors import ConfigError

_NAMED_PART = re.compile(r"<<(\w+)>>")


def shared_parts(parts: object, table: str) -> dict[str, str]:
    """The table's ``[patterns]``, checked: names given regular expressions."""
    if not isinstance(parts, dict) or not all(isinstance(v, str) for v in parts.values()):
        raise ConfigError(f"{table}: [patterns]: expected names given regular expressions")
    return parts


def with_parts(text: object, parts: Mapping[str, str], where: str) -> object:
    """A row's regular expression with each ``<<NAME>>`` replaced by the part NAME
    (``where``: the row, as an error names it)."""
    if not isinstance(text, str) or "<<" not in text:
        return text
    unknown = [m.group(1) for m in _NAMED_PART.finditer(text) if m.group(1) not in parts]
    if unknown:
        raise ConfigError(f"{where}: no [patterns] {unknown[0]}")
    return _NAMED_PART.sub(lambda m: parts[m.group(1)], text)
