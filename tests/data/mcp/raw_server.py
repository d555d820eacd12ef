"""An MCP server over stdio written against the wire (no SDK), for what the SDK's servers
do not do: tools listed in pages, a tool list that changes, a result of 50 MB, a child
process left running, a server that is busy (one call at a time), or one that never
answers the handshake, writes garbage or dies.

    python raw_server.py [paged|hang|garbage] [WORKDIR]

WORKDIR receives ``ledger`` (a line per run of ``append``), ``child.pid`` and
``server.pid``.
"""

import json
import os
import subprocess
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "paged"
WORK = sys.argv[2] if len(sys.argv) > 2 else "."
TOOLS = [{"name": f"t{i}", "inputSchema": {"type": "object"},
          "annotations": {"readOnlyHint": True}} for i in range(1, 6)]
TOOLS += [
    {"name": "append", "description": "appends a line to the ledger, slowly (0.8 s)",
     "inputSchema": {"type": "object"}},
    {"name": "sleep", "inputSchema": {"type": "object", "properties": {
        "seconds": {"type": "number"}}}, "annotations": {"readOnlyHint": True}},
    {"name": "big", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}},
    {"name": "child", "inputSchema": {"type": "object"}},
    {"name": "grow", "inputSchema": {"type": "object"}},
    {"name": "run_command", "inputSchema": {"type": "object", "properties": {
        "command": {"type": "string"}}}},
]
PAGE = 2


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def text(value):
    return {"content": [{"type": "text", "text": value}]}


def call(name, arguments):
    if name in {t["name"] for t in TOOLS if t["name"].startswith("t")}:
        return text(f"{name} ran")
    if name == "run_command":
        return text(f"ran {arguments.get('command')}")
    if name == "append":
        with open(os.path.join(WORK, "ledger"), "a") as ledger:
            ledger.write("ran\n")
        time.sleep(0.8)
        return text("appended")
    if name == "sleep":
        time.sleep(float(arguments.get("seconds", 1)))
        return text("slept")
    if name == "big":
        return text("x" * 50_000_000)
    if name == "child":
        child = subprocess.Popen(["sleep", "300"])
        with open(os.path.join(WORK, "child.pid"), "w") as handle:
            handle.write(str(child.pid))
        return text(f"child {child.pid}")
    if name == "grow":
        TOOLS.append({"name": "t6", "inputSchema": {"type": "object"}})
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        return text("grown")
    return None


def main():
    with open(os.path.join(WORK, "server.pid"), "w") as handle:
        handle.write(str(os.getpid()))
    if MODE == "garbage":
        print("Server starting... (a banner on stdout, where only JSON-RPC belongs)",
              flush=True)
    for line in sys.stdin:
        message = json.loads(line)
        method, key = message.get("method"), message.get("id")
        if key is None:
            continue
        params = message.get("params") or {}
        if method == "initialize":
            if MODE == "hang":
                continue
            if MODE == "garbage":
                print("<html>not json</html>", flush=True)
                continue
            send({"jsonrpc": "2.0", "id": key, "result": {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {"listChanged": True}},
                "serverInfo": {"name": "raw", "version": "1"}}})
        elif method == "tools/list":
            start = int(params.get("cursor") or 0)
            page = {"tools": TOOLS[start:start + PAGE]}
            if start + PAGE < len(TOOLS):
                page["nextCursor"] = str(start + PAGE)
            send({"jsonrpc": "2.0", "id": key, "result": page})
        elif method == "tools/call":
            result = call(params.get("name"), params.get("arguments") or {})
            if result is None:
                send({"jsonrpc": "2.0", "id": key, "error": {
                    "code": -32602, "message": f"Unknown tool: {params.get('name')}"}})
            else:
                send({"jsonrpc": "2.0", "id": key, "result": result})
        elif method == "ping":
            send({"jsonrpc": "2.0", "id": key, "result": {}})
        else:
            send({"jsonrpc": "2.0", "id": key, "error": {
                "code": -32601, "message": f"Method not found: {method}"}})


if __name__ == "__main__":
    main()
