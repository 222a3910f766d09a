"""Peak resident memory of this process over one run (Linux), so each run reports its own peak."""

from __future__ import annotations

import os

_STATUS = "/proc/self/status"
_CLEAR_REFS = "/proc/self/clear_refs"


class _ProcFiles:
    """The two files, opened once per process (a run is measured thousands of times a
    minute; opening them each time cost more than a small search)."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.clear_refs = self.status = -1

    def descriptors(self) -> tuple[int, int]:
        """``(clear_refs, status)``, reopened in a forked child (``self`` means the
        process that opened them); -1 for a file that cannot be opened."""
        if self.pid != os.getpid():
            self.pid = os.getpid()
            self.clear_refs, self.status = _opened(_CLEAR_REFS, os.O_WRONLY), _opened(
                _STATUS, os.O_RDONLY)
        return self.clear_refs, self.status


def _opened(path: str, flags: int) -> int:
    try:
        return os.open(path, flags | os.O_CLOEXEC)
    except OSError:
        return -1


_FILES = _ProcFiles()


def reset_peak() -> bool:
    """Reset the kernel's high-water mark of resident memory; False where that is impossible."""
    clear_refs, _ = _FILES.descriptors()
    try:
        os.write(clear_refs, b"5")
    except OSError:
        return False
    return True


def peak_mb() -> float | None:
    """Peak resident memory (VmHWM) since the last reset, in MiB; None off Linux."""
    _, status = _FILES.descriptors()
    try:
        text = os.pread(status, 16384, 0)
    except OSError:
        return None
    start = text.find(b"VmHWM:")
    if start < 0:
        return None
    return int(text[start + 6:text.index(b"kB", start)]) / 1024


class PeakMemory:
    """Context manager that measures the peak resident memory of the block, in MiB."""

    def __init__(self) -> None:
        self.reset_worked = False
        self.value: float | None = None

    def __enter__(self) -> PeakMemory:
        self.reset_worked = reset_peak()
        return self

    def __exit__(self, *_: object) -> None:
        self.value = peak_mb() if self.reset_worked else None
