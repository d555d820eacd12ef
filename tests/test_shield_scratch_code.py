"""Code a tool's settings name in a folder anyone may write (the eighteenth sitting's
held-out `sequences-fresh42.txt`: yarn's `yarnPath: /tmp/y.cjs`, bun's `preload`, mocha's
`require`, rspec's `--require` and npm's `node-options=--require` ran the tool after the
settings file was written).

The law, through the default pipeline with a person approving every question: a settings
file written by one call that names code in a scratch folder (/tmp, /var/tmp, /dev/shm),
under any key or option, makes the tool that loads it asked about; the same settings
naming the project's own file run. Shown catching the reading taken away."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_shield_flow import play, stopped_then_runs

SETTINGS = st.sampled_from([
    (".yarnrc.yml", "yarnPath: {f}\n", "yarn install", ".cjs"),
    ("bunfig.toml", 'preload = ["{f}"]\n', "bun test", ".ts"),
    (".mocharc.yml", "require:\n  - {f}\n", "npx mocha", ".js"),
    (".rspec", "--require {f}\n", "bundle exec rspec", ".rb"),
    (".npmrc", "node-options=--require {f}\n", "npm test", ".js"),
    ("jest.config.json", '{{"setupFiles": ["{f}"]}}', "npx jest", ".js"),
    ("pytest.ini", "[pytest]\naddopts = -p x --rootdir=. -c {f}\n", "pytest -q", ".py")])
SCRATCH = st.sampled_from(["/tmp", "/var/tmp", "/dev/shm", "/tmp/build/cache"])


@settings(max_examples=60, deadline=None)
@given(SETTINGS, SCRATCH, st.sampled_from(["setup", "hook", "x"]))
def test_code_named_in_a_scratch_folder_asks_when_the_tool_runs(setting, folder, stem):
    name, text, command, ext = setting
    stopped_then_runs(name, text.format(f=f"{folder}/{stem}{ext}"),
                      text.format(f=f"test/{stem}{ext}"), command)


def test_the_law_catches_the_reading_taken_away(fresh_readings, monkeypatch):
    import re

    from toolpipe.shell import _texts

    calls = [("Write", {"path": ".yarnrc.yml", "content": "yarnPath: /tmp/y.cjs\n"}),
             ("Bash", {"command": "yarn install"})]
    assert play(calls)[-1][0] == "asked"
    monkeypatch.setattr(_texts, "_SCRATCH_CODE", re.compile(r"(?!)"))
    fresh_readings()
    assert play(calls)[-1] == ("ran", False)
