"""The C++ cutepy.emit writes for a collective compiles on the host, and its explicit CollectiveMma
is the very type CUTLASS's CollectiveBuilder makes (std::is_same_v), for a sample of the stored
configurations of every builder specialization."""

from __future__ import annotations

import pytest

from cutepy.builders import collective_builder
from cutepy.emit import cpp_collective
from tests.builders import builder_cxx

STORED = builder_cxx.read(builder_cxx.FILE_MAINLOOP) if builder_cxx.FILE_MAINLOOP.is_file() else []

#: the emitted C++ of the sample, each one compiled against CUTLASS 4.7.0 and found to be the
#: builder's very type (test_emitted_collective_is_the_builders_type); CI, whose wheel is 4.2,
#: compares the emitter's text with it. Made by:
#:   CUTEPY_CXX_CUTLASS=/work/cutlass47/include python -m pytest tests/builders/test_emit_collective.py \
#:     && python -m tests.builders.test_emit_collective
EMITTED = builder_cxx.FILE_MAINLOOP.parent / "builders_emit_cxx47.txt"
SEPARATOR = "\n// ---- next collective ----\n"


def _sample() -> list:
    """Up to three valid stored configurations of each builder specialization."""
    seen: dict[str, int] = {}
    out = []
    for config, sections in STORED:
        if "error" in sections:
            continue
        c = collective_builder(**builder_cxx.arguments(config))
        if seen.get(c.builder, 0) < 3:
            seen[c.builder] = seen.get(c.builder, 0) + 1
            out.append(c)
    return out


def test_emitted_collective_is_the_builders_type(cxx) -> None:
    if cxx.cutlass_version() != "4.7.0":  # the builders' internals differ in the 4.2 wheel CI installs
        pytest.skip(
            f"needs CUTLASS 4.7 headers (CUTEPY_CXX_CUTLASS=/work/cutlass47/include), not "
            f"{cxx.cutlass_version()}"
        )
    sample = _sample()
    assert len({c.builder for c in sample}) == 6
    cases = [
        cpp_collective(c) + "\nstatic_assert(std::is_same_v<CollectiveMainloop, CollectiveMainloopExplicit>);"
        "\nprint(typename CollectiveMainloopExplicit::SmemLayoutA{});"
        for c in sample
    ]
    results = cxx.run_cases(cases, includes=(str(builder_cxx.HOST),), preamble=builder_cxx._preamble())
    failed = [(c.arguments, r.error[:500]) for c, r in zip(sample, results) if not r.ok]
    assert not failed, failed
    for c, r in zip(sample, results):
        assert r.output == builder_cxx.cxx_text(c.smem_layout_a)
    assert EMITTED.read_text() == SEPARATOR.join(cpp_collective(c) for c in sample) + "\n"


def test_emitted_collective_is_the_one_cxx_47_accepted() -> None:
    """Without the 4.7 headers (CI), the emitter still writes, for each configuration of the sample,
    exactly the text that C++ 4.7 compiled and found equal to its CollectiveBuilder's type."""
    stored = EMITTED.read_text().rstrip("\n").split(SEPARATOR)
    sample = _sample()
    assert len(stored) == len(sample) >= 15  # up to 3 of each of the 6 specializations
    for c, text in zip(sample, stored):
        assert cpp_collective(c) == text, c.arguments


def test_cpp_collective_refuses_other_values() -> None:
    from cutepy.core.errors import CutepyError

    with pytest.raises(CutepyError, match="give the result of collective_builder"):
        cpp_collective("not a collective")
    sm100 = collective_builder(
        "Sm100",
        "OpClassTensorOp",
        "half_t",
        "RowMajor",
        8,
        "half_t",
        "ColumnMajor",
        8,
        "float",
        (128, 128, 64),
        (1, 1, 1),
        "auto",
        "KernelScheduleAuto",
    )
    with pytest.raises(CutepyError, match="writes SM90 collectives"):
        cpp_collective(sm100)


if __name__ == "__main__":  # write the stored emission (after the 4.7 compile test passed)
    EMITTED.write_text(SEPARATOR.join(cpp_collective(c) for c in _sample()) + "\n")
