"""How each automata kernel is compiled (once, for one signature) and where its machine
code is kept between processes.

numba keeps a compiled kernel on disk, keyed by its source file's content, by default
beside the source (``__pycache__``), so each new clone, install or virtual environment
(CI makes a fresh one for every run) would compile the kernels again. Here they are
kept in one folder per user instead,
``$PUZZLELAB_CACHE_DIR``, else ``$XDG_CACHE_HOME/puzzlelab`` (``~/.cache/puzzlelab``),
under ``numba-<digest of the kernels' source>``: any checkout of the same kernels on
this machine reuses them (loading is a fraction of compiling), and a changed kernel gets
a folder of its own. ``NUMBA_CACHE_DIR``, when set, wins, as numba
documents. Where none of these folders can be written, numba's own places are used.

The kernels are optimised at LLVM's level 1, not numba's default 3: their branchy
loops search faster so and compile sooner (measured: docs/defaults.md). ``NUMBA_OPT``,
when set, wins.

``python -m solvers.backends.automata.warm_up`` compiles them ahead (for an image or a
CI step), and prints where they are and how long it took. Once every kernel is there, a
marker file says so (:func:`kernels_ready`), so that the first solve on a machine can
say beforehand that it compiles them and for how long.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from numba import njit
from numba.core import config

try:  # public in numba 0.68; an older numba keeps its own cache places
    from numba.core.caching import (
        CompileResultCacheImpl,
        FunctionCache,
        InTreeCacheLocator,
        UserWideCacheLocator,
    )
except ImportError:  # pragma: no cover (depends on the numba installed)
    FunctionCache = None

KERNELS = tuple(sorted(Path(__file__).with_name("kernels").glob("*.py")))
"""The modules of compiled kernels (the package holds nothing else): their source decides
the cache's folder."""
#: LLVM's optimisation level for the kernels (see above)
OPTIMISATION_LEVEL = 1


def optimisation_level() -> str:
    """The level the kernels are compiled at: ``NUMBA_OPT`` when set, else ours."""
    return os.environ.get("NUMBA_OPT") or str(OPTIMISATION_LEVEL)


def cache_folder() -> Path:
    """Where the kernels' machine code is kept on this machine."""
    if config.CACHE_DIR:
        return Path(config.CACHE_DIR)
    given = os.environ.get("PUZZLELAB_CACHE_DIR")
    base = Path(given) if given else Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "puzzlelab"
    return base / f"numba-{_source_digest()}-opt{optimisation_level()}"


@cache
def _source_digest() -> str:
    digest = hashlib.sha256()
    for path in KERNELS:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


if FunctionCache is not None:

    class _UserFolder(UserWideCacheLocator):  # type: ignore[misc, valid-type]
        """numba's per-user locator, in our folder, whatever the source's path."""

        def __init__(self, py_func: Callable[..., Any], py_file: str) -> None:
            super().__init__(py_func, py_file)
            self._cache_path = str(cache_folder())

    class _KernelCacheImpl(CompileResultCacheImpl):  # type: ignore[misc, valid-type]
        _locator_classes: ClassVar[list[type]] = [_UserFolder, InTreeCacheLocator,
                                                  UserWideCacheLocator]

    class _KernelCache(FunctionCache):  # type: ignore[misc, valid-type]
        _impl_class = _KernelCacheImpl


@contextmanager
def _kernels_optimisation() -> Iterator[None]:
    """numba's optimisation level set to the kernels' while they compile, then put back."""
    if "NUMBA_OPT" in os.environ:
        yield
        return
    previous = config.OPT
    config.OPT = type(previous)(OPTIMISATION_LEVEL)
    try:
        yield
    finally:
        config.OPT = previous


def compiled(*argument_types: Any) -> Callable[[Callable[..., Any]], Any]:
    """Compile the decorated function for ``argument_types`` now (or load it from the
    cache), and for nothing else: a call with other types is converted to these, so
    a literal argument from another kernel does not compile it again."""

    def compile_kernel(function: Callable[..., Any]) -> Any:
        kernel = njit(function)
        if FunctionCache is not None:
            kernel._cache = _KernelCache(function)
        else:  # pragma: no cover
            kernel.enable_caching()
        with _kernels_optimisation():
            kernel.compile(argument_types)
        kernel.disable_compile()
        return kernel

    return compile_kernel


READY = "kernels-ready"
"""The marker file, in :func:`cache_folder`, of kernels all compiled and kept there."""
COMPILE_SECONDS = 3
"""What compiling every kernel takes, about, as the first solve on a machine says it
(measured: docs/defaults.md)."""


def kernels_ready() -> bool:
    """Whether every kernel's machine code is kept on this machine (loading it takes a
    fraction of a second; compiling, :data:`COMPILE_SECONDS`)."""
    return (cache_folder() / READY).is_file()


def mark_ready() -> None:
    """Say that every kernel is compiled and kept (after importing every kernel module)."""
    try:
        folder = cache_folder()
        if folder.is_dir():
            (folder / READY).touch()
    except OSError:  # a folder we cannot write: the next first use says it compiles again
        pass
