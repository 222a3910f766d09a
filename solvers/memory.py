"""Peak resident memory of this process over one run (Linux), so each run reports its own peak."""

from __future__ import annotations

from pathlib import Path

_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")


def reset_peak() -> bool:
    """Reset the kernel's high-water mark of resident memory; False where that is impossible."""
    try:
        _CLEAR_REFS.write_text("5")
    except OSError:
        return False
    return True


def peak_mb() -> float | None:
    """Peak resident memory (VmHWM) since the last reset, in MiB; None off Linux."""
    try:
        for line in _STATUS.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


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
