"""``python -m experiments`` and the ``puzzlelab`` script: the command line, imported here
so that a Ctrl-C during its imports is answered like one during a command, not with a
traceback. A reader that closes stdout early (``puzzlelab list | head``) ends the command
quietly, with status 0 (:mod:`experiments.cli.closed_pipe`)."""

import sys


def main() -> None:
    """Import the command line, run it, and end the process."""
    try:
        from experiments.cli import main as run_command_line
        from experiments.cli.closed_pipe import run_guarded
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)  # as experiments.cli.INTERRUPTED, which cannot be imported yet
    try:
        run_guarded(run_command_line)
    except SystemExit as end:
        leave(end.code)
        raise
    leave(0)


def leave(code: object) -> None:
    """End the process with ``code`` (as ``sys.exit`` takes it) without the interpreter's
    teardown, which frees every module and object one by one: a tenth of a second after a
    campaign, longer than some commands. Everything a command writes is closed when it
    returns; the exit functions still run and the streams are flushed. While a thread
    that is not a daemon still runs, or a profiler or tracer (``python -m cProfile``)
    still has to write its figures, the interpreter ends as usual."""
    # imported here, not above: until the command line's own imports have begun, a
    # Ctrl-C during the start-up's imports would not be handled
    import atexit
    import os
    import threading
    from contextlib import suppress

    if sys.getprofile() is not None or sys.gettrace() is not None or any(
            not t.daemon and t is not threading.main_thread() for t in threading.enumerate()):
        return
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError, ValueError):  # a closed pipe or stream: nothing more to say
            stream.flush()
    os._exit(code or 0)


if __name__ == "__main__":
    main()
