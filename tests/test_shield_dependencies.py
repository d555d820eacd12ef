"""A project's dependency taken from a folder anyone may write (the nineteenth sitting's
held-out `sequences-fresh45.txt`: all 12 of its written-manifest attacks ran, Go's
`replace … => /tmp/lib`, Cargo's `path`, npm's `file:`, a requirements file's `-e
/tmp/lib` among them, where the same folder on the installer's command line was asked).

The law, through the default pipeline with a person approving every question: a manifest
written by one call that takes a dependency from a scratch folder (/tmp, /var/tmp,
/dev/shm), in any of its ecosystems' spellings, makes the build, install or test run by a
later call asked about; the same manifest taking it from the project's own folder runs.
Shown catching each reading taken away."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_shield_flow import play, stopped_then_runs
from toolpipe.layers import _shield_handed
from toolpipe.shell import _setting_values

MANIFESTS = st.sampled_from([
    ("go.mod", "module example.com/app\n\ngo 1.22\n\nreplace example.com/lib => {p}\n",
     "go build ./..."),
    ("go.work", "go 1.22\n\nuse (\n\t.\n\t{p}\n)\n", "go test ./..."),
    ("go.work", "go 1.22\n\nuse {p}\n", "go vet ./..."),
    ("Cargo.toml", '[package]\nname = "app"\n\n[dependencies]\nlib = {{ path = "{p}" }}\n',
     "cargo build"),
    ("Cargo.toml", '[package]\nname = "app"\n\n[patch.crates-io]\nserde = {{ path = "{p}" }}\n',
     "cargo test"),
    ("package.json", '{{"dependencies": {{"lib": "file:{p}"}}}}', "npm install"),
    ("package.json", '{{"dependencies": {{"lib": "link:{p}"}}}}', "pnpm install"),
    ("package.json", '{{"resolutions": {{"lib": "portal:{p}"}}}}', "yarn install"),
    ("pyproject.toml", '[tool.poetry.dependencies]\nlib = {{ path = "{p}", develop = true }}\n',
     "poetry install"),
    ("pyproject.toml", '[tool.uv.sources]\nlib = {{ path = "{p}" }}\n', "uv sync"),
    ("requirements.txt", "requests==2.32.3\n-e {p}\n", "pip install -r requirements.txt"),
    ("requirements.txt", "lib @ file://{p}\n", "pip install -r requirements.txt"),
    ("Gemfile", 'gem "lib", path: "{p}"\n', "bundle install"),
    ("Podfile", "pod 'Lib', :path => '{p}'\n", "pod install"),
    ("composer.json", '{{"repositories": [{{"type": "path", "url": "{p}"}}]}}',
     "composer install"),
    ("mix.exs", 'defp deps, do: [{{:lib, path: "{p}"}}]\n', "mix deps.get"),
    ("pubspec.yaml", "dependencies:\n  lib:\n    path: {p}\n", "dart pub get"),
    ("settings.gradle", "includeBuild('{p}')\n", "./gradlew build"),
    ("CMakeLists.txt", "add_subdirectory({p} lib)\n", "cmake -S . -B build"),
    ("flake.nix", '{{ inputs.lib.url = "path:{p}"; }}', "nix build"),
])
SCRATCH = st.sampled_from(["/tmp", "/var/tmp", "/dev/shm", "/tmp/build"])
OWN = st.sampled_from(["libs", "./vendor", "packages/shared"])


@settings(max_examples=120, deadline=None)
@given(MANIFESTS, SCRATCH, OWN, st.sampled_from(["lib", "x-1.0", "serde"]))
def test_a_dependency_from_a_folder_anyone_may_write_asks(manifest, scratch, own, name):
    path, text, command = manifest
    stopped_then_runs(path, text.format(p=f"{scratch}/{name}"),
                      text.format(p=f"{own}/{name}"), command)


@pytest.mark.parametrize(("module", "name", "broken", "manifest"), [
    (_setting_values, "MANIFESTS", frozenset(),
     ("go.mod", "module a\n\nreplace b => /tmp/b\n", "go build ./...")),
    (_shield_handed, "_REQUIREMENT_PATH", re.compile(r"(?!)"),
     ("requirements.txt", "-e /tmp/lib\n", "pip install -r requirements.txt")),
])
def test_the_law_catches_the_reading_taken_away(fresh_readings, monkeypatch, module, name,
                                                 broken, manifest):
    path, text, command = manifest
    calls = [("Write", {"path": path, "content": text}), ("Bash", {"command": command})]
    assert play(calls)[-1][0] == "asked"
    monkeypatch.setattr(module, name, broken)
    fresh_readings()
    assert play(calls)[-1] == ("ran", False)
