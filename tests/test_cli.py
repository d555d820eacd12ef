"""The toolpipe command: the bundled session on each interpreter, the JSON output, and
pipeline files good and bad."""

import io
import json
import pathlib
import subprocess
import sys

import pytest

from toolpipe import demo
from toolpipe.cli import demo_pipeline_text, head, main
from toolpipe.secrets import SecretPatternSet


def run_cli(*argv):
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def rows_by_id(document):
    return {c["call_id"]: c for c in document["calls"]}


def test_the_bundled_session_shows_every_layer_at_work(capsys):
    code, out = run_cli("run", "--interpreter", "simulated", "--json")
    assert code == 0
    document = json.loads(out)
    assert document["stop_reason"] == "done" and document["interpreter"] == "simulated"
    assert document["pipeline"][0] == "permission" and document["pipeline"][-1] == "tool_call"
    calls = rows_by_id(document)
    assert len(calls) == 14
    assert calls["t2-readme"]["decision"] == "cache hit"
    assert calls["t2-readme"]["output"].endswith("\n[cached]")
    assert calls["t2-typo"]["decision"] == "unknown tool"
    assert calls["t2-typo"]["output"].endswith("Did you mean 'Read'?")
    assert calls["t3-curl"]["decision"] == "blocked"
    assert calls["t7-rm"]["decision"] == "blocked"
    env = calls["t4-env"]
    assert "[REDACTED:github_pat]" in env["output"] and "ghp_" not in env["output"]
    assert env["layers"] == [{"layer": "redaction", "how": "changed the result"}]
    fetch = calls["t5-fetch"]
    assert fetch["decision"] == "ok (retried)" and fetch["layers"][0]["layer"] == "timeout"
    assert "[verify] passed" in calls["t6-edit"]["output"]
    assert calls["t7-read"]["output"] == "def count(items):\n    return len(items or [])\n"
    assert calls["t7-test"]["output"] == "tests passed"
    # progress went to stderr, one line per turn
    assert capsys.readouterr().err.count("turn ") == 7


def test_the_table_is_readable():
    code, out = run_cli("run", "--interpreter", "simulated")
    assert code == 0
    assert "pipeline (the default pipeline): permission → output_limit" in out
    assert "turn 1: 4 call(s) in 1 wave(s)" in out
    lines = out.splitlines()
    hit = next(line for line in lines if "cache hit" in line)
    assert hit.split()[:3] == ["Read", "cache", "hit"] and "memoize" in hit
    assert "stopped: done" in out


@pytest.mark.process
def test_a_pipeline_file_on_asyncio(tmp_path):
    path = tmp_path / "fast.toml"
    path.write_text(demo_pipeline_text().replace("timeout = 3", "timeout = 0.01")
                    .replace("max_retries = 1", "max_retries = 0"))
    code, out = run_cli("run", "--interpreter", "asyncio", "--pipeline", str(path), "--json")
    assert code == 0
    fetch = rows_by_id(json.loads(out))["t5-fetch"]
    assert fetch["decision"] == "timed out"
    assert fetch["output"] == "Tool 'Fetch' timed out after 0.01s"


