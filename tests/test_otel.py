"""OpenTelemetry (interpreters/otel.py): the bundled session's spans match its per-call
table, call by call (tool, call id, decision, the layers that acted, errors); the metrics
count the same calls; ``--otel`` without the extra is one line and exit 2."""

from __future__ import annotations

import importlib.util
import json

import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("opentelemetry.sdk") is None,
                                reason="the OpenTelemetry SDK is a test extra")


def in_memory():
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    spans, metrics = InMemorySpanExporter(), InMemoryMetricReader()
    tracers = TracerProvider()
    tracers.add_span_processor(SimpleSpanProcessor(spans))
    return tracers, MeterProvider(metric_readers=[metrics]), spans, metrics


def test_the_bundled_sessions_spans_match_its_table(monkeypatch, capsys):
    from interpreters import otel
    from toolpipe.cli import main

    tracers, meters, spans, metrics = in_memory()
    flushed = []
    monkeypatch.setattr(otel, "otlp_observer", lambda: (
        otel.OtelObserver(tracers, meters), lambda: flushed.append(True)))
    assert main(["run", "--interpreter", "simulated", "--json", "--otel"]) == 0
    table = json.loads(capsys.readouterr().out)["calls"]
    assert flushed == [True] and len(table) >= 10
    got = {s.attributes["gen_ai.tool.call.id"]: s for s in spans.get_finished_spans()}
    assert sorted(got) == sorted(row["call_id"] for row in table)
    for row in table:
        span = got[row["call_id"]]
        assert span.name == f"execute_tool {row['tool']}"
        assert span.attributes["gen_ai.operation.name"] == "execute_tool"
        assert span.attributes["gen_ai.tool.name"] == row["tool"]
        assert span.attributes["toolpipe.decision"] == row["decision"]
        assert [(e.attributes["toolpipe.layer"], e.attributes["toolpipe.layer.how"])
                for e in span.events] == [(x["layer"], x["how"]) for x in row["layers"]]
        assert (span.status.status_code.name == "ERROR") == row["is_error"]
        assert ("error.type" in span.attributes) == row["is_error"]
    decisions = {row["decision"] for row in table}
    assert {"cache hit", "blocked", "ok (retried)"} <= decisions  # the session's layers
    blocked = next(s for s in got.values() if s.attributes["toolpipe.decision"] == "blocked")
    assert blocked.attributes["error.type"] == "Blocked"
    redacted = [e for s in got.values() for e in s.events
                if e.attributes["toolpipe.layer"] == "redaction"]
    assert redacted and all(e.attributes["toolpipe.redacted"] for e in redacted)
    total = sum(p.value for m in metrics.get_metrics_data().resource_metrics[0]
                .scope_metrics[0].metrics if m.name == "toolpipe.tool.calls"
                for p in m.data.data_points)
    assert total == len(table)


def test_otel_without_the_extra_is_one_line(monkeypatch, capsys):
    import importlib.util as util

    from toolpipe.cli import main

    real = util.find_spec
    monkeypatch.setattr(util, "find_spec", lambda name, *a: None if name.startswith(
        "opentelemetry") else real(name, *a))
    assert main(["run", "--interpreter", "simulated", "--otel"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["toolpipe: --otel needs OpenTelemetry: pip install "
                   "'toolpipe-middleware[otel]'"]


@pytest.mark.process
def test_the_proxy_exports_a_span_per_call_over_otlp(tmp_path):
    """``toolpipe mcp-proxy --otel`` posts its spans to the OTLP endpoint the standard
    variable names (here a receiver on loopback) before it exits."""
    import http.server
    import os
    import pathlib
    import subprocess
    import sys
    import threading

    pytest.importorskip("opentelemetry.exporter.otlp.proto.http")
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    posted: list[tuple[str, bytes]] = []

    class Receiver(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            posted.append((self.path, body))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root = pathlib.Path(__file__).resolve().parent.parent
    env = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT":
           f"http://127.0.0.1:{server.server_address[1]}", "OTEL_SERVICE_NAME": "proxy-test"}
    requests = "\n".join(json.dumps(m) for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "t1", "arguments": {}}}]) + "\n"
    try:
        done = subprocess.run(
            [sys.executable, "-m", "toolpipe", "mcp-proxy", "--otel", "--", sys.executable,
             str(root / "tests" / "data" / "mcp" / "raw_server.py"), "paged", str(tmp_path)],
            input=requests.encode(), capture_output=True, timeout=30, cwd=root, env=env)
    finally:
        server.shutdown()
    assert done.returncode == 0, done.stderr.decode()
    traces = [body for path, body in posted if path == "/v1/traces"]
    spans = [span for body in traces
             for resource in ExportTraceServiceRequest.FromString(body).resource_spans
             for scope in resource.scope_spans for span in scope.spans]
    assert [s.name for s in spans] == ["execute_tool t1"]
    attributes = {a.key: a.value.string_value for a in spans[0].attributes}
    assert attributes["gen_ai.tool.call.id"] == "mcp-1"
    assert attributes["toolpipe.decision"] == "ok"
    assert "/v1/metrics" in {path for path, _ in posted}
