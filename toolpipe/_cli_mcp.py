"""``toolpipe mcp-proxy`` on the command line: its options, checked, as the fields of the
proxy's ``ProxyOptions`` (``cli.py`` hands them to ``interpreters/mcp_proxy.py``)."""

from __future__ import annotations

import argparse
import importlib.util
import os
from typing import Any


def add_mcp_proxy(sub: Any) -> None:
    proxy = sub.add_parser("mcp-proxy", help="an MCP server over stdio that runs every call "
                           "to another MCP server through a pipeline")
    proxy.add_argument("--pipeline", metavar="FILE.toml",
                       help="the pipeline (default: the default one)")
    proxy.add_argument("--record", metavar="TRACE.jsonl",
                       help="record the session (redacted), for toolpipe replay")
    proxy.add_argument("--url", help="the upstream's streamable-HTTP URL, instead of a command")
    proxy.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                       help="set a variable for the upstream (it gets the proxy's "
                       "environment, as the client gave it, plus these)")
    proxy.add_argument("--unset-env", action="append", default=[], metavar="NAME",
                       help="keep a variable of the proxy's environment from the upstream")
    proxy.add_argument("--header", action="append", default=[], metavar="'NAME: VALUE'",
                       help="an HTTP header for --url")
    proxy.add_argument("--bearer-env", metavar="NAME",
                       help="send 'Authorization: Bearer $NAME' to --url")
    proxy.add_argument("--init-timeout", type=float, default=30.0, metavar="SECONDS",
                       help="how long the upstream may take to answer the handshake "
                       "(default 30)")
    proxy.add_argument("--max-calls", type=int, default=256, metavar="N",
                       help="calls run at once; past that the proxy reads on when one "
                       "ends (default 256)")
    proxy.add_argument("--otel", action="store_true", help="a span per tool call and "
                       "metrics, over OTLP where the OTEL_* variables say (extra [otel])")
    proxy.add_argument("upstream", nargs=argparse.REMAINDER, metavar="-- COMMAND [ARGS…]")


def mcp_proxy_options(args: argparse.Namespace) -> dict[str, Any]:
    """The proxy's options (``interpreters.mcp_proxy.ProxyOptions``' fields), checked: a
    mistake is a ``UsageError``, one line and exit 2, before anything starts."""
    from toolpipe.cli import UsageError, read_pipeline

    # only the separator goes: a "--" further on belongs to the upstream's own arguments
    command = list(args.upstream or ())
    if command[:1] == ["--"]:
        command = command[1:]
    if bool(command) == (args.url is not None):
        raise UsageError("mcp-proxy needs the upstream server: its command after -- "
                         "(toolpipe mcp-proxy [--pipeline FILE.toml] -- COMMAND [ARGS…]) or "
                         "--url URL, one of the two")
    if args.url is not None and importlib.util.find_spec("mcp") is None:
        # over stdio the proxy speaks JSON-RPC itself; over HTTP it uses the SDK's client
        raise UsageError("mcp-proxy --url needs the mcp package: "
                         "pip install 'toolpipe-middleware[mcp]'")
    text, source = read_pipeline(args.pipeline)
    env: dict[str, str] = {}
    for item in args.env:
        name, eq, value = item.partition("=")
        if not eq or not name:
            raise UsageError(f"--env {item!r}: give NAME=VALUE")
        env[name] = value
    headers: dict[str, str] = {}
    for item in args.header:
        name, colon, value = item.partition(":")
        if not colon or not name.strip():
            raise UsageError(f"--header {item!r}: give 'NAME: VALUE'")
        headers[name.strip()] = value.strip()
    if args.bearer_env is not None:
        token = os.environ.get(args.bearer_env)
        if not token:
            raise UsageError(f"--bearer-env {args.bearer_env}: that variable is not set")
        headers["Authorization"] = f"Bearer {token}"
    if (args.header or args.bearer_env) and args.url is None:
        raise UsageError("--header and --bearer-env are for an upstream given by --url")
    if not args.init_timeout > 0:
        raise UsageError(f"--init-timeout {args.init_timeout:g}: give a positive number")
    if args.max_calls < 1:
        raise UsageError(f"--max-calls {args.max_calls}: give 1 or more")
    if args.otel and importlib.util.find_spec("opentelemetry.exporter.otlp.proto.http") is None:
        raise UsageError("--otel needs OpenTelemetry: pip install 'toolpipe-middleware[otel]'")
    return {"command": command, "pipeline_text": text, "source": source,
            "record": args.record, "url": args.url, "env": env, "unset_env": args.unset_env,
            "headers": headers, "init_timeout": args.init_timeout,
            "max_calls": args.max_calls, "otel": args.otel}
