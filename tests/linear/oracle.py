"""Triton 3.9's answers for Gluon layouts, read from ``tests/data`` (no Triton needed).

``triton_linear_layouts.json``: seeded random specs of every family and random compositions;
``triton_linear_layouts_focus.json``: the families that sample held thinly (``FOCUS`` in
``benchmarks/triton_oracle.py``: NVMMA shared layouts transposed without swizzle at rank > 2,
fp4-padded, swizzled at rank 3-4; slices of rank-3 parents; transposed AMD MFMA layouts).
Each file's ``provenance`` says how it was made (``benchmarks/triton_oracle.py`` run with
Triton from PyPI on the CPU).
"""

from __future__ import annotations

import json
from functools import cache

from cutepy.linear import LinearLayout
from tests.paths import DATA

ORACLE = DATA / "triton_linear_layouts.json"
FOCUS = DATA / "triton_linear_layouts_focus.json"


@cache
def oracle(path: str = str(ORACLE)) -> dict:
    with open(path) as f:
        return json.load(f)


def focus() -> dict:
    return oracle(str(FOCUS))


def stored_layout(entry: dict) -> LinearLayout:
    """A stored ``{"bases": [[in_dim, bases], ...], "out_dims": [[name, size], ...]}`` as a LinearLayout."""
    return LinearLayout(
        {name: bases for name, bases in entry["bases"]}, [tuple(o) for o in entry["out_dims"]]
    )


def all_cases() -> list[dict]:
    """Every stored spec, the random sample's then the focused families'."""
    return oracle()["cases"] + focus()["cases"]


def accepted_cases() -> list[dict]:
    return [c for c in all_cases() if "rejected" not in c]
