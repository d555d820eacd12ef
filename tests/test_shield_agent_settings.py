"""An agent's MCP servers, wherever their file is (the seventeenth sitting's held-out
`classes-fresh97.txt`: `echo '{"servers": …}' > .vscode/mcp.json` was allowed, VS Code's
file of MCP servers missing from the agents' settings).

The law: a write of a file of MCP servers, by any agent's or editor's name for it and by
the shell or the file tool, is asked about (an agent starts what it names at its next
session); the same text written under a project's ordinary name runs. Shown catching the
names taken away."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolpipe.layers.shield import UnixShield

SHIELD = UnixShield()
SERVERS = '{"mcpServers": {"x": {"command": "node", "args": ["server.js"]}}}'
NAMES = st.sampled_from([".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json", "mcp.json",
                         ".roo/mcp.json", ".amazonq/mcp.json", "mcp_config.json",
                         "~/.config/Claude/claude_desktop_config.json", "~/.claude.json",
                         # (any client's file named for MCP servers; opencode's project
                         # file; a settings file in an agent's own folder: the eighteenth
                         # sitting's classes-fresh98)
                         "cline_mcp_settings.json", "mcp-servers.yaml", "opencode.json",
                         ".roo/settings.json", ".kiro/settings/mcp.json",
                         ".windsurf/config.toml", ".zed/settings.json",
                         # (the twenty-second sitting's classes-fresh138.txt: Amp's folder,
                         # and the other agents' named since)
                         ".amp/settings.json", ".openhands/config.toml",
                         ".factory/settings.json", ".copilot/config.json"])
ORDINARY = st.sampled_from(["docs/servers.json", "config/app.json", "mcp-notes.md"])


def stopped(tool: str, path: str, shield: UnixShield = SHIELD) -> bool:
    call = ({"file_path": path, "content": SERVERS} if tool == "Write" else
            {"command": f"printf '%s' '{SERVERS}' > {path}"})
    return shield.evaluate(tool, call, ()).action in ("ask", "block")


@settings(max_examples=60, deadline=None)
@given(NAMES, ORDINARY, st.sampled_from(["Write", "Bash"]))
def test_a_file_of_mcp_servers_is_an_agents_own_settings(name, ordinary, tool):
    assert stopped(tool, name), (tool, name)
    assert not stopped(tool, ordinary), (tool, ordinary)


def test_the_law_catches_the_names_taken_away(fresh_readings, monkeypatch):
    import re

    from toolpipe.shell import _places

    kept = [(p, label) for p, label in _places._STARTS if "agent" not in label]
    monkeypatch.setattr(_places, "_STARTS", (
        *kept, (re.compile(r"(?:^|/)\.claude/settings\.json$"), "an agent's settings")))
    assert not stopped("Bash", ".vscode/mcp.json", UnixShield())
