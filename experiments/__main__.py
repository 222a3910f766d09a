"""``python -m experiments`` and the ``puzzlelab`` script: the command line, imported here
so that a Ctrl-C during its imports is answered like one during a command, not with a
traceback. A reader that closes stdout early (``puzzlelab list | head``) ends the command
quietly, with status 0 (:mod:`experiments.cli.closed_pipe`)."""

import sys


def main() -> None:
    """Import the command line, run it, and end the process."""
    try:
        from puzzlelab.collector import start_up

        start_up()  # no collection while the command line is imported (puzzlelab.collector)
        from experiments.cli import main as run_command_line
        from experiments.cli.closed_pipe import run_guarded
        from puzzlelab.quick_exit import leave
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)  # as experiments.cli.INTERRUPTED, which cannot be imported yet
    try:
        run_guarded(run_command_line)
    except SystemExit as end:
        leave(end.code)
        raise
    leave(0)


if __name__ == "__main__":
    main()
