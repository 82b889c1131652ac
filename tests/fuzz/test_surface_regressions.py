"""Issue 33: bad input on tensors, tiled objects, linear layouts, banks and run-time ints.

One test per class the fuzz run found (crashes: an exception that is not a CutepyError;
wrong answers: checked against brute force or the definition). A refused input raises a
CutepyError subclass that names the argument and what was wrong.
"""

from __future__ import annotations

import numpy as np
import pytest

import cutepy
from cutepy import CutepyError, Layout, banks, linear
from cutepy.kernels.atoms import copy_atom, mma_atom
from cutepy.kernels.tensor import make_tensor
from cutepy.kernels.tiled.copy import make_tiled_copy_A, make_tiled_copy_C
from cutepy.kernels.tiled.mma import make_tiled_mma


def refused(fn, *args, words: tuple[str, ...] = (), **kw) -> str:
    """``fn(*args)`` raises a CutepyError (never another exception) whose text has ``words``."""
    with pytest.raises(CutepyError) as e:
        fn(*args, **kw)
    for w in words:
        assert w in str(e.value), f"{w!r} not in {e.value}"
    return str(e.value)


# -- run-time integers and limits --------------------------------------------------------------


@pytest.mark.parametrize("x", [np.array([1, 2]), np.array([[3]]), np.array([1.5])])
def test_dynamic_refuses_numpy_arrays_of_several_values(x) -> None:
    refused(cutepy.dynamic, x, words=("dynamic", "not an integer"))


def test_dynamic_takes_a_numpy_scalar_array() -> None:
    assert int(cutepy.dynamic(np.array(3))) == 3


def test_size_limit_message_prints_huge_counts_as_powers_of_two() -> None:
    msg = refused(Layout((2,) * 15000, (1,) * 15000).offsets, words=("2**15000", "limit"))
    assert len(msg) < 1000


def test_show_int_is_exact_for_powers_of_two() -> None:
    from cutepy.core.limits import show_int

    assert show_int(2**4000) == "2**4000" and show_int(-(2**200)) == "-2**200"
    assert show_int(12345) == "12345" and show_int(5 * 2**300) == "about 2**302"


# -- tensors ------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", [5, 2.5, "abcd", b"abcd", {0: 1}, True])
def test_make_tensor_refuses_an_engine_that_is_not_an_array(engine) -> None:
    refused(make_tensor, engine, Layout(4), words=("engine",))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8, np.int64, np.bool_])
@pytest.mark.parametrize("value", ["abc", None, 1 + 2j, [1, 2], np.array([1, 2]), b"x"])
def test_tensor_write_refuses_what_is_not_a_number(dtype, value) -> None:
    T = make_tensor(np.zeros(4, dtype), Layout(4))
    refused(T.__setitem__, 0, value, words=("T[0]", "number"))
    assert not T.engine.any(), "nothing is written"


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint8, np.uint64, np.int64])
@pytest.mark.parametrize(
    "value",
    [2**70, -(2**70), float("nan"), float("inf"), 2.5, 10**5000],
    ids=["2^70", "-2^70", "nan", "inf", "2.5", "10^5000"],
)
def test_tensor_write_refuses_values_an_integer_engine_cannot_hold(dtype, value) -> None:
    T = make_tensor(np.zeros(4, dtype), Layout(4))
    refused(T.__setitem__, 1, value, words=("T[1]",))
    assert not T.engine.any()


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.uint64])
def test_tensor_write_range_is_the_dtype_range(dtype) -> None:
    info = np.iinfo(dtype)
    T = make_tensor(np.zeros(2, dtype), Layout(2))
    T[0], T[1] = int(info.min), int(info.max)
    assert (int(T[0]), int(T[1])) == (int(info.min), int(info.max))
    refused(T.__setitem__, 0, int(info.max) + 1, words=("outside the range",))
    refused(T.__setitem__, 0, int(info.min) - 1, words=("outside the range",))


