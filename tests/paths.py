"""Where the suite's files are: the repository root, the package, and the stored references."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
PACKAGE = ROOT / "cutepy"
DATA = TESTS / "data"
