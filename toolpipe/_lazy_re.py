"""A regular expression compiled the first time it is used.

The shield's program table and the secret rules hold about 800 patterns, and a process
uses few of them (a rule is tried only where its trigger stands, a row only for its
program): compiling them all took 130 ms of every ``import toolpipe``, in every CLI run
and MCP proxy. After the first call the pattern's own C methods stand on the instance, so
a use costs what a compiled pattern's does.

A pattern that does not compile is an error when first used, made by ``error`` (which
names where it was written); ``compiled()`` compiles at once, for a loader that checks a
file it was given.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

AnyStr = TypeVar("AnyStr", str, bytes)


def _as_is(exc: re.error) -> Exception:
    return exc


class LazyPattern(Generic[AnyStr]):
    def __init__(self, pattern: AnyStr, flags: int = 0,
                 error: Callable[[re.error], Exception] = _as_is) -> None:
        self.pattern: AnyStr = pattern
        self.flags = flags
        self._error = error

    def compiled(self) -> re.Pattern[AnyStr]:
        made: re.Pattern[AnyStr] | None = self.__dict__.get("_made")
        if made is None:
            try:
                made = re.compile(self.pattern, self.flags)
            except re.error as exc:
                raise self._error(exc) from None
            # (instance attributes shadow the methods below: later calls go straight to
            # C; a method bound before comes back here and finds it made)
            self.__dict__.update(_made=made, match=made.match, search=made.search,
                                 fullmatch=made.fullmatch, finditer=made.finditer)
        return made

    def match(self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize
              ) -> re.Match[AnyStr] | None:
        return self.compiled().match(string, pos, endpos)

    def search(self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize
               ) -> re.Match[AnyStr] | None:
        return self.compiled().search(string, pos, endpos)

    def fullmatch(self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize
                  ) -> re.Match[AnyStr] | None:
        return self.compiled().fullmatch(string, pos, endpos)

    def finditer(self, string: AnyStr, pos: int = 0, endpos: int = sys.maxsize
                 ) -> Iterator[re.Match[AnyStr]]:
        return self.compiled().finditer(string, pos, endpos)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LazyPattern):
            return NotImplemented
        return (self.pattern, self.flags) == (other.pattern, other.flags)

    def __hash__(self) -> int:
        return hash((self.pattern, self.flags))

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r})"
