"""cutepy's SM90 mainloop CollectiveBuilder against CUTLASS 4.7's, print for print: for each stored
configuration (tests/data/builders_sm90_mainloop_cxx47.txt, made by tests/builders/builder_cxx.py)
every member C++ printed equals cutepy's, and a configuration C++ rejects is refused with a
CutepyError that states one of the rules C++'s static_asserts state."""

from __future__ import annotations

import pytest

from cutepy.builders import collective_builder
from tests.builders import builder_cxx

STORED = builder_cxx.read(builder_cxx.FILE_MAINLOOP) if builder_cxx.FILE_MAINLOOP.is_file() else []


cxx_text, _args = builder_cxx.cxx_text, builder_cxx.arguments


def test_the_stored_sample_is_large_and_has_both_outcomes() -> None:
    assert len(STORED) >= 200
    rejected = sum("error" in s for _, s in STORED)
    assert 20 <= rejected <= len(STORED) - 150


@pytest.mark.parametrize("index", range(len(STORED)))
def test_collective_builder_equals_cutlass(index: int) -> None:
    builder_cxx.check_record(*STORED[index])


def test_the_issue_example_is_stored() -> None:
    """SM90, fp16 TN, alignment 8, tile 128x128x64, cluster 1x2x1: the prints the issue quotes."""
    c = collective_builder(
        "Sm90",
        "OpClassTensorOp",
        "half_t",
        "RowMajor",
        8,
        "half_t",
        "ColumnMajor",
        8,
        "float",
        (128, 128, 64),
        (1, 2, 1),
        "auto",
        "KernelScheduleAuto",
    )
    assert (
        cxx_text(c.smem_layout_a)
        == "Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_16),(_64,_1),(_1,_7)):((_64,_512),(_1,_0),(_0,_8192))"
    )
    assert (c.stages, c.tiled_mma.atom.shape_mnk, c.tiled_mma.size) == (7, (64, 128, 16), 256)
