"""The README's examples run, and its test command is the one CI runs."""

from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_examples_run():
    result = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 0
    assert result.failed == 0


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    line = [x for x in ci.splitlines() if "pytest" in x][-1].strip()
    assert line in (ROOT / "README.md").read_text()
