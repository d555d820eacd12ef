"""Integrations with the places agents already get their tools from.

- ``toolpipe.integrations.mcp``: a ``ToolRegistry`` from an MCP client session (extra
  ``[mcp]``), and MCP content both ways.
"""
