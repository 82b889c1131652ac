"""XLA shapes with symbolic dims: parse, print, compile to symbolic CuTe layouts, prove.

``f32[M,N]{1,0:T(8,128)}`` for every ``M``, ``N`` that are multiples of 8 and 128 compiles
to the nested layout derived by hand; a symbolic compile agrees with the concrete compile
of every admissible substitution; a missing fact or an undeclared name is a clear error.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import cutepy
from cutepy import Layout, equivalent
from cutepy.core.errors import CutepyError, LayoutError, ParseError, SymbolicError
from cutepy.core.symbolic.decide import sample_assignments
from cutepy.program.engine import compile_program
from cutepy.symbolic import Sym, Undecided
from cutepy.xla import (
    ArrayShape,
    XlaLayout,
    buffer_elements,
    check_compile,
    compile_details,
    element_at,
    linear_index,
    linear_indices,
    linear_indices_at,
    pack,
    parse_shape,
    program,
    report,
    sizes,
    tiled_dims,
    unpack,
)
from cutepy.xla.reference import reference_offsets

# the facts travel with each symbol; the names are found by the parser in this context
M, N = cutepy.symbols("Mxs Nxs", multiple_of=(8, 128))
# bounded away from one tile, so that no compile needs a case split
Mb, Nb, Bb, Pb = cutepy.symbols("Mxb Nxb Bxb Pxb", multiple_of=(8, 128, 1, 128), min=(16, 256, 2, 256))
Kf = cutepy.symbols("Kxf", min=16)  # no divisibility fact
Zf = cutepy.symbols("Zxf", positive=False)  # may be 0 or negative


def _hand(m, n) -> Layout:
    """f32[m,n]{1,0:T(8,128)} by hand: element (i, j) at 128*(i%8) + j%128 in tile (i//8, j//128),
    which starts at 1024*((i//8)*(n/128) + j//128)."""
    return Layout(((8, m // 8), (128, n // 128)), ((128, 8 * n), (1, 1024)))


# -- the parametric proofs -------------------------------------------------------------------


def test_f32_tiled_compile_equals_the_hand_derivation_for_all_m_n():
    shape = parse_shape("f32[Mxs,Nxs]{1,0:T(8,128)}")
    assert shape.dims == (M, N) and str(shape) == "f32[Mxs,Nxs]{1,0:T(8,128)}"
    r = equivalent(lambda: compile_details(shape).layout, _hand(M, N), by="modes")
    assert r and r.check()
    assert r.condition is None and len(r.cases) == 4  # M == 8 or not, N == 128 or not
    # with facts that exclude a single tile, the compile is the hand derivation itself
    c = compile_details("f32[Mxb,Nxb]{1,0:T(8,128)}")
    assert c.form == "layout" and c.layout == _hand(Mb, Nb)
    assert str(c) == "((8,Mxb/8),(128,Nxb/128)):((128,8*Nxb),(1,1024))"
    assert c.domain == (Mb, Nb) and c.logical_shape == (Mb, Nb) and c.buffer_size == Mb * Nb


def test_bf16_packing_compile_equals_the_hand_derivation_for_all_m_n():
    """bf16[M,N]{1,0:T(8,128)(2,1)}: row pairs interleave inside each (8,128) tile."""
    hand = Layout(((2, 4, M / 8), (128, N / 128)), ((1, 256, 8 * N), (2, 1024)))
    shape = ArrayShape("bf16", (M, N), layout=XlaLayout((1, 0), tiles=((8, 128), (2, 1))))
    r = equivalent(lambda: compile_details(shape).layout, hand, by="modes")
    assert r and r.check() and r.condition is None
    assert str(compile_details("bf16[Mxb,Nxb]{1,0:T(8,128)(2,1)}")) == \
        "(((2,4),Mxb/8),(128,Nxb/128)):(((1,256),8*Nxb),(2,1024))"


def test_a_wrong_hand_derivation_is_refuted():
    wrong = Layout(((8, M / 8), (128, N / 128)), ((128, 128 * N), (1, 1024)))  # 128*N, not 8*N
    r = equivalent(lambda: compile_details("f32[Mxs,Nxs]{1,0:T(8,128)}").layout, wrong, by="modes")
    assert not r and r.check() and r.counterexample.assignment


def test_symbolic_offsets_of_single_elements():
    c = compile_details("f32[Mxb,Nxb]{1,0:T(8,128)}")
    assert c(3, 5) == 128 * 3 + 5
    assert c(9, 130) == 8 * Nb + 128 + 1024 + 2  # second tile row, second tile column


# -- agreement with concrete compiles ----------------------------------------------------------

_AGREE = [
    "f32[Mxb,Nxb]{1,0:T(8,128)}",
    "f32[Mxb,Nxb]{0,1}",
    "f32[Mxb,Nxb]",
    "bf16[Mxb,Nxb]{1,0:T(8,128)(2,1)}",
    "f32[Bxb,Mxb,Nxb]{2,1,0:T(8,128)}",
    "f32[Bxb,Pxb,Nxb]{1,2,0:T(8,128)}",
    "s8[Pxb,Nxb]{1,0:T(32,128)(4,1)}",
    "f32[Mxb,Nxb]{1,0:T(8,128)L(1024)}",
    "f32[Bxb,Mxb,Nxb]{2,1,0:T(*,8,128)}",
    "f32[Nxb]{0:T(8,128)}",
    "f32[Mxb,3]{1,0:T(8,128)}",
    "f32[Mxb,Nxb]{1,0:T(8,128)(2,1)(*,4)}",
    "pred[Mxb,Nxb]{1,0:T(8,128)(4,1)E(8)}",
    "f32[Mxb,<=Nxb]{1,0:T(8,128)}",
]


@pytest.mark.parametrize("text", _AGREE)
def test_symbolic_compile_agrees_with_concrete_compiles(text):
    shape = parse_shape(text)
    assert str(shape) == text if "{" in text else str(shape).startswith(text)
    assert shape.is_symbolic
    c = compile_details(shape)
    syms = sorted({s for d in shape.dims if type(d) is Sym for s in d.free_symbols}, key=str)
    rng = random.Random(text)
    for sigma in sample_assignments(syms, 3, seed=rng.randrange(1000)):
        concrete = shape.subs(sigma)
        assert not concrete.is_symbolic and all(type(d) is int for d in concrete.dims)
        got, want = c.subs(sigma), compile_details(concrete)
        assert (got.domain, got.logical_shape, got.buffer_size) == \
            (want.domain, want.logical_shape, want.buffer_size)
        assert equivalent(got.layout, want.layout, by="modes"), (text, sigma)
        assert np.array_equal(got.offsets(), linear_indices(concrete))
        assert check_compile(got, concrete) == int(np.prod(concrete.bounds))
        sym_sizes, int_sizes = sizes(shape), sizes(concrete)
        for field in ("dense", "array_size", "nested"):
            assert cutepy.subs(getattr(sym_sizes, field), sigma) == getattr(int_sizes, field)
        assert cutepy.subs(tiled_dims(shape), sigma) == tiled_dims(concrete)
        assert cutepy.subs(buffer_elements(shape), sigma) == buffer_elements(concrete)


def test_substitution_by_name_and_the_compile_steps():
    shape = parse_shape("f32[Mxb,Nxb]{1,0:T(8,128)}")
    assert shape.subs({"Mxb": 24, "Nxb": 384}) == parse_shape("f32[24,384]{1,0:T(8,128)}")
    logical, steps = program(shape)
    assert logical == (Mb, Nb)
    assert steps == [("reshape", (Mb / 8, 8, Nb / 128, 128)), ("transpose", (0, 2, 1, 3))]
    c = compile_details(shape).subs({Mb: 24, Nb: 384})
    assert str(c) == "((8,3),(128,3)):((128,3072),(1,1024))"
    assert c.source == parse_shape("f32[24,384]{1,0:T(8,128)}")
    assert c.steps == tuple(program(c.source)[1])


# -- sizes --------------------------------------------------------------------------------------


def test_sizes_of_a_symbolic_shape():
    s = sizes("f32[Mxs,Nxs]{1,0:T(8,128)}")
    assert (s.dense, s.array_size, s.nested) == (4 * M * N, 4 * M * N, 4 * M * N)
    assert s.padding_overhead == 0.0
    assert sizes("bf16[Mxs,Nxs]{1,0:T(8,128)(2,1)}").nested == 2 * M * N
    # no divisibility fact: the tiled size rounds up, symbolically
    t = sizes("f32[Kxf,Nxs]{1,0:T(8,128)}")
    assert str(t.dense) == "4*Kxf*Nxs" and "ceil(Kxf/8)" in str(t.nested)
    for k in (16, 17, 23, 24):
        want = sizes(f"f32[{k},256]{{1,0:T(8,128)}}")
        got = cutepy.subs((t.dense, t.array_size, t.nested), {Kf: k, N: 256})
        assert got == (want.dense, want.array_size, want.nested)
    overhead = t.padding_overhead  # a sympy expression in the symbols
    assert float(overhead.subs({Kf.expr: 17, N.expr: 256})) == pytest.approx(
        sizes("f32[17,256]{1,0:T(8,128)}").padding_overhead)


# -- printing and parsing ---------------------------------------------------------------------


def test_symbolic_shapes_print_the_symbol_names():
    for text in ("f32[Mxs,Nxs]{1,0:T(8,128)}", "bf16[8,Nxs]{0,1:T(8,128)(2,1)S(1)}",
                 "f32[Mxs,<=Nxs]{1,0}", "(f32[Mxs]{0}, b(s8[Nxs,4]{1,0}))"):
        assert str(parse_shape(text)) == text
    assert str(parse_shape(" F32[ Mxs , Nxs ]")) == "f32[Mxs,Nxs]{1,0}"
    assert str(ArrayShape("f32", (M / 8, 2 * N))) == "f32[Mxs/8,2*Nxs]"  # expressions print too
    s = ArrayShape("f32", (Sym(M.expr), 3))  # a sympy expression, wrapped as a Sym leaf
    assert type(s.dims[0]) is Sym and s.dims[0] == M and s.dims[1] == 3
    with pytest.raises(LayoutError, match="integers or symbolic sizes"):
        ArrayShape("f32", (M.expr, 3))  # not an Integral: the core does not guess
    assert ArrayShape("f32", (M - M + 5,)).dims == (5,) and not ArrayShape("f32", (5,)).is_symbolic
    assert hash(parse_shape("f32[Mxs,Nxs]")) == hash(parse_shape("f32[Mxs,Nxs]"))


def test_an_undeclared_name_is_a_parse_error_that_says_to_declare_it():
    with pytest.raises(ParseError, match=r"'Qxu' is not a declared symbol") as e:
        parse_shape("f32[Mxs,Qxu]{1,0:T(8,128)}")
    assert "cutepy.symbols('Qxu'" in str(e.value) and e.value.pos == 8
    assert str(e.value).endswith("\n  f32[Mxs,Qxu]{1,0:T(8,128)}\n          ^")
    with pytest.raises(ParseError, match="not a declared symbol"):
        compile_details("f32[Qxu]")
    with pytest.raises(ParseError, match="expected an integer"):  # names are dims only
        parse_shape("f32[8]{Mxs}")
    with pytest.raises(ParseError, match=r"expected an integer \(tile dimension\)"):
        parse_shape("f32[Mxs]{0:T(Mxs)}")


def test_a_dim_must_be_positive_for_every_value():
    with pytest.raises(ParseError, match=r"Zxf >= 1") as e:
        parse_shape("f32[4,Zxf]")
    assert e.value.pos == 6
    with pytest.raises(SymbolicError, match=r"Zxf >= 1"):
        ArrayShape("f32", (Zf,))
    with pytest.raises(CutepyError, match="never positive"):
        ArrayShape("f32", (-M,))
    with pytest.raises(CutepyError, match="integers or symbolic sizes"):
        ArrayShape("f32", (2.5,))


# -- missing facts ------------------------------------------------------------------------------


@pytest.mark.parametrize("text, fact", [
    ("f32[Kxf,Nxs]{1,0:T(8,128)}", "Kxf % 8 == 0"),
    ("f32[Mxs,Nxs]{0,1:T(8,128)}", "Mxs % 128 == 0"),
    ("f32[Mxs]{0:T(1024)}", "Mxs % 1024 == 0"),
    ("f32[Kxf,Kxf]{1,0:L(1024)}", "Kxf**2 % 1024 == 0"),
])
def test_a_missing_divisibility_fact_is_named(text, fact):
    with pytest.raises(Undecided) as e:
        compile_details(text)
    msg = str(e.value)
    assert msg.startswith(f"compiling {parse_shape(text)}: ") and f"needs {fact}" in msg
    assert e.value.fact == fact


def test_a_fact_that_only_the_case_split_decides():
    """M == 8 drops a size-1 mode: the plain compile asks, the prover splits the cases."""
    with pytest.raises(Undecided, match=r"Mxs/8 == 1 .*needs Mxs != 8"):
        compile_details("f32[Mxs,Nxs]{1,0:T(8,128)}")
    with cutepy.symbolic.assuming({M.expr: cutepy.symbolic.Facts(8, 16)}):
        assert compile_details("f32[Mxs,256]{1,0:T(8,128)}").layout == _hand(M, 256)


# -- what needs values --------------------------------------------------------------------------


def test_whole_array_operations_ask_for_values():
    shape = parse_shape("f32[Mxb,Nxb]{1,0:T(8,128)}")
    c = compile_details(shape)
    calls = {
        "report()": lambda: report(shape),
        "linear_indices()": lambda: linear_indices(shape),
        "linear_index()": lambda: linear_index(shape, (1, 2)),
        "linear_indices_at()": lambda: linear_indices_at(shape, [[1, 2]]),
        "element_at()": lambda: element_at(shape, 3),
        "reference_buffer()": lambda: reference_offsets(shape),
        "offsets()": c.offsets,
        "offsets_at()": lambda: c.offsets_at([[1, 2]]),
        "check_compile()": lambda: check_compile(c, shape),
        "pack()": lambda: pack(np.zeros((16, 256), np.float32), shape),
        "unpack()": lambda: unpack(np.zeros(4096, np.float32), shape),
    }
    for what, call in calls.items():
        with pytest.raises(CutepyError, match="substitute values") as e:
            call()
        msg = str(e.value)
        assert msg.startswith(what) and "f32[Mxb,Nxb]{1,0:T(8,128)}" in msg and "Mxb, Nxb" in msg
    assert not hasattr(shape, "_repr_svg_")  # shapes draw nothing themselves (viz is a higher layer)
    assert "verified" in report(shape.subs({Mb: 16, Nb: 256}))


# -- the engine -------------------------------------------------------------------------------


def test_engine_takes_symbolic_extents():
    p = compile_program((Mb, Nb), [("reshape", (Mb / 8, 8, Nb / 128, 128)), ("transpose", (0, 2, 1, 3))])
    assert p.form == "layout" and p.layout == _hand(Mb, Nb) and p.buffer_size == Mb * Nb
    q = compile_program((Mb, 3), [("pad", (Mb, 4))])
    assert str(q.layout) == "(Mxb,4):(4,1)" and q.domain == (Mb, 4)
    with pytest.raises(Undecided, match=r"Zxf"):
        compile_program((Zf, 4), [])
    with pytest.raises(Undecided, match=r"needs Mxb % 3 == 0"):  # an extent that may not be an integer
        compile_program((Mb / 3,), [])
    with pytest.raises(CutepyError, match="extents must be positive"):
        compile_program((Mb, 0), [])
    with pytest.raises(CutepyError, match="is not a tuple of integers"):
        compile_program(("a", 4), [])
    assert compile_program((3, 5), [("pad", (4, 6))]).logical_shape == (3, 5)
