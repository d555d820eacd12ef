"""A line that HTML's tags hold (a page's `<pre>`, a table's cells, a list's items, a
rendered log), read as a browser lays it out: each tag a break, the text between two tags
a line of its own with its entities read, so that what a line's start anchors is found
there (`<pre>memgraph-cli -u mg -p …</pre>`: a command's credential flag; `<td>"stats"
"…"</td>`: a user list's row), a form no credential's word announces.

Putting every corpus line in a `<pre>` leaked 127 of 2,727 after the entity reading (which
reads only the lines where a credential's word and an entity meet): most of them forms
with no word, or a word and no entity. Every line where a tag of HTML's text (not an
XML element: its rules read it as written) stands beside text is read so (the thirteenth
sitting), in a text's first REACH characters; one re2 pattern, a match a line;
past MARKS_BUDGET of them, every line with a tag is."""

from __future__ import annotations

import re

from toolpipe.secrets._escapes import _ENTITY, REACH, _entity, joined, marks, read_escapes
from toolpipe.secrets._re2 import compile_text

# a tag (opening, closing or empty; its attributes on its line), and one of HTML's elements
# that hold text a reader sees as lines or cells
_ATTRIBUTES = r"(?:\s[^<>\n]{0,256})?/?>"
_TAG = r"</?[A-Za-z][\w:.-]{0,31}" + _ATTRIBUTES
_TEXT = (r"</?(?i:pre|code|samp|kbd|tt|td|th|li|dd|dt|p|div|span|blockquote|textarea|"
         r"output|var|b|i|em|strong|mark|small|h[1-6]|label|summary|figcaption|caption|"
         r"option|title|br|hr)" + _ATTRIBUTES)
# a line where one stands with text beside it, either side
_TAGGED = compile_text(rf"[^<>\s][^\n]*?{_TEXT}|{_TEXT}[^\n]*?[^<>\s]")
_A_TAG = re.compile(_TAG)


def tagged_lines(text: str) -> list[int]:
    """Where each line with a tag of HTML's text and text beside it is, in the text's
    first REACH characters (see above)."""
    if "<" not in text:
        return []
    return marks(_TAGGED, text[:REACH], _A_TAG)


def untagged_line(line: str, limit: int) -> tuple[str, list[int], int] | None:
    """The text between the line's tags, each stretch a line of its own with its entities
    read; where each character came from (each break: where its stretch ends, ``joined``)
    and the characters its entities took (its tags are the layout, not escapes: a page's
    many tags cost its reading no budget); None past ``limit`` entities."""
    pieces: list[tuple[str, list[int], int]] = []
    at = taken = 0
    reach = min(len(line), REACH)  # (a line of a whole page: its start, as above)
    for start, end in [*((m.start(), m.end()) for m in _A_TAG.finditer(line, 0, reach)),
                       (reach, reach)]:
        stretch = line[at:start]
        if stretch.strip():
            read = read_escapes(stretch, limit, _ENTITY, _entity)
            if read is None:
                return None
            pieces.append((read[0], [at + k for k in read[1]], start))
            taken += read[2]
            limit -= read[2]
        at = end
    return (*joined(pieces), taken)  # (no text between its tags: nothing to read)
