"""Modes of build tools that stand in for the shell's own commands, read as those commands:
``cmake -E rm -rf DIR`` is ``rm -rf DIR``, ``cmake -E remove_directory DIR`` is ``rm -rf
DIR``, ``cmake -E chdir DIR CMD`` runs CMD, ``perl -MExtUtils::Command -e rm_rf DIR`` is
``rm -rf DIR`` (the portable forms Makefiles and CMake scripts use), and a Salt minion's
own modules run here (``salt-call file.remove DIR`` is ``rm -rf DIR``, ``salt-call cmd.run
CMD`` runs CMD)."""

from __future__ import annotations

from collections.abc import Sequence

from toolpipe.shell._words import Word, literal

# cmake -E TOOL: the shell command it is, and the options it adds
_CMAKE = {"rm": ("rm",), "remove": ("rm", "-f"), "remove_directory": ("rm", "-rf"),
          "rename": ("mv",), "copy": ("cp",), "copy_directory": ("cp", "-r"),
          "copy_if_different": ("cp",), "create_symlink": ("ln", "-s"),
          "create_hardlink": ("ln",), "touch": ("touch",), "make_directory": ("mkdir", "-p"),
          "tar": ("tar",), "cat": ("cat",), "env": ("env",), "chdir": ("cd",)}
# perl -MExtUtils::Command -e FUNCTION ARGS… (its functions read the arguments after -e's)
_EXTUTILS = {"rm_rf": ("rm", "-rf"), "rm_f": ("rm", "-f"), "mv": ("mv",), "cp": ("cp",),
             "touch": ("touch",), "mkpath": ("mkdir", "-p"), "chmod": ("chmod",)}


# salt-call MODULE.FUNCTION ARGS…: the command each function amounts to (cmd.*: its
# argument is a command line)
_SALT = {"file.remove": ("rm", "-rf"), "file.rmdir": ("rm", "-r"), "file.delete": ("rm", "-rf"),
         "file.absent": ("rm", "-rf"), "file.truncate": ("truncate", "-s", "0"),
         "file.copy": ("cp", "-r"), "file.move": ("mv",), "file.rename": ("mv",),
         "file.symlink": ("ln", "-s"), "file.set_mode": ("chmod",),
         "cmd.run": ("sh", "-c"), "cmd.shell": ("sh", "-c"), "cmd.run_all": ("sh", "-c"),
         "cmd.run_stdout": ("sh", "-c"), "cmd.exec_code": ("sh", "-c"),
         "cmd.script": ("sh",)}
_SALT_VALUED = frozenset({"-l", "--log-level", "--out", "--output", "-c", "--config-dir",
                          "--file-root", "--pillar-root", "--id", "--saltenv", "--pillarenv",
                          "-t", "--timeout", "--out-file", "--return"})


def tool_mode(name: str, args: Sequence[Word]) -> tuple[str, tuple[Word, ...]] | None:
    """(label, the command it amounts to), or None."""
    texts = [a.text for a in args]
    if name == "salt-call":
        at = 0
        while at < len(texts) and texts[at].startswith("-"):
            at += 1 + (texts[at] in _SALT_VALUED)
        if at >= len(texts):
            return None
        mapped = _SALT.get(texts[at])
        rest = tuple(a for a in args[at + 1:] if "=" not in a.text or not a.text.split(
            "=", 1)[0].isidentifier())  # (keyword arguments, `runas=x`, are not operands)
        if mapped is None:
            return None
        return f"salt-call {texts[at]}", (*(literal(w) for w in mapped), *rest)
    if name == "cmake" and "-E" in texts:
        at = texts.index("-E")
        if at + 1 >= len(args):
            return None
        tool = texts[at + 1]
        rest = tuple(args[at + 2:])
        if tool == "chdir" and rest:  # cmake -E chdir DIR CMD ARGS…: CMD runs there
            return "cmake -E chdir", rest[1:]
        mapped = _CMAKE.get(tool)
        if mapped is None:
            return None
        return f"cmake -E {tool}", (*(literal(w) for w in mapped), *rest)
    if name == "perl" and any(t.startswith("-MExtUtils::Command") for t in texts):
        if "-e" not in texts:
            return None
        at = texts.index("-e")
        if at + 1 >= len(args):
            return None
        mapped = _EXTUTILS.get(texts[at + 1])
        rest = tuple(a for a in args[at + 2:] if a.text != "--")
        if mapped is None:
            return None
        return f"perl ExtUtils::Command {texts[at + 1]}", (*(literal(w) for w in mapped),
                                                            *rest)
    return None
