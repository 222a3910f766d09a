"""The pages (``README.md``, ``docs/*.md``) show the registries' tables exactly as
``python -m experiments.cli.reference`` makes them, and every file, module and page
anchor they point at exists."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from experiments.cli.reference import (
    marked_sections,
    pages,
    rewrite_pages,
    rewritten,
    section,
    section_names,
)
from puzzlelab.errors import PuzzleLabError, UnknownName
from tests.paths import ROOT

PAGES = pages()
LAYERS = "puzzles|solvers|viewpoints|experiments|puzzlelab|results|docs|tests"
#: a repository path written in a page, up to a placeholder (``results/<name>/``); a
#: link's own ``../`` is checked with the link
REPOSITORY_PATH = re.compile(rf"(?<![\w/.~-])((?:{LAYERS})/[\w./-]*[\w/])(?![\w<])")
#: the guides name the files a reader is about to write
GUIDES = "adding-*.md"
MODULE_RUN = re.compile(r"python -m ([\w.]+)")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_a_page_holds_the_tables_the_declarations_make(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert rewritten(text, PAGES[page]) == text, (
        f"{page_id(page)} is stale: run python -m experiments.cli.reference")


def test_every_table_is_on_some_page() -> None:
    """A command, a spec key or a viewpoint added later shows up on a page, since its
    table (or, for a command, its options table) must be on one."""
    shown = set().union(*(marked_sections(page.read_text(encoding="utf-8"))
                          for page in PAGES))
    assert set(section_names()) - shown == set()


def test_a_section_naming_no_table_is_refused() -> None:
    text = "<!-- no-such-table:begin -->\nold\n<!-- no-such-table:end -->\n"
    with pytest.raises(UnknownName, match="no-such-table"):
        rewritten(text)
    with pytest.raises(UnknownName, match="options-no-such-command"):
        section("options-no-such-command")


def test_a_section_that_never_ends_is_refused() -> None:
    with pytest.raises(PuzzleLabError, match="never ends"):
        marked_sections("<!-- backends:begin -->\n| stale |\n")


def test_rewriting_changes_only_what_lies_between_the_markers(tmp_path: Path) -> None:
    stale = "before\n<!-- spec-keys:begin -->\nstale\n<!-- spec-keys:end -->\nafter\n"
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("no sections\n", encoding="utf-8")
    (tmp_path / "docs" / "page.md").write_text(stale, encoding="utf-8")
    assert rewrite_pages(tmp_path) == [tmp_path / "docs" / "page.md"]
    made = (tmp_path / "docs" / "page.md").read_text(encoding="utf-8")
    assert made.startswith("before\n<!-- spec-keys:begin -->\n| key |")
    assert made.endswith("|\n<!-- spec-keys:end -->\nafter\n")
    assert "stale" not in made and "`time_limit`" in made
    assert rewrite_pages(tmp_path) == []  # made once, nothing left to change


def test_an_empty_section_is_filled_and_what_follows_it_kept() -> None:
    """A page is written with empty sections first, then made."""
    text = ("<!-- spec-keys:begin -->\n<!-- spec-keys:end -->\nbetween\n"
            "<!-- csv-columns:begin -->\n<!-- csv-columns:end -->\nthe end\n")
    made = rewritten(text)
    assert "`time_limit`" in made and "`run_key`" in made
    assert made.index("`time_limit`") < made.index("between") < made.index("`run_key`")
    assert made.endswith("<!-- csv-columns:end -->\nthe end\n")
    assert rewritten(made) == made


def test_links_are_made_for_the_page_they_are_on() -> None:
    assert "(results/sudoku-course/README.md)" in section("results", "")
    assert "(../results/sudoku-course/README.md)" in section("results", "../")


def slug(heading: str) -> str:
    """A heading's anchor, as GitHub makes it."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {slug(line.lstrip("#")) for line in page.read_text(encoding="utf-8").splitlines()
            if line.startswith("#")}


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_links_lead_to_files_and_headings_that_exist(page: Path) -> None:
    broken = []
    for link in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", link):
            continue  # a web address
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        if not target.exists() or (anchor and target.suffix == ".md"
                                   and anchor not in anchors(target)):
            broken.append(link)
    assert not broken, f"{page_id(page)}: broken links {broken}"


@pytest.mark.parametrize("page", [page for page in PAGES if not page.match(GUIDES)],
                         ids=page_id)
def test_the_files_and_modules_a_page_names_exist(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    missing = [path for path in REPOSITORY_PATH.findall(text)
               if ("." in path or path.count("/") > 1) and not (ROOT / path).exists()]
    missing += [f"python -m {module}" for module in MODULE_RUN.findall(text)
                if importlib.util.find_spec(module) is None]
    assert not missing, f"{page_id(page)} names what does not exist: {missing}"


def test_the_readme_is_for_a_newcomer() -> None:
    """Short, and no reference: a pitch, the quick start, a Python example and links.
    The registries' tables live in docs/, where they may grow with the registries."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 90
    assert marked_sections(readme) == {}
    assert "(docs/solvers.md)" in readme and "docs/experiments.md" in readme
