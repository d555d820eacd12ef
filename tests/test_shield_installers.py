"""Code installed or loaded from a scratch folder (the twenty-second sitting's held-out
`classes-fresh124.txt`: 8 of its 22 installers of a package in /tmp allowed at its first
run; `classes-fresh125.txt`, written after a probe of twelve lines found its class open:
17 of its 17 loads by a language's call allowed): an installer's rows name more
installers, and a call that loads code by an absolute path (`runpy.run_path`,
`require`, `load`, `do`, `include`, `dofile`, `source`, `sys.path.insert`, `use lib`,
`install.packages(path)`) is read as the shell's `. FILE`. And an archiver that deletes
what it packs (`tar --remove-files`, `zip -m`, `7z a -sdel`, `rar a -df`) deletes names a
list gives it (`-T FILE`, `-@`, `@FILE`), which are not known (`sequences-fresh55.txt`).

The laws, each shown catching its reading taken away: a package or a file of code in a
scratch folder no call wrote is asked about, the same in the project is not; an
archiver's deletion of listed names is stopped, its packing of them is not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide
from toolpipe.shell import _carried, _code_files, _files, _oneliners, _table
from toolpipe.shell._words import literal

SCRATCH = st.sampled_from(["/tmp/x", "/var/tmp/pkg", "/dev/shm/p"])
OWN = st.sampled_from(["vendor/x", "./pkg", "tools/lib"])
INSTALLS = st.sampled_from([
    "poetry add {p}", "pdm add {p}", "pipenv install {p}", "R CMD INSTALL {p}",
    "luarocks make {p}/x-1.0-1.rockspec", "opam pin add x {p}", "nimble install {p}",
    "helm install web {p}", "helm upgrade --install web {p} -f values.yaml",
    "dotnet tool install -g x --add-source {p}", "pip install -e {p}"])
LOADS = st.sampled_from([
    "python3 -c \"import runpy; runpy.run_path('{p}/m.py')\"",
    "python3 -c \"import importlib.util as u; u.spec_from_file_location('m', '{p}/m.py')\"",
    "python3 -c \"import sys; sys.path.insert(0, '{p}'); import m\"",
    "ruby -e 'load \"{p}/x.rb\"'", "ruby -e 'require_relative \"{p}/x\"'",
    "node -e 'require(\"{p}/x.js\")'", "perl -e 'do \"{p}/x.pl\"'",
    "perl -e 'use lib \"{p}\"; use X;'", "perl -Mlib={p} -e 'use X'",
    "php -r 'require_once \"{p}/boot.php\";'", "lua -e 'dofile(\"{p}/x.lua\")'",
    "Rscript -e 'source(\"{p}/x.R\")'",
    "Rscript -e 'install.packages(\"{p}/x.tar.gz\", repos = NULL)'"])


@settings(max_examples=150, deadline=None)
@given(st.one_of(INSTALLS, LOADS), SCRATCH)
def test_code_installed_or_loaded_from_a_scratch_folder_is_asked_about(shape, scratch):
    assert decide(shape.format(p=scratch)) in STOPPED, shape.format(p=scratch)


@settings(max_examples=100, deadline=None)
@given(INSTALLS, OWN)
def test_the_project_s_own_packages_are_installed_unasked(shape, own):
    assert decide(shape.format(p=own)) == "allow", shape.format(p=own)


@pytest.mark.parametrize("command", [
    "python3 -c \"import json; print(json.load(open('/tmp/report.json')))\"",
    "python3 -c \"print(open('/tmp/log.txt').read())\"",
    "ruby -e 'puts File.read(\"/tmp/notes.txt\")'", "poetry add requests",
    "helm install web ./charts/web", "luarocks install luasocket", "perl -Mstrict -e 1"])
def test_reading_data_or_installing_by_name_is_allowed(command):
    assert decide(command) == "allow", command


@pytest.mark.parametrize(("archiver", "moves"), [
    ("tar -czf out.tgz -T {l}", "tar -czf out.tgz --remove-files -T {l}"),
    ("zip out.zip -@ < {l}", "zip -m out.zip -@ < {l}"),
    ("7z a out.7z @{l}", "7z a -sdel out.7z @{l}"),
    ("rar a out.rar @{l}", "rar a -df out.rar @{l}")])
def test_an_archiver_that_deletes_listed_names_is_stopped(archiver, moves):
    assert decide(archiver.format(l="list.txt")) == "allow"
    assert decide(moves.format(l="list.txt")) in STOPPED


def test_each_law_catches_its_reading_taken_away(fresh_readings, monkeypatch):
    load = "perl -e 'do \"/tmp/x.pl\"'"
    assert decide(load) in STOPPED
    monkeypatch.setattr(_oneliners, "loaded_files", lambda code: [])
    fresh_readings()
    assert decide(load) == "allow"
    install = "luarocks make /tmp/x/x-1.0-1.rockspec"
    assert decide(install) in STOPPED
    monkeypatch.delitem(_table.OUTPUTS, "luarocks")
    fresh_readings()
    assert decide(install) == "allow"
    assert _code_files.loaded_files("require('/tmp/x.js')") == [". '/tmp/x.js'"]
    moves = "tar -czf out.tgz --remove-files -T list.txt"
    assert decide(moves) in STOPPED
    monkeypatch.setattr(_files, "_listed", lambda source: literal("build/a.o"))
    fresh_readings()
    assert decide(moves) == "allow"


def test_an_installer_s_subcommand_is_no_command_line(fresh_readings, monkeypatch):
    """Found on the way: `nimble install ./pkg` was read as coreutils' `install ./pkg`
    among an unknown program's arguments (a write of ./pkg, then its run asked about)."""
    assert decide("nimble install ./pkg") == "allow"
    monkeypatch.setattr(_carried, "installer_words", lambda cmd: 0)
    fresh_readings()
    assert decide("nimble install ./pkg") in STOPPED
