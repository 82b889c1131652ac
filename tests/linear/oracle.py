"""Triton 3.9's answers for Gluon layouts, read from ``tests/data/triton_linear_layouts.json``.

The file's ``provenance`` says how it was made (``benchmarks/triton_oracle.py`` run with
Triton from PyPI on the CPU); no Triton is needed to read it.
"""

from __future__ import annotations

import json
from functools import cache

from cutepy.linear import LinearLayout
from tests.paths import DATA

ORACLE = DATA / "triton_linear_layouts.json"


@cache
def oracle() -> dict:
    return json.loads(ORACLE.read_text())


def stored_layout(entry: dict) -> LinearLayout:
    """A stored ``{"bases": [[in_dim, bases], ...], "out_dims": [[name, size], ...]}`` as a LinearLayout."""
    return LinearLayout(
        {name: bases for name, bases in entry["bases"]}, [tuple(o) for o in entry["out_dims"]]
    )


def accepted_cases() -> list[dict]:
    return [c for c in oracle()["cases"] if "rejected" not in c]
