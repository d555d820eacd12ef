"""``--otel`` on the command line: the run's events go to OpenTelemetry too (one span per
tool call, metrics), exported over OTLP where the standard ``OTEL_*`` variables say."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any


def with_otel(on_event: Callable[[Any], None]
              ) -> tuple[Callable[[Any], None], Callable[[], None]]:
    """``on_event`` followed by an OpenTelemetry observer, and the function that flushes
    the exporters when the run ends."""
    from toolpipe.cli import UsageError

    if importlib.util.find_spec("opentelemetry.exporter.otlp.proto.http") is None:
        raise UsageError("--otel needs OpenTelemetry: pip install 'toolpipe-middleware[otel]'")
    from interpreters import otel

    observer, shutdown = otel.otlp_observer()

    def both(event: Any) -> None:
        on_event(event)
        observer(event)

    return both, shutdown
