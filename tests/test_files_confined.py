"""The file tools cannot be turned against the host: no hang on a FIFO, no write through a
hard link to a file outside, no read of an outside file through a symlink swapped in while
the path is being opened."""

from __future__ import annotations

import os
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from returns.result import Failure, Success

from interpreters import files
from toolpipe.effects import FileOp


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    (root / "d").mkdir(parents=True)
    (root / "d" / "f").write_text("inside\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "f").write_text("OUTSIDE SECRET\n")
    return root, outside


def test_a_fifo_is_refused_at_once(ws):
    root, _ = ws
    os.mkfifo(root / "pipe")
    assert files.perform(FileOp("read", str(root), "pipe")) == Failure(
        "'pipe' is not a regular file")
    assert files.perform(FileOp("walk", str(root), ".")).unwrap() == ("d/f",)


def test_a_write_never_goes_through_a_hard_link_to_outside(ws):
    root, outside = ws
    os.link(outside / "f", root / "hard")
    assert isinstance(files.perform(FileOp("write", str(root), "hard", "new\n")), Success)
    assert (outside / "f").read_text() == "OUTSIDE SECRET\n"
    assert (root / "hard").read_text() == "new\n"


@pytest.mark.process
def test_a_folder_swapped_for_a_link_in_a_loop_never_leaks_the_outside_file(ws):
    """``d`` is a real folder when the path is resolved, and a link to a folder outside a
    moment later, over and over: the outside file must never be read (the old
    resolve-then-open read it about one time in a hundred). Writes take the same way
    beneath the root."""
    root, outside = ws
    os.symlink(outside, root / "evil")
    stop = threading.Event()

    def swap():
        real, evil, parked = root / "d", root / "evil", root / "parked"
        while not stop.is_set():
            os.rename(real, parked)
            os.rename(evil, real)
            os.rename(real, evil)
            os.rename(parked, real)

    thread = threading.Thread(target=swap)
    thread.start()
    try:
        answers = [files.perform(FileOp("read", str(root), "d/f")) for _ in range(4000)]
    finally:
        stop.set()
        thread.join()
    texts = [a.unwrap() for a in answers if isinstance(a, Success)]
    assert texts and all(t == "inside\n" for t in texts), sorted(set(texts))
    assert (outside / "f").read_text() == "OUTSIDE SECRET\n"


# --- the one-call path agrees with the walk ---------------------------------------------

PARTS = ("f", "d", "in", "out", "up", "..", ".", "missing", "pipe", "d/f", "loop", "")


def _tree(base):
    """A workspace with a file, a folder, links inside, outside and in a loop, a link to
    the root's parent, and a FIFO; and a file outside it."""
    root = base / "ws"
    if root.exists():
        return root
    (root / "d").mkdir(parents=True)
    (root / "d" / "f").write_text("inside d\n")
    (root / "f").write_text("inside\n")
    (base / "outside").mkdir()
    (base / "outside" / "f").write_text("OUTSIDE SECRET\n")
    os.symlink("d", root / "in")
    os.symlink(base / "outside", root / "out")
    os.symlink("..", root / "d" / "up")
    os.symlink("loop", root / "loop")
    os.mkfifo(root / "pipe")
    return root


def _slow(effect, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(files, "_opened_first", lambda root, path, flags: None)
        return files.perform(effect)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(PARTS), min_size=1, max_size=4), st.sampled_from(
    ["read", "resolve"]))
def test_the_one_call_path_answers_as_the_walk_does(tmp_path, monkeypatch, parts, op):
    """A path the kernel opens beneath the root in one ``openat2`` skips the resolving
    walk (``files._opened_first``): for every path, its answer is the walk's, and nothing
    outside is ever read."""
    root = _tree(tmp_path)
    effect = FileOp(op, str(root), "/".join(parts))
    fast = files.perform(effect)
    assert fast == _slow(effect, monkeypatch), effect.path
    assert "OUTSIDE" not in str(fast)


def test_the_agreement_catches_a_one_call_path_that_follows_links(tmp_path, monkeypatch):
    """The property above, against a broken one-call path (a plain ``openat`` that
    follows links): it finds the outside file read through ``out``."""
    root = _tree(tmp_path)

    def follows(base, path, flags):
        if os.path.isabs(path):
            return None
        try:
            return os.open(os.path.join(base, path), flags | os.O_CLOEXEC)
        except OSError:
            return None

    effect = FileOp("read", str(root), "out/f")
    monkeypatch.setattr(files, "_opened_first", follows)
    broken = files.perform(effect)
    monkeypatch.undo()
    assert broken == Success("OUTSIDE SECRET\n")
    assert _slow(effect, monkeypatch) == Failure("Path 'out/f' is outside the workspace")
    assert files.perform(effect) == _slow(effect, monkeypatch)
