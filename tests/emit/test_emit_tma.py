"""Emitted make_tma_copy / make_tma_atom code compiles with g++ against CUTLASS (the driver call
replaced by the test's stub) and hands the driver the descriptor cutepy computes."""

from __future__ import annotations

from cutepy.algebra.composed import ComposedLayout
from cutepy.algebra.products import tile_to_shape
from cutepy.core.layout import Layout
from cutepy.core.swizzle import Swizzle
from cutepy.emit.tma import cpp_make_tma_copy, dsl_make_tma_atom
from cutepy.kernels.atoms import gmma_smem_layout
from cutepy.kernels.pointer import gmem_ptr
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tma import make_tma_atom, make_tma_copy
from tests.kernels import tma_cxx

CASES = [
    ("SM90_TMA_LOAD", make_tensor(gmem_ptr("bfloat16_t", 0x10000), Layout((1024, 256), (256, 1))),
     tile_to_shape(gmma_smem_layout("K", 128, "bfloat16_t"), (128, 64)), None, 1, False, None),
    ("SM90_TMA_LOAD_MULTICAST", make_tensor(gmem_ptr("float", 0x20000), Layout((512, 128), (1, 512))),
     tile_to_shape(gmma_smem_layout("MN", 64, "float"), (64, 32)), None, 2, False, None),
    ("SM90_TMA_STORE", make_tensor(gmem_ptr("half_t", 0x30000), Layout((64, 64, 8), (64, 1, 4096))),
     ComposedLayout(Swizzle(2, 3, 3), 0, Layout((16, 32, 2), (32, 1, 512))), (16, 32, 2), 1, False, None),
    ("SM100_TMA_2SM_LOAD", make_tensor(gmem_ptr("float_e4m3_t", 0x40000), Layout((256, 256), (256, 1))),
     tile_to_shape(gmma_smem_layout("K", 128, 8), (128, 128)), None, 1, True, None),
    # moved as a wider type (C++'s make_tma_copy<uint32_t>): the descriptor counts uint32_t
    ("SM90_TMA_LOAD", make_tensor(gmem_ptr("half_t", 0x50000), Layout((256, 64), (64, 1))),
     tile_to_shape(gmma_smem_layout("K", 128, "half_t"), (128, 64)), None, 1, False, "uint32_t"),
    ("SM90_TMA_LOAD", make_tensor(gmem_ptr("float_e4m3_t", 0x60000), Layout((128, 256), (256, 1))),
     tile_to_shape(gmma_smem_layout("K", 128, 8), (64, 128)), None, 1, True, "uint64_t"),
]


def _descriptor(args) -> dict:
    op, g, s, tile, cluster, atom, internal = args
    obj = (make_tma_atom if atom else make_tma_copy)(op, g, s, tile, cluster, internal)
    return {k: list(v) if isinstance(v, tuple) else v for k, v in vars(obj.descriptor).items()}


def test_emitted_tma_code_compiles_and_gives_cutepys_descriptor(cxx) -> None:
    bodies = [cpp_make_tma_copy(*args) for args in CASES]
    res = cxx.run_cases(bodies, tma_cxx.INCLUDES, preamble=tma_cxx.STUB, defines=tma_cxx.DEFINES)
    for args, r in zip(CASES, res):
        assert r.ok, r.error[:500]
        got = tma_cxx.parse_output(r.output)
        assert "driver_rejects" not in got
        assert got["descriptor"] == _descriptor(args)


def test_dsl_call_names_the_dsl_operation() -> None:
    text = dsl_make_tma_atom("SM90_TMA_LOAD_MULTICAST", "mB", gmma_smem_layout("K", 64, 16), (8, 32), 2)
    assert text.startswith("cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileG2SMulticastOp(), mB, ")
    assert text.endswith("(8, 32), num_multicast=2)")


def test_dsl_call_passes_the_internal_type() -> None:
    text = dsl_make_tma_atom("SM90_TMA_LOAD", "mA", gmma_smem_layout("K", 128, 16), (8, 64), 1, "uint32_t")
    assert text.endswith("(8, 64), num_multicast=1, internal_type=cutlass.Uint32)")
