"""Files a database client writes by its own commands, and settings files written by
their editors (the twenty-second sitting's held-out `classes-fresh146.txt`: 5 of its 12
attacks allowed at its first run: sqlite3's `.output ~/.bashrc` and `.once`, psql's `\\o`,
`crudini --set ~/.gitconfig …`, augtool's set under /files/etc).

The law, shown catching its reading taken away: each such write decides as a redirection
to the same file does (a start-up file in the home stopped, a file of the project not)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide, placed
from toolpipe.shell import _effects

WRITERS = st.sampled_from([
    "sqlite3 app.db \".output {p}\" \"select 1;\"", "sqlite3 app.db \".once {p}\" \"select 1;\"",
    "duckdb app.duckdb -c \".output {p}\"", "psql -c \"\\o {p}\" -c \"select 1\"",
    "psql -c \"\\copy (select 1) to '{p}'\"", "mysql -e \"tee {p}; select 1\"",
    "crudini --set {p} core x 1",
    # (on the client's input too: classes-fresh150.txt)
    "psql <<< '\\o {p}'", "echo '.output {p}' | sqlite3 app.db"])


@settings(max_examples=80, deadline=None)
@given(WRITERS, st.sampled_from(["~/.bashrc", "/home/dev/.profile", "/etc/cron.d/job"]),
       st.sampled_from(["build/out.txt", "reports/q.csv"]))
def test_a_client_s_own_write_decides_as_a_redirection_there(shape, start, own):
    assert decide(f"echo x > {start}") in STOPPED
    placed(shape, start, own)


def test_augeas_changes_under_files_write_that_file():
    assert decide("augtool set /files/etc/ssh/sshd_config/PermitRootLogin yes") in STOPPED
    assert decide("augtool print /files/etc/ssh/sshd_config/PermitRootLogin") == "allow"


def test_the_law_catches_its_reading_taken_away(taken_away):
    without = {k: v for k, v in _effects._PARTLY.items() if k != "sqlite3"}
    before, after = taken_away(_effects, "_PARTLY", without,
                               "sqlite3 app.db \".output ~/.bashrc\" \"select 1;\"")
    assert before in STOPPED and after == "allow"


def test_the_mongo_shells_code_is_read_as_javascript():
    """classes-fresh150.txt: `mongosh --eval 'runProgram("sh", "-c", "rm -rf ~")'` was
    allowed (mongosh's arguments were not read): its --eval is JavaScript, read as node's
    one-liners are, runProgram a spawn."""
    assert decide("mongosh --quiet --eval 'runProgram(\"sh\", \"-c\", \"rm -rf ~\")'") in STOPPED
    assert decide("mongosh --quiet --eval 'db.stats()'") == "allow"
