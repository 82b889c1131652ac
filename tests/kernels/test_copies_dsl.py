"""The reducing and compressing TMEM loads, the DSMEM store and the shared-to-peer bulk copy against
the CuTe DSL 4.8 (tests/data/copies_dsl48.jsonl, made by ``python -m tests.kernels.copies_dsl``, see
there): each atom cutepy builds has the DSL's thread ids and source and destination TV layouts, and
cutepy refuses what the DSL refuses, naming the argument the DSL's error is about. Where cutepy
refuses what the DSL's host side builds, the reason is PTX's (a store narrower than its element, a
bulk copy not a multiple of 16 bytes) and the cases are counted here."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from cutepy.core.errors import CutepyError
from cutepy.kernels.atoms.cluster_copy import copy_bulk_s2s_atom, copy_dsmem_store_atom
from cutepy.kernels.pointer import element_bits
from cutepy.kernels.tmem_reduce import TMEM_LOAD_RED_OPS, tmem_load_red_atom
from tests.kernels.copies_dsl import FILE, cases

ROWS = [json.loads(x) for x in FILE.read_text().splitlines() if not x.startswith("#")]


def build(c: dict) -> Any:
    if c["what"] == "tmem":
        return tmem_load_red_atom(c["op"], c["repeat"], c["red_op"], c["dtype"])
    if c["what"] == "dsmem":
        return copy_dsmem_store_atom(c["dtype"], c["bits"])
    return copy_bulk_s2s_atom(c["dtype"], c["bits"])


#: the DSL's error -> the argument cutepy's refusal names
ARGUMENT = {"number of repetitions": "repeat", "val_type": "element_type",
            "num_bits_per_copy": "num_bits_per_copy"}


def ptx_refuses(c: dict) -> bool:
    """The cases the DSL's host side builds and PTX cannot run."""
    if c["what"] == "dsmem":
        return 0 < c["bits"] < element_bits(c["dtype"])
    return c["what"] == "bulk_s2s" and (c["bits"] == 0 or c["bits"] % 128 != 0)


def check(row: dict) -> str:
    c = row["case"]
    if not row["built"]:
        arg = next(a for k, a in ARGUMENT.items() if k in row["error"])
        with pytest.raises(CutepyError, match=arg):
            build(c)
        return "refused"
    if ptx_refuses(c):
        with pytest.raises(CutepyError, match="num_bits_per_copy"):
            build(c)
        return "refused by PTX"
    a = build(c)
    got = (str(a.thr_id), str(a.layout_src_tv), str(a.layout_dst_tv))
    assert got == (row["thr_id"], row["src"], row["dst"]), c
    return "built"


def test_the_stored_rows_are_the_cases() -> None:
    assert [r["case"] for r in ROWS] == cases()


@pytest.mark.parametrize("i", range(len(cases())))
def test_copy_atom_equals_the_dsl(i: int) -> None:
    check(ROWS[i])


def test_outcomes() -> None:
    seen = Counter((r["case"]["what"], check(r)) for r in ROWS)
    assert seen[("tmem", "built")] >= 40 and seen[("tmem", "refused")] >= 100, seen
    assert seen[("dsmem", "built")] >= 10 and seen[("bulk_s2s", "built")] >= 6, seen
    # the DSL builds a 64-bit element in a 32-bit st.async, and bulk copies of 0 and 64 bits
    assert seen[("dsmem", "refused by PTX")] == 1 and seen[("bulk_s2s", "refused by PTX")] == 6, seen
    built = {r["case"]["op"] for r in ROWS if r["case"]["what"] == "tmem" and r["built"]}
    assert built == set(TMEM_LOAD_RED_OPS)
