"""cutepy's SM120 (F8F6F4 warp-level MMA) mainloop CollectiveBuilder against CUTLASS 4.7's, print for
print: each stored configuration (tests/data/builders_sm120_mainloop_cxx47.txt, made by
tests/builders/builder_cxx.py) equals C++'s members, and a configuration C++ rejects is refused
with one of its static_assert rules."""

from __future__ import annotations

import pytest

from tests.builders import builder_cxx

STORED = builder_cxx.read(builder_cxx.FILE_SM120) if builder_cxx.FILE_SM120.is_file() else []


def test_the_stored_sample_is_large_and_has_both_outcomes() -> None:
    assert len(STORED) >= 200
    rejected = sum("error" in s for _, s in STORED)
    assert 10 <= rejected <= len(STORED) - 100


@pytest.mark.parametrize("index", range(len(STORED)))
def test_sm120_collective_builder_equals_cutlass(index: int) -> None:
    builder_cxx.check_record(*STORED[index])
