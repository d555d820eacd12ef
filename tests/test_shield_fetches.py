"""What a command fetches from another machine, a store, a container or a release is
downloaded (the fifteenth sitting's held-out sequences, `sequences-fresh32.txt`: 6 of
its downloads by such programs then run had run), and a copy into a folder writes the
source's name under it, not the folder (`cp /tmp/x .` and `scp host:x .` had been asked
about as writing the whole workspace). The laws, through the default pipeline with a
person approving every question: a file so fetched, then run, is blocked at the run
wherever it lands (a file named, `.`, a folder); one fetched and read runs with no
question; a copy into `.` or `dir/` is no write of the folder, and one into a place
where code runs is still stopped. Each is shown catching the reading taken away."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_shield_flow import play
from toolpipe.layers.shield import UnixShield

SHIELD = UnixShield()
FETCHES = st.sampled_from([
    "aws s3 cp s3://some-bucket/{n} {d}", "gsutil cp gs://some-bucket/{n} {d}",
    "gcloud storage cp gs://some-bucket/{n} {d}", "scp user@203.0.113.9:{n} {d}",
    "rsync -a user@203.0.113.9:{n} {d}", "rclone copy remote:bucket/{n} {d}",
    "docker cp stranger:/tmp/{n} {d}", "kubectl cp ns/pod:/tmp/{n} {d}",
    "s3cmd get s3://some-bucket/{n} {d}"])
NAMES = st.sampled_from(["x.sh", "install.sh", "setup.sh", "run"])
PLACES = st.sampled_from([".", "./", "tools/", "{n}", "tools/{n}"])


def landed(place: str, name: str) -> str:
    return place.format(n=name) if "{n}" in place else f"{place.rstrip('/')}/{name}"


@settings(max_examples=40, deadline=None)
@given(FETCHES, NAMES, PLACES, st.sampled_from(["bash {f}", "sh ./{f}", "chmod +x {f} && "
                                                 "./{f}"]))
def test_a_fetched_file_run_later_is_blocked(fetch, name, place, run):
    path = landed(place, name).removeprefix("./")
    calls = [("Bash", {"command": fetch.format(n=name, d=place.format(n=name))}),
             ("Bash", {"command": run.format(f=path)})]
    *earlier, last = play(calls)
    assert last[0] == "blocked" and all(o != "blocked" for o, _ in earlier), (calls, last)


@settings(max_examples=25, deadline=None)
@given(FETCHES, st.sampled_from(["data.csv", "report.txt"]))
def test_a_fetched_file_read_later_runs_with_no_question(fetch, name):
    calls = [("Bash", {"command": fetch.format(n=name, d=".")}),
             ("Bash", {"command": f"wc -l {name}"})]
    assert play(calls) == [("ran", False), ("ran", False)], calls


@pytest.mark.parametrize("command", [
    "cp /tmp/x .", "cp -r /tmp/dir ./", "cp ../other/notes.txt .", "cp -t . /tmp/a /tmp/b",
    "scp user@203.0.113.9:report.txt .", "rclone copy remote:bucket/data.csv ."])
def test_a_copy_into_a_folder_writes_under_it(command):
    found = SHIELD.evaluate("Bash", {"command": command}, ())
    assert found.action == "allow", (command, found.reason)


@pytest.mark.parametrize("command", [
    "cp evil.sh ~/.config/autostart/", "cp -r .bashrc ~/", "cp -t ~/.config/autostart x",
    "scp user@203.0.113.9:x.desktop ~/.config/autostart/", "rsync -a /tmp/dir/ ."])
def test_one_into_a_place_where_code_runs_is_still_stopped(command):
    found = SHIELD.evaluate("Bash", {"command": command}, ())
    assert found.action in ("ask", "block"), (command, found.reason)


@pytest.mark.parametrize("broken", ["fetches", "folders"])
def test_the_laws_catch_a_reading_taken_away(fresh_readings, monkeypatch, broken):
    from toolpipe.shell import _effects, _fetches, _files

    if broken == "fetches":  # the stores' and containers' copies read as before
        for name in ("aws", "gsutil", "docker", "kubectl"):
            monkeypatch.delitem(_effects._PARTLY, name)
        calls = [("Bash", {"command": "aws s3 cp s3://some-bucket/x.sh x.sh"}),
                 ("Bash", {"command": "bash x.sh"})]
        assert play(calls)[-1][0] != "blocked"
    else:  # a copy's folder read as the place written
        monkeypatch.setattr(_files, "landed", lambda dest, source: dest)
        monkeypatch.setattr(_fetches, "landed", lambda dest, source: dest)
        found = UnixShield().evaluate("Bash", {"command": "cp /tmp/x ."}, ())
        assert found.action != "allow", found
