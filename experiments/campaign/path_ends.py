"""The shortest end of each of several paths that tells it from the others: how a
campaign labels instances named after their files, and stores that share a name."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath


def distinct_path_ends(paths: Sequence[str]) -> list[str]:
    """For each path, its shortest end (last folders and the file name, suffix left out
    unless it is what tells two files apart) that no other path ends with.

    >>> distinct_path_ends(["data/a/p.txt", "data/b/p.txt", "data/q.txt", "data/b/p.txt"])
    ['a/p', 'b/p', 'q', 'b/p']
    >>> distinct_path_ends(["x/p.txt", "x/p.sdk"])
    ['p.txt', 'p.sdk']
    """
    distinct = list(dict.fromkeys(paths))  # each file once, however many instances it has
    whole = [PurePath(path).parts for path in distinct]
    stems = [_without_suffix(parts) for parts in whole]
    # a file keeps its suffix where another file differs from it by the suffix alone
    forms = [stem if stems.count(stem) == 1 else parts for parts, stem in zip(whole, stems)]
    ends = {}
    for path, form in zip(distinct, forms):
        others = {other for other in forms if other != form}
        length = 1
        while length < len(form) and any(other[-length:] == form[-length:] for other in others):
            length += 1
        ends[path] = "/".join(form[-length:])
    return [ends[path] for path in paths]


def _without_suffix(parts: tuple[str, ...]) -> tuple[str, ...]:
    return (*parts[:-1], PurePath(parts[-1]).stem) if parts else parts
