"""What a command substitution prints, when the shell wing reads it (toolpipe/shell/
_printed.py): ``dirname`` and ``basename`` of a known path, held against coreutils' own
answer for drawn paths. The law caught this module's first form, which normalised the path
before taking its folder (``dirname build/.`` is ``build`` to coreutils, ``.`` to that
form: the whole workspace)."""

from __future__ import annotations

import subprocess

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpipe.shell import Command
from toolpipe.shell._printed import _path_part
from toolpipe.shell._words import literal

PARTS = st.lists(st.sampled_from(["build", "x", "a.b", ".cache", "..", ".", "~", "src"]),
                 min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(PARTS, st.booleans(), st.booleans(), st.sampled_from(["dirname", "basename"]))
def test_a_path_part_is_what_coreutils_prints_or_not_known(parts, absolute, slash, program):
    """The model's answer, when it gives one, is what the real program prints."""
    path = ("/" if absolute else "") + "/".join(parts) + ("/" if slash else "")
    ours = _path_part(Command((literal(program), literal(path))))
    if ours is None:
        return
    real = subprocess.run([program, path], capture_output=True, text=True, check=True)
    assert ours == real.stdout.rstrip("\n"), (path, ours, real.stdout)
