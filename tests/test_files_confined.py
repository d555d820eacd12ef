"""The file tools cannot be turned against the host: no hang on a FIFO, no write through a
hard link to a file outside, no read of an outside file through a symlink swapped in while
the path is being opened."""

from __future__ import annotations

import os
import threading

import pytest
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
