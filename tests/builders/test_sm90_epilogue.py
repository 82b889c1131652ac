"""cutepy's SM90 epilogue CollectiveBuilder against CUTLASS 4.7's, print for print: for each stored
configuration (tests/data/builders_sm90_epilogue_cxx47.txt, made by tests/builders/builder_cxx.py)
every member C++ printed equals cutepy's, and a configuration C++ rejects is refused with a
CutepyError that states one of the rules C++'s static_asserts state."""

from __future__ import annotations

import pytest

from cutepy.builders import epilogue_builder
from cutepy.core.errors import CutepyError
from tests.builders import builder_cxx

STORED = builder_cxx.read(builder_cxx.FILE_EPILOGUE) if builder_cxx.FILE_EPILOGUE.is_file() else []


def test_the_stored_sample_is_large_and_has_both_outcomes() -> None:
    assert len(STORED) >= 200
    rejected = sum("error" in s for _, s in STORED)
    assert 10 <= rejected <= len(STORED) - 150


@pytest.mark.parametrize("index", range(len(STORED)))
def test_epilogue_builder_equals_cutlass(index: int) -> None:
    config, sections = STORED[index]
    if "error" in sections:
        rules = [r for r in sections["error"].splitlines() if r and not r.startswith("error:")]
        with pytest.raises(CutepyError) as info:
            epilogue_builder(**builder_cxx.arguments(config))
        if rules:  # a static_assert: cutepy says the same rule
            assert any(r.rstrip(".") in str(info.value) for r in rules), (str(info.value), rules)
        return
    got = epilogue_builder(**builder_cxx.arguments(config)).members()
    assert set(got) == set(sections), (sorted(got), sorted(sections))
    text = builder_cxx.cxx_text
    wrong = {k: (text(got[k]), sections[k]) for k in sections if text(got[k]) != sections[k].rstrip("\n")}
    assert not wrong, wrong
