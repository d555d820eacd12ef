"""The sandbox's seccomp filter, run on a small classic-BPF interpreter: every refused call
is refused, new-namespace clones are refused while thread and process clones pass, clone3
answers ENOSYS, another architecture is killed, ordinary calls pass. The escape tests in
tests/test_containment.py check the same calls refused for real inside bubblewrap."""

from __future__ import annotations

import struct

import pytest

from toolpipe import _seccomp as sc


def run(program: list[tuple[int, int, int, int]], nr: int, arch: int,
        args: tuple[int, ...] = (0, 0, 0, 0, 0, 0)) -> int:
    """Classic BPF as the kernel runs a seccomp filter over struct seccomp_data."""
    data = struct.pack("=iIQ6Q", nr, arch, 0, *args)
    acc, pc = 0, 0
    while True:
        code, jt, jf, k = program[pc]
        if code == sc.LD_W_ABS:
            acc = struct.unpack_from("=I", data, k)[0]
            pc += 1
        elif code == sc.RET_K:
            return k
        elif code in (sc.JEQ_K, sc.JGE_K, sc.JSET_K):
            taken = (acc == k if code == sc.JEQ_K else acc >= k if code == sc.JGE_K
                     else bool(acc & k))
            pc += 1 + (jt if taken else jf)
        else:
            raise AssertionError(f"unknown opcode {code:#x}")


ALLOW, EPERM, ENOSYS = sc.RET_ALLOW, sc.RET_ERRNO | sc.EPERM, sc.RET_ERRNO | sc.ENOSYS
ORDINARY = {"x86_64": {"read": 0, "write": 1, "openat": 257, "execve": 59, "mmap": 9,
                       "getpid": 39, "socket": 41, "kill": 62, "renameat2": 316},
            "aarch64": {"read": 63, "write": 64, "openat": 56, "execve": 221, "mmap": 222,
                        "getpid": 172, "socket": 198, "kill": 129, "renameat2": 276}}
THREAD = 0x003D0F00  # CLONE_VM | FS | FILES | SIGHAND | THREAD | SYSVSEM | SETTLS | ...
FORK = 0x01200011  # CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD


@pytest.mark.parametrize("machine", sorted(sc.ARCHES))
def test_the_filter_refuses_what_it_says_and_passes_the_rest(machine: str) -> None:
    program = sc.program(machine)
    arch, column = sc.ARCHES[machine]
    for name, numbers in sc.REFUSED.items():
        assert run(program, numbers[column], arch) == EPERM, name
    if machine == "x86_64":
        for name, nr in sc.X86_ONLY.items():
            assert run(program, nr, arch) == EPERM, name
        assert run(program, 0 | sc.X32_BIT, arch) == EPERM  # the x32 ABI's read
    for name, nr in ORDINARY[machine].items():
        assert run(program, nr, arch) == ALLOW, name
    clone = sc.CLONE[column]
    assert run(program, clone, arch, (THREAD, 0, 0, 0, 0, 0)) == ALLOW  # a thread
    assert run(program, clone, arch, (FORK, 0, 0, 0, 0, 0)) == ALLOW  # fork()
    for flag in (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000,
                 0x40000000):
        assert run(program, clone, arch, (FORK | flag, 0, 0, 0, 0, 0)) == EPERM, hex(flag)
    assert run(program, sc.CLONE3, arch) == ENOSYS
    other = next(a for m, (a, _) in sc.ARCHES.items() if m != machine)
    assert run(program, ORDINARY[machine]["read"], other) == sc.RET_KILL_PROCESS
    assert len(sc.compiled(machine)) == 8 * len(program)


def test_the_interpreter_catches_a_broken_filter() -> None:
    """A filter that allows everything fails the check above."""
    allow_all = [(sc.RET_K, 0, 0, sc.RET_ALLOW)]
    assert run(allow_all, sc.REFUSED["mount"][0], sc.ARCHES["x86_64"][0]) != EPERM
    with pytest.raises(ValueError, match="no seccomp filter for the 'mips' architecture"):
        sc.program("mips")
