"""Configuration-management tools run on this machine, their task on the command line
(the twenty-first sitting's held-out `classes-fresh118.txt`: 4 of its 13 attacks allowed
at its first run): ansible's ad hoc modules, puppet apply -e, chef-apply -e, pyinfra
@local, read for the files their resources remove or write and the commands they run.
Found on the way: the words before a helper's program that are assignments
(`ansible -m copy -a 'src=files/a dest=build/a'`) had the first read as a program named
by its path, asked about.

The laws, each shown catching its reading taken away: a resource that removes or writes
a place outside the workspace is stopped, one inside is not; a command a resource runs
is read as a command line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide, placed
from toolpipe.shell import _effects, _helpers, _provisioners

OUTSIDE = st.sampled_from(["/home/dev", "/etc/motd", "/root/.ssh"])
INSIDE = st.sampled_from(["build", "dist/app.conf", "out/tmp"])
SHAPES = st.sampled_from([
    'ansible localhost -m file -a "path={p} state=absent"',
    'ansible localhost -c local -m ansible.builtin.copy -a "content=hi dest={p}"',
    "ansible localhost -m lineinfile -a \"path={p} line='x=1'\"",
    "ansible localhost -m template -a 'src=t.j2 dest={p}'",
    "puppet apply -e \"file {{ '{p}': ensure => absent, force => true }}\"",
    "puppet apply -e \"file {{ '{p}': ensure => file, content => 'hi' }}\"",
    "chef-apply -e \"directory '{p}' do recursive true; action :delete end\"",
    "chef-apply -e \"file '{p}' do content 'hi' end\"",
    "pyinfra @local files.directory path={p} present=False",
    "pyinfra @local files.line path={p} line='x=1'",
])
CODE = st.sampled_from([
    "puppet apply -e \"exec {{ 'x': command => '/bin/rm -rf {p}' }}\"",
    "chef-apply -e \"execute 'rm -rf {p}'\"",
    "chef-apply -e \"bash 'x' do code 'rm -rf {p}' end\"",
    "pyinfra @local server.shell commands=\"rm -rf {p}\"",
    "ansible localhost -m shell -a 'rm -rf {p}'",
])


@settings(max_examples=150, deadline=None)
@given(st.one_of(SHAPES, CODE), OUTSIDE, INSIDE)
def test_a_resource_s_place_or_command_is_judged_as_its_own(shape, outside, inside):
    placed(shape, outside, inside)


@pytest.mark.parametrize("command", [
    "ansible localhost -m ping", "ansible localhost -m setup", "puppet apply site.pp",
    "chef-apply -e \"log 'hello'\"", "puppet apply -e \"notify { 'hello': }\"",
    "ansible localhost -m copy -a 'src=files/app.conf dest=build/app.conf'"])
def test_a_task_that_touches_no_place_is_allowed(command):
    assert decide(command) == "allow", command


@pytest.mark.parametrize(("undo", "command"), [
    (lambda mp: mp.delitem(_effects._HANDLERS, "puppet"),
     "puppet apply -e \"file { '/home/dev/.ssh': ensure => absent }\""),
    (lambda mp: mp.setattr(_provisioners, "_ANSIBLE_WRITES", frozenset()),
     "ansible localhost -m copy -a \"content=hi dest=/etc/motd\""),
    (lambda mp: mp.delitem(_effects._HANDLERS, "pyinfra"),
     "pyinfra @local files.directory path=/home/dev present=False"),
])
def test_each_law_catches_its_reading_taken_away(fresh_readings, monkeypatch, undo, command):
    assert decide(command) in STOPPED
    undo(monkeypatch)
    fresh_readings()
    assert decide(command) == "allow"


def test_the_assignments_law_catches_its_reading_taken_away(fresh_readings, monkeypatch):
    command = "ansible localhost -m copy -a 'src=files/app.conf dest=build/app.conf'"
    assert decide(command) == "allow"
    monkeypatch.setattr(_helpers, "_ASSIGNMENT", __import__("re").compile(r"(?!)"))
    fresh_readings()
    assert decide(command) in STOPPED
