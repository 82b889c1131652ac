"""The SM90 TMA collectives' ``tma_load_a`` / ``tma_load_b`` (C++'s ``Params::TMA_A`` / ``TMA_B``)
against CUTLASS 4.7's, for a seeded sample of the stored valid TMA configurations
(tests/data/builders_sm90_tma_cxx47.txt, made by ``python -m tests.builders.builder_cxx tma``):
the TiledCopy's print (tiler, TiledLayout_TV, Copy_Atom layouts and value type) and the gmem basis
of the default-constructed ``TMA_A``/``TMA_B``, and the descriptor C++ encodes (recording stub of
``cuTensorMapEncodeTiled``) for a problem of one CTA tile, L = 1, at address 0, made by
``make_tma_copy_A_sm90``/``_B_sm90`` on a gmem tensor whose type C++ checks is ``TMA_A``/``TMA_B``'s."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cutepy.builders import collective_builder
from cutepy.core.errors import CutepyError
from tests.builders import builder_cxx
from tests.kernels.tma_cxx import parse_output

STORED = builder_cxx.read(builder_cxx.FILE_TMA) if builder_cxx.FILE_TMA.is_file() else []
cxx_text, _args = builder_cxx.cxx_text, builder_cxx.arguments


def _descriptor(x: object) -> dict:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in vars(x.descriptor).items()}  # type: ignore[attr-defined]


def test_the_stored_sample_covers_every_tma_collective() -> None:
    built = [(c, s) for c, s in STORED if "error" not in s]
    assert len(built) >= 50
    builders = {collective_builder(**_args(c)).builder for c, _ in built}
    assert builders == {"GMMA_TMA_WS_SS", "GMMA_TMA_WS_RS", "GMMA_TMA_WS_FP8_FAST_ACCUM_SS", "GMMA_TMA_SS"}
    value_types = {s["tma_load_a"].splitlines()[-1].split()[-1] for _, s in built}
    assert value_types >= {"8b", "16b", "32b"}
    assert any(c["cluster_shape"] != [1, 1, 1] for c, _ in built)


@pytest.mark.parametrize("index", range(len(STORED)))
def test_tma_loads_equal_cutlass(index: int) -> None:
    config, sections = STORED[index]
    c = collective_builder(**_args(config))
    if "error" in sections:  # C++ builds the type but its run-time assert on the box refuses it
        assert "smem_box_shape" in sections["error"] or "make_tma_copy_desc" in sections["error"]
        with pytest.raises(CutepyError, match="box dimension"):
            c.tma_load_a, c.tma_load_b  # noqa: B018
        return
    for name in ("tma_load_a", "tma_load_b"):
        got = getattr(c, name)
        assert cxx_text(got) == sections[name].rstrip("\n"), name
        assert format(got.gbasis, "cxx") == sections[f"{name}_gbasis"].strip(), name
        cxx = parse_output(sections[f"{name}_descriptor"])
        assert "driver_rejects" not in cxx
        assert _descriptor(got) == cxx["descriptor"], name


def _fp16_tn(schedule: str) -> object:
    """fp16 TN, alignment 8, tile 128x128x64, cluster 1x2x1 under ``schedule``."""
    args = ("half_t", "RowMajor", 8, "half_t", "ColumnMajor", 8, "float", (128, 128, 64), (1, 2, 1))
    return collective_builder("Sm90", "OpClassTensorOp", *args, "auto", schedule)


def test_cp_async_collectives_have_no_tma_loads() -> None:
    c = _fp16_tn("KernelCpAsyncWarpSpecialized")
    assert (c.tma_load_a, c.tma_load_b) == (None, None)
    with pytest.raises(CutepyError, match="cp.async"):
        c.make_tma_load("a")


def test_make_tma_load_refuses_bad_arguments() -> None:
    c = _fp16_tn("KernelScheduleAuto")
    with pytest.raises(CutepyError, match="operand"):
        c.make_tma_load("c")
    with pytest.raises(CutepyError, match="problem_shape"):
        c.make_tma_load("a", (128, 128, 64))


BUILT = [c for c, s in STORED if "error" not in s]


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(range(len(BUILT))),
    st.integers(1, 4),
    st.integers(1, 4),
    st.integers(1, 4),
    st.integers(1, 3),
)
def test_the_tma_type_does_not_depend_on_the_problem(i: int, a: int, b: int, k: int, batch: int) -> None:
    """Law: the type-level parts of a TMA load (its C++ print, gmem basis, box, swizzle) are the
    same for every problem; the descriptor's global dims are the problem's (M,K,L) / (N,K,L)."""
    c = collective_builder(**_args(BUILT[i]))
    m, n, kk = c.tile_shape
    problem = (m * a, n * b, kk * k, batch)
    for name, mn in (("a", problem[0]), ("b", problem[1])):
        tile = getattr(c, f"tma_load_{name}")
        other = c.make_tma_load(name, problem)
        assert cxx_text(other) == cxx_text(tile)
        assert format(other.gbasis, "cxx") == format(tile.gbasis, "cxx")
        d, e = other.descriptor, tile.descriptor
        assert (d.box_dim, d.swizzle, d.data_type) == (e.box_dim, e.swizzle, e.data_type)
        assert sorted(d.global_dim) == sorted((mn, problem[2], batch))
