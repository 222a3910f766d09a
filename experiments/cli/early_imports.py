"""The report's libraries imported while a campaign's runs go on: the command line's own
tuning of its own process, which a library call of the same campaign leaves out."""

from __future__ import annotations

import importlib
import sys
import threading

from puzzlelab.collector import making_lasting_objects


class ImportOnFirstRun:
    """Called as each run is stored: once the first one is, imports ``module`` and calls
    its ``prepare()`` in a thread. The report's libraries (matplotlib, Jinja2) and its
    templates take half a second, which the runs hide, as the runner then mostly waits
    for its workers (started earlier, the import would slow the runner's own
    preparations, which hold Python's interpreter lock)."""

    def __init__(self, module: str) -> None:
        self.module: str | None = module

    def __call__(self, task: object, record: object) -> None:
        if self.module is not None:
            threading.Thread(target=self._import, args=(self.module,), daemon=True,
                             name=f"import {self.module}").start()
            self.module = None

    @staticmethod
    def _import(module: str) -> None:
        # the runner's thread waits for results: a short switch interval lets it take the
        # interpreter back at once when one comes, rather than after 5 ms of importing
        interval = sys.getswitchinterval()
        sys.setswitchinterval(min(interval, 0.0005))
        try:
            with making_lasting_objects():  # matplotlib's (puzzlelab.collector)
                importlib.import_module(module).prepare()
        finally:
            sys.setswitchinterval(interval)
