"""Collection at the repository root: with the optional compiled core present (``python -m
cutepy.build``), a hot module's ``.py`` is not collected for ``--doctest-modules`` (pytest would
import the compiled module and refuse the mismatch of files); ``tests/test_build.py`` runs those
doctests on the compiled modules instead. Without a compiled core nothing changes."""

from __future__ import annotations

import importlib.machinery
from pathlib import Path


def pytest_ignore_collect(collection_path: Path, config: object) -> bool | None:
    p = Path(collection_path)
    if p.suffix == ".py" and any(p.with_suffix(s).exists() for s in importlib.machinery.EXTENSION_SUFFIXES):
        return True
    return None
