"""Simon Tatham's Portable Puzzle Collection as studies and tests run it: where each
puzzle's program is, why a run without it is skipped, the game IDs it makes from fixed
seeds, and its own verdict on a game ID. One place, so that studies and tests look for
the programs alike.

The programs (Debian's ``sgt-puzzles``: ``sgt-solo``, ``sgt-rect``, ``sgt-bridges``,
``sgt-pattern``, in ``/usr/games``) print game IDs without a display with
``--generate N PARAMS#SEED``. ``--print 1x1`` reads game IDs from standard input and
draws them as PostScript, after parsing each: a game ID the program refuses ends it with
``error parsing '<ID>': <reason>`` and status 1, before any drawing (Pattern's drawing
then crashes on a display-less machine, after the parse has passed).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from puzzlelab.errors import UnsupportedCombination

PROGRAMS = {"sudoku": "sgt-solo", "shikaku": "sgt-rect", "hashi": "sgt-bridges",
            "nonogram": "sgt-pattern"}
"""Each puzzle's program in the collection."""
GAMES_FOLDER = Path("/usr/games")
"""Where Debian installs them, off most users' PATH."""
SECONDS = 120
"""How long one call of a program may take: generating a few IDs takes a second or two."""
INSTALL = "Debian: apt-get install sgt-puzzles"


def program(puzzle: str) -> Path | None:
    """The collection's program for ``puzzle`` (on the PATH or in /usr/games), or None."""
    name = PROGRAMS[puzzle]
    found = shutil.which(name) or shutil.which(name, path=str(GAMES_FOLDER))
    return None if found is None else Path(found)


def missing(puzzle: str) -> str:
    """Why a run that needs ``puzzle``'s program is skipped: it is not installed."""
    return (f"{PROGRAMS[puzzle]} is not installed ({INSTALL}; looked on the PATH and in "
            f"{GAMES_FOLDER})")


def installed(puzzle: str) -> Path:
    """The program for ``puzzle``; where it is not installed, an error saying so."""
    found = program(puzzle)
    if found is None:
        raise UnsupportedCombination(missing(puzzle))
    return found


def generated(puzzle: str, params: str, count: int = 1) -> list[str]:
    """``count`` game IDs the program makes from ``params`` (``3x3du#4``: a fixed seed)."""
    made = subprocess.run([str(installed(puzzle)), "--generate", str(count), params],
                          capture_output=True, text=True, timeout=SECONDS, check=True)
    return made.stdout.split()


def refusal(puzzle: str, game_id: str) -> str | None:
    """The program's reason for refusing ``game_id``, or None when it takes it."""
    read = subprocess.run([str(installed(puzzle)), "--print", "1x1"], input=game_id + "\n",
                          capture_output=True, text=True, timeout=SECONDS)
    said = [line for line in read.stderr.splitlines() if "error parsing" in line]
    return said[0] if said else None