def test_tensor_write_keeps_floats_and_integral_floats() -> None:
    F = make_tensor(np.zeros(3, np.float32), Layout(3))
    F[0], F[1], F[2] = float("nan"), 2**70, 2.5
    assert np.isnan(F[0]) and float(F[1]) == float(np.float32(2**70)) and float(F[2]) == 2.5
    refused(F.__setitem__, 0, 1e300, words=("beyond the range of float32",))
    refused(F.__setitem__, 0, 10**400, words=("beyond the range",))
    Int = make_tensor(np.zeros(2, np.int32), Layout(2))
    Int[0] = 7.0
    assert int(Int[0]) == 7


# -- TiledMMA / TiledCopy arguments ----------------------------------------------------------


FMA = "UniversalFMA<float,float,float,float>"


@pytest.mark.parametrize("atom_layout", [float("nan"), "2x2", 2.5, [[1]], object()])
def test_make_tiled_mma_refuses_an_atom_layout_that_is_not_a_layout(atom_layout) -> None:
    refused(make_tiled_mma, mma_atom(FMA), atom_layout, words=("atom layout",))


@pytest.mark.parametrize(
    "perm, mode",
    [
        ((-2, None, None), "M"),
        ((None, None, 0), "K"),
        ((8, "x", None), "N"),
        ((None, "x", None), "N"),
        ((None, 2.0, None), "N"),
        ((True, None, None), "M"),
        ((None, (), None), "N"),
        (((2, None), None, None), "M"),
        ((None, None, np.array([1, 2])), "K"),
    ],
)
def test_make_tiled_mma_refuses_bad_permutations(perm, mode) -> None:
    refused(make_tiled_mma, mma_atom(FMA), (2, 1, 1), perm, words=(f"permutation {mode}",))


def test_make_tiled_mma_keeps_good_permutations() -> None:
    mma = make_tiled_mma(mma_atom(FMA), (2, 1, 1), (np.int64(4), Layout(2), None))
    assert mma.tile_size_mnk == (4, 2, 1)


@pytest.mark.parametrize("make", [make_tiled_copy_A, make_tiled_copy_C])
@pytest.mark.parametrize("mma", [0, None, "mma", Layout(4)])
def test_make_tiled_copy_from_mma_refuses_what_is_not_a_tiled_mma(make, mma) -> None:
    refused(make, copy_atom("UniversalCopy<float>"), mma, words=("TiledMMA",))


# -- cutepy.linear ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bases, outs, words",
    [
        ({"lane": [[1]]}, None, ("out_dims",)),
        ({"lane": [1, 2]}, {"dim0": 4}, ("basis 0", "lane")),
        ({"lane": 3}, {"dim0": 4}, ("lane", "list of bases")),
        ({"lane": [[1]]}, 5, ("out_dims",)),
    ],
)
def test_linear_layout_refuses_malformed_bases_and_outs(bases, outs, words) -> None:
    refused(linear.LinearLayout, bases, outs, words=words)


@pytest.mark.parametrize("kind", [[], {}, 3, None])
def test_from_gluon_refuses_a_kind_that_is_not_a_name(kind) -> None:
    refused(linear.from_gluon, {"kind": kind, "vec": 1}, [4, 4], words=("kind",))


@pytest.mark.parametrize("kind", [np.array([1, 2]), 3, None])
def test_from_cute_refuses_a_kind_that_is_not_a_name(kind) -> None:
    refused(linear.from_cute, Layout(4), kind=kind, words=("kind",))


def test_from_cute_refuses_shape_false() -> None:
    refused(linear.from_cute, Layout((4, 2)), shape=False, words=("shape",))


@pytest.mark.parametrize("accesses", [float("inf"), float("nan"), 4, "ab", np.array([1, 2])])
def test_solve_conflict_free_refuses_accesses_that_are_not_a_list(accesses) -> None:
    refused(linear.solve_conflict_free, Layout(8), accesses, 4, words=("accesses",))


