"""Damaged files: every reader ends in instances or one clear error, never a traceback or a hang.

Every format the puzzles read is seeded from the bundled data (and the shared data
folder, when there is one) and damaged the ways files get damaged
(:mod:`tests.puzzles.damage`). Each mutant is read by *every* puzzle's reader, as
``puzzlelab solve`` does when the chosen puzzle's reader refuses a file; each must
give instances or a ``ParseError`` naming the file and a line. Some mutants go on
through ``puzzlelab solve`` in process: a file that reads must solve with a checked
answer (or end cleanly at the time limit), one that does not must exit with status 2
and one line naming file and line. The default run is a few hundred mutants;
``--runslow`` adds thousands.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from experiments.cli import main
from puzzlelab.errors import ParseError, UnsupportedCombination
from puzzles import PUZZLES, PuzzleKind
from tests.paths import ROOT
from tests.puzzles.damage import DAMAGES, Mutant, Seed, excerpt, mutants

SHARED_DATA = ROOT.parent / "shared" / "data"
SEEDS_PER_FOLDER = 8  # files of one suffix in one folder: some formats share a suffix
READ_SECONDS = 2.0  # a reader's answer to a damaged file, at most
SOLVE_SECONDS = 15.0  # ``solve --time-limit 1`` of a file that reads: 1 s of search, building
DEFAULT_MUTANTS = 600
SLOW_MUTANTS = 10_000
SOLVES_EACH = 5  # mutants of each puzzle that read, and that do not, also solved
NOTHING_TO_READ = "no puzzle found"
"""The one refusal without a line: an empty file (or one of comments) has none to blame."""


def _companions(path: Path) -> list[Path]:
    """The files read with ``path``: ``X.*`` beside ``X.suffix`` (solutions, ``.out``)."""
    return sorted(p for p in path.parent.glob(f"{path.stem}.*")
                  if p != path and p.suffix != ".md")


def _seeds() -> list[Seed]:
    """A few files of each suffix of each data folder of each puzzle, cut short, deduplicated."""
    seeds, seen = [], set()
    for name in PUZZLES:
        kind = PUZZLES.get(name)
        for root in (kind.data_folder(), SHARED_DATA / name):
            by_folder: dict[tuple[Path, str], list[Path]] = defaultdict(list)
            files = sorted(root.rglob("*")) if root.is_dir() else []
            for path in files:
                if kind.is_instance_file(path):
                    by_folder[(path.parent, path.suffix)].append(path)
            for group in by_folder.values():
                for path in group[:SEEDS_PER_FOLDER]:
                    data = _seed_files(name, path)
                    key = tuple(data.values())
                    if key not in seen:
                        seen.add(key)
                        seeds.append(Seed(name, data))
        seeds += _written_seeds(name)
    return seeds


def _seed_files(name: str, path: Path) -> dict[str, bytes]:
    """``path`` and its companions, each cut to its first instances when that still reads
    (a file of one large instance is kept whole)."""
    whole = {p.name: p.read_bytes() for p in [path, *_companions(path)]}
    cut = {file_name: excerpt(data) for file_name, data in whole.items()}
    if cut == whole:
        return whole
    with tempfile.TemporaryDirectory() as folder:
        for file_name, data in cut.items():
            (Path(folder) / file_name).write_bytes(data)
        try:
            return cut if PUZZLES.get(name).read(Path(folder) / path.name) else whole
        except ParseError:
            return whole


def _written_seeds(name: str) -> list[Seed]:
    """What PuzzleLab writes, which no shipped file need be in (Hashi's ``.has``): the
    smallest bundled file's first instance with its solution, its text picture when
    that reads back (a Sudoku in grid lines), and a file of game IDs."""
    kind = PUZZLES.get(name)
    smallest = min((path for data_set in kind.data_sets() for path in data_set.files),
                   key=lambda path: path.stat().st_size)
    instance = kind.read(smallest)[0]
    suffix = kind.suffixes[0]
    seeds = [Seed(name, {f"written{suffix}": kind.write(
        instance, kind.known_solution(instance)).encode()}),
             Seed(name, {"game-ids.txt": game_ids_of(kind).encode()})]
    picture = kind.render_text(instance)
    try:
        if kind.parse(picture, f"picture{suffix}"):
            seeds.append(Seed(name, {f"picture{suffix}": picture.encode()}))
    except ParseError:
        pass  # this puzzle's picture is no input format
    return seeds


def game_ids_of(kind: PuzzleKind[Any, Any], most: int = 3) -> str:
    """A file of game IDs: of the first instances of the smallest bundled files that a
    game ID holds, with a comment and a blank line between them."""
    ids: list[str] = []
    for path in sorted((path for data_set in kind.data_sets() for path in data_set.files),
                       key=lambda path: path.stat().st_size):
        for instance in kind.read(path)[:most]:
            with contextlib.suppress(UnsupportedCombination):
                ids.append(kind.game_id(instance))
        if len(ids) >= most:
            break
    return "# game IDs\n" + "\n\n".join(ids[:most]) + "\n"


SEEDS = _seeds()


def read_each(path: Path) -> dict[str, list[Any] | ParseError]:
    """What every puzzle's reader makes of ``path``: its instances, or its ``ParseError``."""
    answers: dict[str, list[Any] | ParseError] = {}
    for name in PUZZLES:
        try:
            answers[name] = PUZZLES.get(name).read(path)
        except ParseError as error:
            answers[name] = error
    return answers


def assert_read_cleanly(found: Mutant, folder: Path) -> dict[str, list[Any] | ParseError]:
    """Every reader gives instances or a ``ParseError`` with the file and a line, in time."""
    path = found.write(folder)
    started = time.perf_counter()
    answers = read_each(path)
    assert time.perf_counter() - started < READ_SECONDS * len(answers), found
    for name, answer in answers.items():
        if isinstance(answer, ParseError):
            assert answer.source.startswith(str(folder)), (found, name, answer)
            if answer.message.startswith(NOTHING_TO_READ):
                continue
            assert answer.line is not None and answer.line >= 1, (found, name, answer)
            assert "\n" not in str(answer), (found, name, answer)
        else:
            assert answer, (found, name)
    return answers


def test_every_seed_reads_and_every_format_is_seeded() -> None:
    """Every puzzle and every suffix it reads is among the seeds."""
    seeded = set()
    for seed in SEEDS:
        path_name = next(iter(seed.files))
        seeded.add((seed.puzzle, Path(path_name).suffix))
    for name in PUZZLES:
        assert {(name, suffix) for suffix in PUZZLES.get(name).suffixes} <= seeded
    assert len(SEEDS) >= 20


def test_seeds_read(tmp_path: Path) -> None:
    """The undamaged seeds read, so a mutant's error is its damage's."""
    for number, seed in enumerate(SEEDS):
        folder = tmp_path / str(number)
        folder.mkdir()
        for file_name, data in seed.files.items():
            (folder / file_name).write_bytes(data)
        assert PUZZLES.get(seed.puzzle).read(folder / next(iter(seed.files))), seed.label


@pytest.mark.parametrize("first", range(0, DEFAULT_MUTANTS, 200),
                         ids=lambda first: f"mutants-{first}")
def test_damaged_files_read_or_are_refused_with_file_and_line(tmp_path: Path,
                                                              first: int) -> None:
    for found in mutants(SEEDS, 200, first):
        folder = tmp_path / str(found.number)
        folder.mkdir()
        assert_read_cleanly(found, folder)


@pytest.mark.slow
@pytest.mark.parametrize("first", range(DEFAULT_MUTANTS, SLOW_MUTANTS, 1_000),
                         ids=lambda first: f"mutants-{first}")
def test_thousands_of_damaged_files(tmp_path: Path, first: int) -> None:
    for found in mutants(SEEDS, 1_000, first):
        folder = tmp_path / str(found.number)
        folder.mkdir()
        assert_read_cleanly(found, folder)


def test_every_damage_is_drawn_and_changes_a_file() -> None:
    changed = {found.how for found in mutants(SEEDS, DEFAULT_MUTANTS)
               if found.files != found.seed.files}
    assert changed == set(DAMAGES)


def _solve_in_process(found: Mutant, path: Path,
                      capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``puzzlelab solve`` of the mutant's first instance, with a short time limit."""
    started = time.perf_counter()
    try:
        main(["solve", found.seed.puzzle, str(path), "--instance", "1", "--time-limit", "1",
              "--json"])
        code = 0
    except SystemExit as stopped:
        code = int(stopped.code or 0)
    seconds = time.perf_counter() - started
    assert seconds < (READ_SECONDS if code == 2 else SOLVE_SECONDS), (found, seconds)
    out, err = capsys.readouterr()
    return code, out, err


def assert_exit_2_at_a_line(found: object, path: Path, code: int, err: str) -> None:
    """Exit status 2 and one line naming the file and a line number in it."""
    assert code == 2, (found, err)
    [line] = err.strip().splitlines()
    at_line = "" if NOTHING_TO_READ in line else ":[0-9]+(:[0-9]+)?"
    assert re.search(rf"{re.escape(str(path.parent))}/[^:]+{at_line}: ", line), (found, line)


@pytest.mark.parametrize("puzzle", list(PUZZLES))
def test_puzzlelab_solve_of_damaged_files(tmp_path: Path, puzzle: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The default run's first mutants of ``puzzle`` that read, and as many that do not,
    through ``puzzlelab solve``: one that reads is solved with a checked answer (or found
    unsatisfiable, or stopped at the time limit: it ends cleanly without an answer); one
    that does not exits with status 2 and one line naming file and line."""
    solved = {True: 0, False: 0}
    for found in mutants(SEEDS, DEFAULT_MUTANTS):
        if found.seed.puzzle != puzzle:
            continue
        folder = tmp_path / str(found.number)
        folder.mkdir()
        path = found.write(folder)
        try:
            reads = bool(PUZZLES.get(puzzle).read(path))
        except ParseError:
            reads = False
        if solved[reads] == SOLVES_EACH:
            if min(solved.values()) == SOLVES_EACH:
                break
            continue
        solved[reads] += 1
        code, out, err = _solve_in_process(found, path, capsys)
        assert "Traceback" not in out + err, found
        if not reads:
            assert_exit_2_at_a_line(found, path, code, err)
            continue
        assert code == 0, (found, err)
        record = json.loads(out)
        assert record["status"] in ("solved", "unsatisfiable", "timeout"), (found, record)
        if record["status"] == "solved":
            assert record["verdict"] == "correct" and record["violations"] == [], (found, record)
    assert solved == {True: SOLVES_EACH, False: SOLVES_EACH}


# ---------------------------------------------------------------- what the corpus found

HUGE = "9" * 10_000
BILLION = "1000000000"
FOUND = {
    "sudoku size line": ("sudoku", "b.txt", f"{HUGE}\n", 1, "a number of 10,000 digits"),
    "sudoku grid row": ("sudoku", "b.txt", " ".join(map(str, range(1, 17))) + "\n"
                        + "0 " * 15 + HUGE + "\n", 2, "a number of 10,000 digits"),
    "nonogram clue line": ("nonogram", "b.non", f"width 1\nheight 1\nrows\n{HUGE}\n", 4,
                           "a number of 10,000 digits"),
    "nonogram width": ("nonogram", "b.non", f"width {HUGE}\n", 1, "a number of 10,000 digits"),
    "nonogram pattern": ("nonogram", "b.dzn",
                         f"X = 1;\nY = 1;\nrows = [|{HUGE}|];\ncols = [|1|];\n", 3,
                         "a number of 10,000 digits"),
    "hashi island": ("hashi", "b.txt", f"1 2\n{HUGE} 1\n", 2, "a number of 10,000 digits"),
    "shikaku clue": ("shikaku", "b.txt", f"== a\n1 1\n{HUGE}\n", 3,
                     "a number of 10,000 digits"),
    "sudoku billion": ("sudoku", "b.txt", f"== a\nproblem:\n{BILLION} {BILLION}\n",
                       3, "grid size of 1,000,000,000 is more than"),
    "hashi billion": ("hashi", "b.txt", f"{BILLION} {BILLION}\n", 1,
                      "grid side of 1,000,000,000 is more than"),
    "shikaku billion": ("shikaku", "b.txt", f"== a\n{BILLION} {BILLION}\n", 2,
                        "grid side of 1,000,000,000 is more than"),
    "nonogram billion": ("nonogram", "b.non", f"width 5\nheight {BILLION}\n", 2,
                         "height of 1,000,000,000 is more than"),
    "nonogram section without clues": ("nonogram", "b.non",
                                       "width 2\nheight 2\nrows\n1\n1\ncolumns\n", 6,
                                       "'columns' has 0 clue lines"),
    "binary bytes": ("shikaku", "b.txt", "== a\n1 1\n\udcff\n", 3, "not a text file"),
}


@pytest.mark.parametrize(("puzzle", "name", "text", "line", "message"), FOUND.values(),
                         ids=FOUND.keys())
def test_what_the_corpus_found_is_refused_at_its_line(tmp_path: Path, puzzle: str, name: str,
                                                      text: str, line: int,
                                                      message: str) -> None:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(ParseError, match=message) as caught:
        PUZZLES.get(puzzle).read(path)
    assert (caught.value.source, caught.value.line) == (str(path), line)
    assert len(str(caught.value)) < 200  # one readable line, not the number again


@pytest.mark.parametrize("case", ["sudoku size line", "nonogram clue line"])
def test_a_number_of_10000_digits_exits_2_in_a_subprocess(tmp_path: Path, case: str) -> None:
    """The traceback of the report, end to end: ``puzzlelab solve`` as a user runs it."""
    puzzle, name, text, line, _ = FOUND[case]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "experiments", "solve", puzzle, str(path)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert time.perf_counter() - started < 10  # the interpreter's start-up included
    assert "Traceback" not in done.stderr
    assert_exit_2_at_a_line(case, path, done.returncode, done.stderr)
    assert f"{path}:{line}:" in done.stderr


@settings(derandomize=True, max_examples=150, deadline=None)
@given(text=st.text(alphabet=st.sampled_from("0123456789-.=|#%;,[]:ab \n\t\r"),
                    max_size=200),
       source=st.sampled_from(["t.txt", "t.non", "t.dzn"]))
def test_any_text_parses_or_is_refused(text: str, source: str) -> None:
    """Text of the characters the formats are made of: every parser gives instances or a
    ``ParseError``, nothing else."""
    for name in PUZZLES:
        try:
            assert PUZZLES.get(name).parse(text, source)
        except ParseError as error:
            assert error.source == source
