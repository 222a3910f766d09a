"""The scripts a results README shows to recompute its figures from the committed
``runs.csv`` still run, and print them: a README whose data moved on would otherwise keep
a command that no longer works."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.paths import ROOT

SCRIPT = re.compile(r"^python - <<'(\w+)'\n(.*?)\n\1$", re.MULTILINE | re.DOTALL)
"""A script fed to ``python -`` through a quoted heredoc, as the READMEs write them."""


def scripts() -> list[tuple[str, str]]:
    """Every README script, as (where, its text)."""
    found = []
    for readme in sorted((ROOT / "results").glob("*/README.md")):
        text = readme.read_text(encoding="utf-8")
        for number, match in enumerate(SCRIPT.finditer(text), start=1):
            found.append((f"{readme.parent.name}#{number}", match.group(2)))
    return found


def test_the_readmes_show_their_scripts_in_the_form_the_test_reads() -> None:
    loose = [readme.parent.name for readme in (ROOT / "results").glob("*/README.md")
             if re.search(r"^python -c ", readme.read_text(encoding="utf-8"), re.MULTILINE)]
    assert loose == [], "write these as python - <<'END' ... END scripts"
    assert scripts()


@pytest.mark.parametrize(("where", "script"), scripts(), ids=[w for w, _ in scripts()])
def test_a_readme_script_runs_on_the_committed_rows(where: str, script: str) -> None:
    done = subprocess.run([sys.executable, "-"], input=script, cwd=ROOT, text=True,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, f"{where}: {done.stderr}"
    assert re.search(r"\d", done.stdout), f"{where} printed no figure"