@pytest.mark.parametrize("nbytes", [4.0, True, np.array([4, 8]), "16"])
def test_solve_conflict_free_refuses_bytes_that_are_not_ints(nbytes) -> None:
    refused(linear.solve_conflict_free, Layout(32), [(Layout(32), nbytes)], 4, words=("bytes per lane",))


@pytest.mark.parametrize("eb", [4.0, True, np.array([1, 2]), None])
def test_solve_conflict_free_refuses_element_bytes_that_are_not_ints(eb) -> None:
    refused(linear.solve_conflict_free, Layout(32), [(Layout(32), 4)], eb, words=("element_bytes",))


# -- banks ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1.5, [], None, "8", True, -1, 65, 2**64])
def test_swizzle_family_refuses_bad_bit_counts(n) -> None:
    refused(banks.swizzle_family, n, words=("swizzle_family",))


def test_swizzle_family_counts_match_its_definition() -> None:
    for n in range(0, 9):
        want = {
            (B, M, sg * S)
            for B in range(1, n + 1)
            for S in range(B, n + 1)
            for sg in (1, -1)
            for M in range(n + 1)
            if M + B + S <= n
        }
        got = [(s.bits, s.base, s.shift) for s in banks.swizzle_family(np.int64(n))]
        assert len(got) == len(set(got)) and set(got) == want


@pytest.mark.parametrize("accesses", [float("nan"), np.array([1, 2]), 3, "ld"])
def test_find_swizzle_refuses_accesses_that_are_not_a_list(accesses) -> None:
    refused(banks.find_swizzle, Layout((8, 32), (1, 8)), accesses, 2, words=("accesses",))


def test_find_swizzle_and_analyze_layout_agree_on_what_an_access_is() -> None:
    """A 16-thread TV layout cannot give the 32 row addresses of an stmatrix.x4: both refuse
    it with the same words (the rule lives once, in banks.tile.make_access)."""
    smem, tv = Layout((8, 32), (1, 8)), Layout((16, (4, 4)), (4, (1, 64)))
    a = refused(banks.find_swizzle, smem, [(tv, "stmatrix", 4)], 4, words=("lane 16", "row address"))
    b = refused(
        banks.analyze_layout, smem, tv, op="stmatrix", element_bytes=4, words=("lane 16", "row address")
    )
    assert a == b


# -- simulation ------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(4, 9), (5, 8), (3, 8), (4, 7)])
def test_copy_refuses_a_tensor_that_is_not_whole_tiles(shape) -> None:
    from cutepy.kernels.simulate import copy
    from cutepy.kernels.tiled.copy import make_tiled_copy

    cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 8)), Layout((1, 1)))
    n = shape[0] * shape[1]
    src = make_tensor(np.arange(n, dtype=np.uint32), Layout(shape))
    dst = make_tensor(np.zeros(n, dtype=np.uint32), Layout(shape))
    refused(copy, cp, src, dst, words=("src", "whole number"))
    assert not dst.engine.any()


def test_copy_of_whole_tiles_equals_numpy() -> None:
    from cutepy.kernels.simulate import copy
    from cutepy.kernels.tiled.copy import make_tiled_copy

    cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 8)), Layout((1, 1)))
    src = make_tensor(np.arange(64, dtype=np.uint32), Layout((8, 8)))
    dst = make_tensor(np.zeros(64, dtype=np.uint32), Layout((8, 8), (8, 1)))
    copy(cp, src, dst)
    want = np.arange(64).reshape(8, 8, order="F")  # src(m, n) = m + 8 n
    assert dst.engine.reshape(8, 8).tolist() == want.tolist()


def test_gemm_refuses_operands_that_are_not_whole_tiles() -> None:
    from cutepy.kernels.simulate import gemm

    mma = make_tiled_mma(mma_atom("SM61_DP4A"), Layout((2, 1, 1), (1, 0, 0)))
    A = make_tensor(np.ones(18, np.int8), Layout((2, 9)))
    B = make_tensor(np.ones(9, np.int8), Layout((1, 9)))
    C = make_tensor(np.zeros(2, np.int32), Layout((2, 1)))
    refused(gemm, mma, A, B, C, words=("whole number",))


