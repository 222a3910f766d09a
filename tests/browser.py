"""Headless Chromium for the tests that look at a page in a real browser: the program,
or a skip saying why there is none, and one run of it with the flags every test uses.

Chromium is Debian's ``chromium`` package (``.ci/run`` installs it when missing).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--force-device-scale-factor=1", "--allow-file-access-from-files",
         "--virtual-time-budget=10000")


def browser() -> str:
    """The Chromium program, or skip the test saying why there is none."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("headless Chromium is not installed (Debian package chromium; .ci/run "
                "installs it): the page cannot be checked in a browser here")


def run_browser(program: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """One headless run of ``program`` with the common flags; a failed run fails the test."""
    done = subprocess.run([program, *FLAGS, *arguments], capture_output=True, text=True,
                          timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done
