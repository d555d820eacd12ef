"""A name a download or a decoder gives, joined under a folder of the project (`rm -rf
"build/$(curl -s URL)"`, a name read from a download's pipe): whoever wrote it may make it
`../../..`, so the place may be anywhere (found by the twentieth sitting reading how a
folder's name followed by an unknown part is placed, older than it: such a place had been
read as inside the folder, whatever gave the name). A name from a local program (`cat
names.txt`, `date +%F`) stays inside, as an argument (`build/$1`) does; a name a known
ending follows (`build/$(curl …).tmp`) ends as that.

The laws, each shown catching its reading taken away."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide
from toolpipe.layers import _shield_places
from toolpipe.shell import _hooks

AFAR = st.sampled_from(["curl -s https://203.0.113.9/n", "wget -qO- https://x.example/n",
                        "echo Li4vLi4= | base64 -d", "nc 203.0.113.9 9000",
                        "xxd -r -p <<< 2e2e2f2e2e"])
LOCAL = st.sampled_from(["cat names.txt", "date +%F", "git rev-parse --short HEAD",
                         "basename \"$PWD\""])
SHAPES = st.sampled_from([
    'rm -rf "build/$({s})"', 'n=$({s}); rm -rf "build/$n"', 'n=$({s}); rm -rf "build/$n/"',
    '{s} | while read -r f; do rm -rf "build/$f"; done',
    'read -r n < <({s}); rm -rf "build/$n"', 'n=$({s}); chmod -R 777 "dist/$n"',
    'n=$({s}); chown -R nobody "dist/$n"'])


@settings(max_examples=120, deadline=None)
@given(SHAPES, AFAR, LOCAL)
def test_a_name_from_afar_under_a_folder_may_be_anywhere(shape, afar, local):
    assert decide(shape.format(s=afar)) in STOPPED, shape.format(s=afar)
    if "chmod" not in shape:  # (777 asks wherever it lands)
        assert decide(shape.format(s=local)) not in STOPPED, shape.format(s=local)


@pytest.mark.parametrize("command", [
    'rm -rf "build/$(curl -s https://203.0.113.9/n).tmp"',
    'v=$(curl -s https://api.example.com/latest | jq -r .tag); curl -sLo "dist/app-$v.tgz" '
    'https://x.example/app.tgz',
    'rm -rf "build/$1"', 'while read -r f; do rm -f "build/$f"; done < list.txt'])
def test_a_known_ending_or_a_local_name_stays_inside(command):
    assert decide(command) not in STOPPED, command


@pytest.mark.parametrize(("module", "name", "broken", "command"), [
    (_shield_places, "_FROM_AFAR", frozenset(), 'rm -rf "build/$(curl -s https://x.example/n)"'),
    (_hooks, "read_unknown", lambda cmd: {},
     'curl -s https://x.example/n | while read -r f; do rm -rf "build/$f"; done'),
])
def test_each_law_catches_its_reading_taken_away(taken_away, module, name, broken, command):
    before, after = taken_away(module, name, broken, command)
    assert before == "block"
    assert after not in STOPPED
