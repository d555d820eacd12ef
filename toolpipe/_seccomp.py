"""The sandbox's seccomp filter: a classic-BPF program, generated here and handed to
bubblewrap (``bwrap --seccomp FD``), that refuses the system calls a contained command has
no business making.

Refused with EPERM: mount and its new API, umount, pivot_root, chroot, ptrace, the handle
calls that bypass paths (``open_by_handle_at``, ``name_to_handle_at``), module and kexec
loading, bpf, the kernel keyring, perf_event_open, userfaultfd, reading or writing other
processes' memory, swap, reboot, acct, quotactl, syslog, ``unshare`` and ``setns``, and
``clone`` with any ``CLONE_NEW*`` flag (new namespaces). ``clone3`` answers ENOSYS: its
flags sit in memory a filter cannot read, so the C library falls back to ``clone``, which
is checked. A program of another architecture than the filter's is killed.

The numbers come from the kernel's tables (``asm/unistd_64.h`` for x86_64, the generic
``asm-generic/unistd.h`` for aarch64); ``tests/test_seccomp.py`` checks the program's
shape and, where bwrap runs, that each refused call is refused for real.
"""

from __future__ import annotations

import struct

# system call numbers: name -> (x86_64, aarch64)
REFUSED: dict[str, tuple[int, int]] = {
    "ptrace": (101, 117), "mount": (165, 40), "umount2": (166, 39),
    "pivot_root": (155, 41), "chroot": (161, 51), "swapon": (167, 224),
    "swapoff": (168, 225), "reboot": (169, 142), "init_module": (175, 105),
    "delete_module": (176, 106), "finit_module": (313, 273), "kexec_load": (246, 104),
    "kexec_file_load": (320, 294), "open_by_handle_at": (304, 265),
    "name_to_handle_at": (303, 264), "bpf": (321, 280), "keyctl": (250, 219),
    "add_key": (248, 217), "request_key": (249, 218), "perf_event_open": (298, 241),
    "unshare": (272, 97), "setns": (308, 268), "userfaultfd": (323, 282),
    "process_vm_readv": (310, 270), "process_vm_writev": (311, 271), "acct": (163, 89),
    "quotactl": (179, 60), "lookup_dcookie": (212, 18), "syslog": (103, 116),
    "fsopen": (430, 430), "fsconfig": (431, 431), "fsmount": (432, 432),
    "fspick": (433, 433), "move_mount": (429, 429), "open_tree": (428, 428),
    "mount_setattr": (442, 442),
}
X86_ONLY = {"iopl": 172, "ioperm": 173}
CLONE = (56, 220)
CLONE3 = 435  # the same on both
# CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
CLONE_NEW_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 \
    | 0x20000000 | 0x40000000
X32_BIT = 0x40000000  # x86_64's x32 ABI: refused whole

ARCHES = {"x86_64": (0xC000003E, 0), "aarch64": (0xC00000B7, 1)}  # AUDIT_ARCH_*, column

EPERM, ENOSYS = 1, 38
RET_ALLOW = 0x7FFF0000
RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000

# classic BPF opcodes
LD_W_ABS = 0x20
JEQ_K = 0x15
JGE_K = 0x35
JSET_K = 0x45
RET_K = 0x06
# offsets in struct seccomp_data
NR, ARCH, ARG0_LOW = 0, 4, 16


def supported(machine: str) -> bool:
    return machine in ARCHES


def program(machine: str) -> list[tuple[int, int, int, int]]:
    """The filter as (code, jt, jf, k) instructions for ``machine`` (``os.uname().machine``)."""
    if machine not in ARCHES:
        raise ValueError(f"no seccomp filter for the {machine!r} architecture")
    audit, column = ARCHES[machine]
    numbers = sorted({row[column] for row in REFUSED.values()}
                     | (set(X86_ONLY.values()) if machine == "x86_64" else set()))
    clone = CLONE[column]
    out: list[tuple[int, int, int, int]] = [
        (LD_W_ABS, 0, 0, ARCH),
        (JEQ_K, 1, 0, audit),
        (RET_K, 0, 0, RET_KILL_PROCESS),
        (LD_W_ABS, 0, 0, NR),
    ]
    # labels at the end: [deny] ret EPERM; [nosys] ret ENOSYS; [allow] ret ALLOW
    checks: list[tuple[int, int, str]] = []  # (code, k, target label) on a match
    if machine == "x86_64":
        checks.append((JGE_K, X32_BIT, "deny"))
    checks += [(JEQ_K, n, "deny") for n in numbers]
    checks.append((JEQ_K, CLONE3, "nosys"))
    tail_start = len(out) + len(checks) + 4  # + the clone block below
    labels = {"deny": tail_start, "nosys": tail_start + 1, "allow": tail_start + 2}
    for code, k, target in checks:
        here = len(out)
        out.append((code, labels[target] - here - 1, 0, k))
    # clone: refused only with a CLONE_NEW* flag in its first argument
    here = len(out)
    out.append((JEQ_K, 0, labels["allow"] - here - 1, clone))  # not clone: allow
    out.append((LD_W_ABS, 0, 0, ARG0_LOW))
    here = len(out)
    out.append((JSET_K, labels["deny"] - here - 1, labels["allow"] - here - 1,
                CLONE_NEW_FLAGS))
    out.append((RET_K, 0, 0, RET_ALLOW))  # unreachable filler keeps the labels simple
    assert len(out) == tail_start
    out += [(RET_K, 0, 0, RET_ERRNO | EPERM), (RET_K, 0, 0, RET_ERRNO | ENOSYS),
            (RET_K, 0, 0, RET_ALLOW)]
    for code, jt, jf, _ in out:
        if not (0 <= jt <= 255 and 0 <= jf <= 255):
            raise AssertionError(f"jump out of range in opcode {code:#x}")
    return out


def compiled(machine: str) -> bytes:
    """The filter as ``struct sock_filter`` bytes (what ``bwrap --seccomp`` reads)."""
    return b"".join(struct.pack("=HBBI", code, jt, jf, k) for code, jt, jf, k in
                    program(machine))