# -- found by the extended fuzz run (benchmarks/fuzz.py) -----------------------------------------


@pytest.mark.parametrize("engine", [np.array(2.5), np.zeros((2, 2))])
def test_make_tensor_refuses_an_engine_that_is_not_one_dimensional(engine) -> None:
    refused(make_tensor, engine, Layout(4), words=("engine",))


@pytest.mark.parametrize(
    "key, words",
    [
        (np.array([[1]]), ("index",)),
        ((1, "x"), ("'x'", "not an integer")),
        ((1, np.array([1, 2])), ("not an integer",)),
    ],
)
def test_tensor_index_refuses_what_is_not_an_integer(key, words) -> None:
    T = make_tensor(np.zeros(8), Layout((2, 4)))
    refused(T.__getitem__, key, words=words)
    refused(T.__setitem__, key, 1.0, words=words)


@pytest.mark.parametrize("want", [[[1, [2]]], "abc", [object()]])
def test_check_tile_refuses_a_reference_that_is_not_numbers(want) -> None:
    from cutepy.kernels.simulate import check_tile
    from cutepy.kernels.tiled.copy import make_tiled_copy

    cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout((4, 4)), Layout((1, 1)))
    T = make_tensor(np.zeros(16, np.uint32), Layout((4, 4)))
    refused(check_tile, cp, T, want, words=("reference",))


@pytest.mark.parametrize("x", [{}, "abc", 2.5, None])
def test_retile_refuses_what_is_not_a_tensor_or_layout(x) -> None:
    from cutepy.kernels.tiled.copy import make_tiled_copy

    cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout(32), Layout(1))
    refused(cp.retile, x, words=("retile",))


@pytest.mark.parametrize(
    "kw",
    [
        {"op": np.array([2, 3])},
        {"op": ["ld"]},
        {"op": "ldmatrix", "matrices": np.array([2, 3])},
        {"op": "ldmatrix", "matrices": 2.0},
    ],
)
def test_analyze_layout_refuses_ops_and_matrices_that_are_not_names_and_ints(kw) -> None:
    refused(
        banks.analyze_layout,
        Layout((32, 32), (32, 1)),
        Layout((32, 32), (32, 1)),
        element_bytes=2,
        partial=True,
        words=("must be",),
        **kw,
    )


@pytest.mark.parametrize("smem", [{}, -7, "4", 4.0, b"x", (None, (None,))])
def test_make_tma_copy_refuses_an_smem_layout_that_is_not_a_layout(smem) -> None:
    from cutepy.kernels.pointer import gmem_ptr

    g = make_tensor(gmem_ptr("float", 0), Layout((64, 32)))
    refused(cutepy.make_tma_copy, "SM90_TMA_LOAD", g, smem, words=("smem layout",))


@pytest.mark.parametrize("op", [{}, [[1, [2]]], np.array([2, 3]), 3])
def test_make_tma_copy_refuses_an_op_that_is_not_a_name(op) -> None:
    from cutepy.kernels.pointer import gmem_ptr

    g = make_tensor(gmem_ptr("float", 0), Layout((64, 32)))
    refused(cutepy.make_tma_copy, op, g, Layout((16, 8)), words=("operation",))


# -- integers past Python's 4300-digit print limit: refused, printed as powers of two ----------------

HUGE = 10**5000