def test_a_bad_pipeline_file_is_reported_with_its_line(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text('[[layer]]\nname = "timeout"\n\n[[layer]]\nname = "memoise"\n')
    code, _ = run_cli("run", "--pipeline", str(path))
    assert code == 2
    assert f"{path}:5: layer 2: unknown layer name 'memoise'" in capsys.readouterr().err
    code, _ = run_cli("run", "--pipeline", str(tmp_path / "missing.toml"))
    assert code == 2 and "cannot read the pipeline file" in capsys.readouterr().err


def test_pipeline_prints_the_default_and_checks_a_file(tmp_path):
    code, out = run_cli("pipeline")
    assert code == 0 and out.startswith("# toolpipe's default pipeline")
    path = tmp_path / "p.toml"
    path.write_text(out)
    code, out = run_cli("pipeline", str(path))
    assert code == 0 and out.strip().endswith("memoize → tool_call")


def test_bad_arguments_exit_with_usage():
    with pytest.raises(SystemExit) as caught:
        main(["run", "--interpreter", "curio"])
    assert caught.value.code == 2


@pytest.mark.process
def test_python_dash_m_toolpipe():
    done = subprocess.run([sys.executable, "-m", "toolpipe", "pipeline"], capture_output=True,
                          text=True, check=False, timeout=60)
    assert done.returncode == 0 and "[[layer]]" in done.stdout


def test_head_keeps_the_end_of_errors():
    assert head("a  b\nc", 10) == "a b c"
    assert head("x" * 100, 10) == "xxxxxxxxx…"
    text = "Tool not found: Raed. Available: A, B, C, D, E. Did you mean 'Read'?"
    assert head(text, 40, tail=True).endswith("Did you mean 'Read'?")


def fast_pipeline(tmp_path, **changes):
    # 2 s (the demo's is 3): python3 in the sandbox on a loaded machine took over 0.5 s
    # (the verdict of the Bash call changed in one of five runs beside a busy process at 1 s)
    text = demo_pipeline_text()
    assert "timeout = 3" in text
    text = text.replace("timeout = 3", "timeout = 2")
    for key, value in changes.items():
        text = text.replace(key, value)
    path = tmp_path / f"p{len(list(tmp_path.iterdir()))}.toml"
    path.write_text(text)
    return str(path)


@pytest.mark.process
def test_record_then_replay(tmp_path, capsys, monkeypatch):
    # Deadlines far from any real latency (python3 starts in ~180 ms on a fresh machine),
    # and a Fetch that outlasts both attempts, so no verdict depends on the machine's speed.
    monkeypatch.setattr(demo, "FETCH_LATENCIES", (5.0, 5.0))
    trace = str(tmp_path / "s.jsonl")
    code, out = run_cli("run", "--pipeline", fast_pipeline(tmp_path), "--record", trace)
    assert code == 0 and f"trace: {trace}" in out
    code, out = run_cli("replay", trace)
    if "14 call(s), 0 changed" not in out:
        # name the call that changed: beside a busy process this failed about once in
        # twelve runs (a replay of its own recording differing in one call: the layers'
        # own time after a tool answered near its deadline, see docs/layers/timeout.md)
        _, detail = run_cli("replay", trace, "--json")
        changed = [d for d in json.loads(detail)["diff"] if not d["same"]]
        pytest.fail(f"{out[-300:]}\n{json.dumps(changed)[:4000]}")
    assert code == 0
    # the session's token is redacted everywhere in the trace (outputs, effects, results)
    text = pathlib.Path(trace).read_text()
    assert SESSION_SECRET not in text and "[REDACTED:github_pat]" in text
    assert SecretPatternSet.default_common().find(text) == []  # nothing secret-shaped left
    # what if the timeout were longer and nothing were cached? Both recorded attempts of
    # the flaky call were cut off, so the replay cannot invent an answer: it times out.
    other = fast_pipeline(tmp_path, **{"timeout = 2": "timeout = 10",
                                       "ttl_turns = 5": "ttl_turns = 0"})
    code, out = run_cli("replay", trace, "--pipeline", other, "--json")
    document = json.loads(out)
    changed = {d["call_id"]: d for d in document["diff"] if not d["same"]}
    # t7-test runs python3 in the sandbox on the real clock: on a loaded machine it can
    # outlast the recording's 2 s deadline (2 of 5 runs beside a busy process did), and a
    # call recorded as timed out replays as the flaky one does; nothing else may change
    extra = set(changed) - {"t2-readme", "t5-fetch"}
    assert {"t2-readme", "t5-fetch"} <= set(changed)
    assert extra <= {"t7-test"}, extra
    assert all(changed[c]["recorded"]["verdict"] == "timed out" for c in extra), changed
    assert changed["t2-readme"]["recorded"]["verdict"] == "cache hit"
    assert changed["t5-fetch"]["recorded"]["verdict"] == "timed out"
    assert changed["t5-fetch"]["replayed"]["output"] == "Tool 'Fetch' timed out after 20s"


SESSION_SECRET = "ghp_8fK2mQ9xL4vN7pR1sT6wY3zA5bC0dE2gH4jK"  # synthetic, in toolpipe.demo


@pytest.mark.process
def test_a_raw_trace_is_an_explicit_choice_with_a_warning(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(demo, "FETCH_LATENCIES", (5.0, 5.0))
    trace = tmp_path / "raw.jsonl"
    # no verdict matters here, only the trace: the shortest deadline keeps it quick
    code, _ = run_cli("run", "--pipeline", fast_pipeline(tmp_path, **{
        "timeout = 2": "timeout = 0.05"}), "--record", str(trace), "--raw-trace")
    assert code == 0 and "will hold secrets as they were" in capsys.readouterr().err
    assert SESSION_SECRET in trace.read_text()


def test_replay_errors(tmp_path, capsys):
    code, _ = run_cli("replay", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "cannot read the trace" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind":"header","format":"toolpipe-trace","version":9}\n')
    code, _ = run_cli("replay", str(bad))
    assert code == 2 and f"{bad}:1: the trace has format version 9" in capsys.readouterr().err
    code, _ = run_cli("run", "--interpreter", "simulated", "--record", str(tmp_path / "x"))
    assert code == 2 and "--record needs --interpreter asyncio or trio" in (
        capsys.readouterr().err)


def test_without_a_pipeline_file_only_the_bundled_session_gets_the_demo_timeout():
    """The MCP proxy and `run --model` run the default pipeline (a 30 s timeout), never
    the demo's 1 s one: a 2.5 s tool answers once."""
    from toolpipe.cli import read_pipeline
    from toolpipe.config import DEFAULT_PIPELINE

    assert read_pipeline(None) == (DEFAULT_PIPELINE, "the default pipeline")
    assert read_pipeline(None, demo=True) == (demo_pipeline_text(), "the default pipeline")
    assert "timeout = 30" in DEFAULT_PIPELINE
