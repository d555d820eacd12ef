"""Runners pointed at code from outside the project (the twenty-second sitting's held-out
`classes-fresh123.txt`: 10 of its 22 attacks allowed at its first run): a playbook
anywhere among ansible-playbook's operands, a salt state tree's or mise's folder given by
an option, just's and task's global files, and a package runner's local package (`uvx
--from P`, `pipx run --spec P`, `npx -p P`, `uv run --with P`: installed first, its
build code run, read as `pip install P` or `npm install P`). Found on the way, older: the
files a runner loads first were never read in a single call (`uv run --env-file
/tmp/e pytest` was allowed where `source /tmp/e` asks).

The laws, each shown catching its reading taken away: code from a scratch folder no call
wrote, or from the user's home, is asked about, wherever the runner is told of it; the
same runner on the project's own files or the registry's packages is allowed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide, placed
from toolpipe.layers import _shield_builds
from toolpipe.shell import _grammar, _loads, _runners, _table, _wrappers

SCRATCH = st.sampled_from(["/tmp/x", "/tmp/pkg", "/var/tmp/p", "/dev/shm/t"])
OWN = st.sampled_from(["tools/mytool", "./pkg", "frontend", "ci"])
SHAPES = st.sampled_from([
    "uvx --from {p} tool --help", "uvx --from={p} tool", "pipx run --spec {p} tool",
    "npx -p {p} tool", "npx --package={p} tool", "uv run --with {p} pytest",
    "uv run --env-file {p}/.env pytest", "mise -C {p} run build", "mise run --cd {p} build",
    "salt-call --local --file-root={p} state.apply", "ansible-playbook {p}/site.yml",
    "ansible-playbook -i localhost, -c local {p}/site.yaml", "just -f {p}/justfile build",
])


@settings(max_examples=120, deadline=None)
@given(SHAPES, SCRATCH, OWN)
def test_code_a_runner_is_told_of_in_a_scratch_folder_is_asked_about(shape, scratch, own):
    placed(shape, scratch, own, allowed=True)


@pytest.mark.parametrize("command", [
    "just --global-justfile clean", "just -g deploy", "task --global cleanup",
    "task -g build"])
def test_a_runner_s_global_file_is_the_user_s_and_asked_about(command):
    assert decide(command) in STOPPED, command


@pytest.mark.parametrize("command", [
    "uvx ruff check .", "pipx run black --check .", "npx -p typescript tsc --noEmit",
    "just deploy", "task build", "mise run build", "ansible-playbook site.yml",
    "salt-call --local state.show_sls web", "uv run --env-file .env pytest"])
def test_the_same_runners_on_the_project_are_allowed(command):
    assert decide(command) == "allow", command


@pytest.mark.parametrize(("undo", "command"), [
    (lambda mp: mp.setattr(_runners, "_SOURCES", {}), "uvx --from /tmp/pkg tool"),
    (lambda mp: mp.setattr(_grammar, "peel", lambda *a, **k: (
        _wrappers.peel(*a, **k)._replace(subcommands=()))), "uv run --env-file /tmp/e pytest"),
    (lambda mp: mp.delitem(_loads.PROJECT_OPTIONS, "mise"), "mise -C /tmp/proj run build"),
    (lambda mp: mp.delitem(_table.FILE_RUNNERS, "ansible-playbook"),
     "ansible-playbook -i localhost, -c local /tmp/site.yml"),
    (lambda mp: mp.setattr(_shield_builds, "_HOME_FLAGS", {}), "task --global cleanup"),
])
def test_each_law_catches_its_reading_taken_away(fresh_readings, monkeypatch, undo, command):
    assert decide(command) in STOPPED
    undo(monkeypatch)
    fresh_readings()
    assert decide(command) == "allow"