def _huge_calls():
    from cutepy.kernels.pointer import gmem_ptr
    from cutepy.kernels.simulate import copy, gemm
    from cutepy.kernels.tiled.copy import make_tiled_copy

    T = make_tensor(np.zeros(8), Layout((2, 4)))
    g = make_tensor(gmem_ptr("float", 0), Layout((64, 32)))
    mma = make_tiled_mma(mma_atom(FMA), (2, 1, 1))
    cp = make_tiled_copy(copy_atom("UniversalCopy<uint32_t>", 32), Layout(32), Layout(1))
    blocked = {
        "kind": "BlockedLayout",
        "size_per_thread": [1],
        "threads_per_warp": [32],
        "warps_per_cta": [1],
        "order": [0],
    }
    return {
        "T[i]": lambda: T[HUGE],
        "T[crd]": lambda: T[(1, HUGE)],
        "T[i] = v": lambda: T.__setitem__(0, HUGE),
        "mma.get_slice": lambda: mma.get_slice(HUGE),
        "copy.get_slice": lambda: cp.get_slice(HUGE),
        "permutation": lambda: make_tiled_mma(mma_atom(FMA), (2, 1, 1), (HUGE, None, None)),
        "dynamic": lambda: cutepy.dynamic(HUGE),
        "dynamic tuple": lambda: cutepy.dynamic((1, (HUGE,))),
        "basis": lambda: linear.LinearLayout({"lane": [[HUGE]]}, {"dim0": 4}),
        "out size": lambda: linear.LinearLayout({"lane": [[1]]}, {"dim0": HUGE}),
        "input": lambda: linear.LinearLayout({"lane": [[1]]}, {"dim0": 4})(lane=HUGE),
        "from_cute blocks": lambda: linear.from_cute(Layout((4, 2), (2, 1)), shape=[8], blocks=HUGE),
        "from_cute shape": lambda: linear.from_cute(Layout((4, 2), (2, 1)), shape=[HUGE]),
        "from_gluon field": lambda: linear.from_gluon(dict(blocked, size_per_thread=[HUGE]), [64]),
        "from_gluon shape": lambda: linear.from_gluon(blocked, [HUGE]),
        "swizzle_family": lambda: banks.swizzle_family(HUGE),
        "solve_conflict_free bytes": lambda: linear.solve_conflict_free(Layout(8), [(Layout(32), HUGE)], 4),
        "element_bytes": lambda: banks.analyze_layout(Layout(32), Layout(32), element_bytes=HUGE),
        "vector_elems": lambda: banks.analyze_layout(
            Layout(32), Layout(32), element_bytes=4, vector_elems=HUGE
        ),
        "find_swizzle vector": lambda: banks.find_swizzle(
            Layout((8, 32), (1, 8)), [(Layout(32), "ld", HUGE)], 4
        ),
        "gmem address": lambda: make_tensor(gmem_ptr("float", HUGE), Layout(4)),
        "copy_atom bits": lambda: copy_atom("UniversalCopy<uint32_t>", HUGE),
        "mma_atom name": lambda: mma_atom(HUGE),
        "copy first": lambda: copy(HUGE, T, T),
        "copy src": lambda: copy(cp, HUGE, T),
        "gemm first": lambda: gemm(HUGE, T, T, T),
        "from_cute kind": lambda: linear.from_cute(Layout((4, 2), (2, 1)), kind=HUGE, shape=[8]),
        "element type": lambda: gmem_ptr(HUGE, 0),
        "tma op": lambda: cutepy.make_tma_copy(HUGE, g, Layout((16, 8))),
        "tma gmem": lambda: cutepy.make_tma_copy("SM90_TMA_LOAD", HUGE, Layout((16, 8))),
        "tma cta_tile": lambda: cutepy.make_tma_copy("SM90_TMA_LOAD", g, Layout((16, 8)), cta_tile=HUGE),
        "tma internal_type": lambda: cutepy.make_tma_copy(
            "SM90_TMA_LOAD", g, Layout((16, 8)), internal_type=HUGE
        ),
        "smem layout": lambda: banks.analyze_layout(HUGE, Layout(32), element_bytes=4),
    }


@pytest.mark.parametrize("name", sorted(_huge_calls()))
def test_integers_past_the_print_limit_are_refused_with_a_short_message(name: str) -> None:
    msg = refused(_huge_calls()[name])
    assert len(msg) < 2000, msg[:300]
