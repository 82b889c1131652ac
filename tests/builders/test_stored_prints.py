"""The stored C++ prints of every builder family are what CUTLASS 4.7's headers print today: the
first configurations of each sample compiled again (slow: C++ on the host; needs the 4.7 headers,
CUTEPY_CXX_CUTLASS=/work/cutlass47/include)."""

from __future__ import annotations

import pytest

from tests.builders import builder_cxx
from tests.kernels import tma_cxx

#: family -> (stored file, C++ case, host header, extra preamble)
FAMILIES = {
    "sm90_mainloop": (builder_cxx.FILE_MAINLOOP, builder_cxx.mainloop_case, builder_cxx.HOST, ""),
    "sm90_epilogue": (builder_cxx.FILE_EPILOGUE, builder_cxx.epilogue_case, builder_cxx.HOST_EPILOGUE, ""),
    "sm100_mainloop": (
        builder_cxx.FILE_SM100,
        builder_cxx.sm100_case,
        builder_cxx.HOST,
        builder_cxx.PRINT_SM100,
    ),
    "sm120_mainloop": (builder_cxx.FILE_SM120, builder_cxx.mainloop_case, builder_cxx.HOST, ""),
    "sm90_tma": (
        builder_cxx.FILE_TMA,
        builder_cxx.tma_case,
        builder_cxx.HOST_TMA,
        tma_cxx.STUB + builder_cxx.PRINT_TMA,
    ),
}
FIRST = 16


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_the_stored_prints_are_what_cxx_prints_now(cxx, family: str) -> None:
    if cxx.cutlass_version() != "4.7.0":
        pytest.skip(f"the stored prints are CUTLASS 4.7's; the headers in use are {cxx.cutlass_version()}")
    path, case, host, extra = FAMILIES[family]
    stored = builder_cxx.read(path)[:FIRST]
    again = builder_cxx.run([builder_cxx.arguments(c) for c, _ in stored], case, None, host, extra)
    for (config, sections), (_, text) in zip(stored, again):
        if "error" in sections:  # which rules a unit's diagnostics list depends on its other cases
            assert text.startswith("@error"), config
            assert set(text.splitlines()[1:]) & set(sections["error"].splitlines()), config
            continue
        expected = "\n".join(f"@{k}\n{v}" for k, v in sections.items())
        assert text.rstrip() == expected.rstrip(), config
