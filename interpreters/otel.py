"""OpenTelemetry for toolpipe: one span per tool call, built from the events a run emits.

``OtelObserver`` is an ``on_event`` for any interpreter (and the MCP proxy): it collects
the ``LayerActed`` events of a call and, at its ``CallFinished``, emits one span following
the GenAI semantic conventions (``execute_tool {name}``, ``gen_ai.operation.name``,
``gen_ai.tool.name``, ``gen_ai.tool.call.id``, ``error.type``), with an event for each
layer that acted (what it did: answered, retried, changed the result; the redacted kinds,
a block's reason). It counts calls (``toolpipe.tool.calls``, by tool and decision) and
layers' acts (``toolpipe.layer.acts``), and records each call's duration
(``toolpipe.tool.duration``, seconds). Layers stay pure: nothing in ``toolpipe/`` knows of
OpenTelemetry. The extra ``[otel]`` installs the SDK and the OTLP exporter;
``otlp_observer()`` configures them from the standard ``OTEL_*`` environment variables.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from toolpipe import __version__
from toolpipe._cli_report import decide
from toolpipe.agent import CallFinished
from toolpipe.observe import LayerActed

__all__ = ["OtelObserver", "otlp_observer", "with_otel"]

_REDACTED = re.compile(r"\[REDACTED:([A-Za-z0-9_.-]+)\]")


class OtelObserver:
    """``on_event`` that turns each finished tool call into a span and metrics."""

    def __init__(self, tracer_provider: Any = None, meter_provider: Any = None, *,
                 clock: Callable[[], int] = time.time_ns) -> None:
        from opentelemetry import metrics, trace

        tracers = tracer_provider if tracer_provider is not None else \
            trace.get_tracer_provider()
        meters = meter_provider if meter_provider is not None else \
            metrics.get_meter_provider()
        self.tracer = tracers.get_tracer("toolpipe", __version__)
        meter = meters.get_meter("toolpipe", __version__)
        self.calls = meter.create_counter(
            "toolpipe.tool.calls", unit="{call}", description="tool calls, by decision")
        self.acts = meter.create_counter(
            "toolpipe.layer.acts", unit="{act}", description="layers that acted on a call")
        self.duration = meter.create_histogram(
            "toolpipe.tool.duration", unit="s", description="a tool call's duration")
        self.clock = clock
        self._acted: dict[str, list[LayerActed]] = defaultdict(list)

    def __call__(self, event: object) -> None:
        if isinstance(event, LayerActed):
            self._acted[event.call_id].append(event)
        elif isinstance(event, CallFinished):
            self._finish(event)

    def _finish(self, event: CallFinished) -> None:
        from opentelemetry.trace import SpanKind, Status, StatusCode

        result = event.result
        acted = self._acted.pop(result.tool_call_id, [])
        decision = decide(event, [(a.layer, a.acts) for a in acted])
        end = self.clock()
        start = end - int(max(result.duration, 0.0) * 1e9)
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": event.name,
            "gen_ai.tool.call.id": result.tool_call_id,
            "gen_ai.tool.type": "function",
            "toolpipe.turn": event.turn,
            "toolpipe.decision": decision,
            "toolpipe.cached": result.cached,
        }
        if result.resolved_tool_name and result.resolved_tool_name != event.name:
            attributes["toolpipe.resolved_tool_name"] = result.resolved_tool_name
        if result.is_error:
            attributes["error.type"] = type(result.cause).__name__ if result.cause \
                is not None else "tool_error"
        span = self.tracer.start_span(f"execute_tool {event.name}", kind=SpanKind.INTERNAL,
                                      start_time=start, attributes=attributes)
        for act in acted:
            detail: dict[str, Any] = {
                "toolpipe.layer": act.layer, "toolpipe.layer.how": act.how,
                "toolpipe.layer.attempts": act.acts.attempts,
                "toolpipe.layer.answered": act.acts.answered,
                "toolpipe.layer.changed_result": act.acts.changed_result}
            if act.layer == "redaction":
                detail["toolpipe.redacted"] = sorted(set(_REDACTED.findall(result.text)))
            span.add_event(f"toolpipe.layer {act.layer}", detail, timestamp=end)
            self.acts.add(1, {"toolpipe.layer": act.layer})
        if result.is_error:
            span.set_status(Status(StatusCode.ERROR, result.text[:200]))
        span.end(end_time=end)
        self.calls.add(1, {"gen_ai.tool.name": event.name, "toolpipe.decision": decision})
        self.duration.record(max(result.duration, 0.0), {"gen_ai.tool.name": event.name})


def otlp_observer() -> tuple[OtelObserver, Callable[[], None]]:
    """An observer exporting over OTLP/HTTP where the standard environment variables say
    (``OTEL_EXPORTER_OTLP_ENDPOINT``, ``OTEL_SERVICE_NAME``, …), and the function that
    flushes and shuts the exporters down at the end of the run."""
    from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    resource = Resource.create({"service.name": "toolpipe"})  # OTEL_SERVICE_NAME wins
    tracers = TracerProvider(resource=resource)
    tracers.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    meters = MeterProvider(resource=resource, metric_readers=[
        PeriodicExportingMetricReader(OTLPMetricExporter())])

    def shutdown() -> None:
        tracers.shutdown()
        meters.shutdown()

    return OtelObserver(tracers, meters), shutdown


def with_otel(on_event: Callable[[Any], None]
              ) -> tuple[Callable[[Any], None], Callable[[], None]]:
    """``on_event`` followed by an OTLP observer (``--otel`` on the command line), and the
    function that flushes the exporters when the run ends; without the extra, a
    ``ConfigError`` saying how to install it."""
    import importlib.util

    from toolpipe.errors import ConfigError

    if importlib.util.find_spec("opentelemetry.exporter.otlp.proto.http") is None:
        raise ConfigError("--otel needs OpenTelemetry: pip install 'toolpipe-middleware[otel]'")
    observer, shutdown = otlp_observer()

    def both(event: Any) -> None:
        on_event(event)
        observer(event)

    return both, shutdown
