"""tensor-layouts' NVIDIA oracle tests (tests/oracle_nv.py in jduprat/tensor-layouts), rewritten
against cutepy.

The peer file is a differential oracle: it runs tensor-layouts and CUTLASS's pycute on the same
inputs and asserts the same answers, then checks algebraic laws over an exhaustive corpus of
small layouts. (It tests no MMA or copy atoms: those are in its analysis.py and viz.py.) Here
the oracle is C++ CuTe itself: every input of an ``oracle`` test is compiled with g++ and
cutepy must print exactly what C++ prints (``tests/cxx/cxx_cases.py``'s verdicts: ``exact``, or
``cxx-wrong`` where C++'s answer breaks the operation's own definition and cutepy raises
``AdmissibilityError``). Where pycute and C++ differ, C++ wins. The ``exhaustive`` tests are
laws checked in Python on the peer's corpus, with the same post-conditions. 926 C++ cases in all;
every one prints exactly as cutepy does (``tile_to_shape(4:1, 16)`` was a cutepy bug, fixed).

- the peer compares ``compose``/``logical_divide``/... only point by point on the common domain;
  here the C++ print (shape and stride) must match, which is stronger;
- the peer's ``coalesce(layout, (None, None))`` profile is C++'s ``coalesce(layout, (_1,_1))``;
- the peer's ``filter`` is ``coalesce(L.filter())`` compared with pycute's ``filter``: that is
  C++'s ``filter`` (drop stride-0 and size-1 modes, then coalesce), ``cp.filter``;
- test_exhaustive_compose_identity compared with pycute: here with the definition
  ``R(i) == A(B(i))`` (C++'s post-condition), over the same pairs;
- pycute's ``prefix_product`` is C++'s ``compact_col_major`` of a run-time shape;
- the peer's blocked_product sizes include six pairs C++ rejects (static_assert, e.g.
  ``blocked_product(2:2, 3:1)``) and pycute answers: cutepy raises there, as C++ does;
- test_make_ordered_layout_3d: the peer expects ``(4,8,1)``; C++ prints ``(_12,_1,_3)``;
- the peer's ``is_contiguous(L)`` (image == [0, size)) is written out here.

Count (tests/oracle_nv.py): 50 tests in the peer file, 49 ported, 1 not ported:

- test_oracle_has_none: ``has_none`` is C++'s ``has_underscore``, a compile-time trait
  (cutepy's slicing takes ``None`` anywhere in a coordinate; no public predicate).

C++'s ``max`` of an IntTuple (pycute ``tuple_max``), ``crd2crd`` and ``slice(crd, tuple)``
(pycute ``slice_``) were missing when this port was written; cutepy has them now
(``cutepy.max``, ``cutepy.crd2crd``, ``cutepy.slice``) and they print as C++ does.

- test_exhaustive_shape_div_mod_complementary: not ported; ``shape_mod`` is pycute's, C++ CuTe
  4.2 has no such function (int_tuple.hpp has ``shape_div`` only).
"""

from __future__ import annotations

from functools import lru_cache

import pytest

import cutepy as cp
from cutepy import Layout, Swizzle
from cutepy.core import inttuple as it
from tests.cxx import cxx_cases
from tests.cxx.cxx_cases import Case, cx

LAYOUT_CORPUS = [
    (1, 0), (1, 1),
    (4, 1), (4, 2), (8, 1), (8, 2), (12, 1), (12, 3),
    (4, 0), (8, 0),
    ((2, 4), (1, 2)), ((4, 3), (1, 4)), ((8, 4), (1, 8)),
    ((2, 4), (4, 1)), ((4, 3), (3, 1)), ((8, 4), (4, 1)),
    ((2, 4), (1, 4)), ((2, 4), (1, 6)), ((4, 2), (1, 10)), ((4, 2), (1, 16)),
    ((2, 4), (0, 2)), ((4, 2), (2, 0)),
    ((2, 4, 6), (1, 2, 8)), ((2, 4, 6), (4, 1, 8)),
    ((2, 3, 4), (1, 2, 6)), ((2, 4, 8), (8, 1, 64)),
    ((2, 4, 6), (24, 6, 1)),
    ((2, 4, 8), (8, 1, 0)), ((2, 4, 3), (1, 2, 0)),
    (((2, 2), (2, 2)), ((1, 4), (8, 32))),
    ((2, (3, 4)), (3, (1, 6))),
    (((4, 2),), ((1, 16),)),
    ((2, 4), None), ((4, 3), None), ((2, 4, 6), None), ((2, 3, 4), None),
    ((8, 8), None),
    (((3, 7),), ((0, 0),)),
    (((1, 1),), ((0, 0),)),
    ((2, 4), (0, 2)),
    ((2, 4, 4, 6), (4, 1, 0, 8)),
    ((4, 2), (1, 5)),
    ((128, 128), (65536, 1)),
    ((128, 160), (65536, 1)),
    ((128, 3, 160), (65536, 512, 1)),
    ((128, 64), (131072, 2)),
    ((32, 4, 4, 4), (262144, 4, 8388608, 1)),
    ((2, 2, 2), (4, 0, 1)),
    ((4, 10), (1, 10)),
    ((4, 3), (3, 1)),
    ((2, 3, 4), (0, 0, 0)),
    (((1,),), ((0,),)),
    (((2, (2, 2)),), ((1, (4, 8)),)),
    ((16, 16), (0, 1)),
]


def L_(shape, stride):
    return Layout(shape) if stride is None else Layout(shape, stride)


CORPUS = [L_(s, d) for s, d in LAYOUT_CORPUS]
STRIDED = [L_(s, d) for s, d in LAYOUT_CORPUS if d is not None]

COMPOSITION_PAIRS = [
    (1, 0, 1, 0), (1, 0, 1, 1), (1, 1, 1, 0), (1, 1, 1, 1),
    (4, 1, 4, 1), (4, 2, 4, 1), (4, 1, 4, 2), (4, 0, 4, 1),
    (4, 1, 4, 0), (1, 0, 4, 1), (4, 1, 1, 0),
    (4, 1, 2, 1), (4, 2, 2, 1), (4, 1, 2, 2), (4, 2, 2, 2),
    ((4, 3), (1, 4), 12, 1), ((4, 3), (1, 4), 6, 1), ((4, 3), (1, 4), 6, 2),
    ((4, 3), (3, 1), 12, 1), ((4, 3), (3, 1), 6, 2),
    (12, 1, (4, 3), (1, 4)), (12, 2, (4, 3), (1, 4)), (12, 1, (4, 3), (3, 1)),
    (12, 2, (4, 3), (3, 1)), (12, 1, (2, 3), (2, 4)),
    ((4, 3), (1, 4), (4, 3), (1, 4)), ((4, 3), (3, 1), (4, 3), (1, 4)),
    ((8, 8), (1, 8), (8, 8), (1, 8)), ((8, 8), (8, 1), (8, 8), (1, 8)),
    ((8, 8), (1, 8), ((2, 2, 2), (2, 2, 2)), ((1, 16, 4), (8, 2, 32))),
    ((8, 8), (8, 1), ((2, 2, 2), (2, 2, 2)), ((1, 16, 4), (8, 2, 32))),
    (((2, 2, 2), (2, 2, 2)), ((1, 16, 4), (8, 2, 32)), 8, 4),
    ((4, 3), (3, 1), 24, 1), ((4, 3), (3, 1), 8, 1),
    ((4, 6, 8), (1, 4, 7), 6, 1), ((4, 6, 8, 10), (2, 3, 5, 7), 6, 12),
    ((4, 3), None, (4, 3), (3, 1)),
]

SHAPE_DIV = [
    ((3, 4), 1), ((3, 4), 3), ((3, 4), 6), ((3, 4), 12), ((3, 4), 36),
    ((4, 3), 2), ((4, 3), 4), ((4, 3), 12),
    ((6, 2), 2), ((6, 2), 3), ((6, 2), 6), ((6, 2), 12),
    (((3, 4), 6), 1), (((3, 4), 6), 3), (((3, 4), 6), 12), (((3, 4), 6), 36), (((3, 4), 6), 72),
    ((6, (3, 4)), 6), ((6, (3, 4)), 36),
    (12, 1), (12, 3), (12, 4), (12, 6), (12, 12),
]

PREFIX_PRODUCT = [2, (3, 2), (3, 2, 4), ((2, 3), 4), ((2, 3), (2, 1, 2), (5, 2, 1))]
INNER_PRODUCT = [(2, 3), ((1, 2), (3, 2)), (((2, 3), 4), ((2, 1), 2))]

DIVIDE_CASES = [
    (1, 0, 1, 0), (1, 0, 1, 1), (1, 1, 1, 0), (1, 1, 1, 1),
    (6, 1, 2, 1), (6, 1, 2, 3), (6, 2, 2, 1), (6, 2, 2, 3),
    (6, 1, (2, 3), (3, 1)), (6, 2, (2, 3), (3, 1)),
    (32, 1, 2, 8),
    (12, 1, 4, 1), (12, 1, 6, 1), (12, 2, 4, 1),
    (48, 1, 32, 1), (96, 1, 32, 2),
]

PRODUCT_CASES = [
    (4, 1, 3, 1), (4, 2, 3, 1), (4, 1, 3, 2),
    ((2, 4), (1, 2), 3, 1),
    (8, 1, 4, 1), (8, 2, 4, 1),
    (1, 0, 1, 0), (1, 1, 1, 0), (1, 0, 1, 1), (1, 1, 1, 1),
    (3, 1, 4, 0), (3, 0, 4, 1), (3, 0, 4, 0), (3, 2, 4, 1),
    (3, 1, (2, 4), None), ((2, 4), None, 3, 1),
    ((8, (2, 2)), None, 4, 2),
    ((2, 2), None, (3, 3), (3, 1)),
    (3, 32, 32, 1), (3, 2, 4, 1), (3, 32, 128, 1),
    (3, 32, (8, 8), None), (3, 32, (8, 8), (8, 1)),
    (((4, 2),), ((1, 16),), (4, 4), None),
    (((4, 2),), ((1, 16),), (4, 2), (2, 1)),
    (((2, 2), (2, 2)), ((1, 4), (8, 32)), (2, 2), (1, 2)),
    (((2, 2), (2, 2)), ((1, 4), (8, 32)), (2, 2), (2, 1)),
    (((4, 6),), ((1, 6),), 3, 1),
]

SLICES = [
    ((4, 8), (1, 4), (None, 3)),
    ((4, 8), (1, 4), (2, None)),
    ((2, 3, 4), (1, 2, 6), (None, 1, None)),
    ((2, 3, 4), (1, 2, 6), (1, None, 2)),
]
LAYOUT_SLICES = [
    ((4, 8), (1, 4), (None, 3)),
    ((4, 8), (1, 4), (2, None)),
    ((4, 8), (1, 4), (None, None)),
    ((2, 3, 4), (1, 2, 6), (None, 1, None)),
]

ZIPPED_PRODUCT = [(4, 1, 3, 1), ((2, 4), None, (2, 2), None), (3, 2, 4, 1)]
TILED_PRODUCT = [(4, 1, 3, 1), (3, 2, 4, 1)]

ZIPPED_DIVIDE = [
    ((6,), (1,), 2), ((6,), (1,), 3), ((12,), (1,), 4), ((12,), (2,), 4),
    ((8, 6), (1, 8), 2), ((8, 6), (1, 8), 4),
    ((8, 6), (1, 8), (2, 3)), ((8, 6), (1, 8), (4, 2)),
    ((8, 8), None, (2, 4)), ((8, 8), None, (4, 4)),
    ((12, 8), (1, 12), (4, 2)),
    ((4, 6), (6, 1), (2, 3)),
]
TILED_DIVIDE = [c for c in ZIPPED_DIVIDE if c != ((8, 6), (1, 8), 4)]

PROFILED = [
    ((4, 8), (1, 4), (1, 1)),
    (((2, 2), (2, 4)), ((1, 2), (4, 8)), (1, 1)),
    (((2, 4), (3, 2)), ((1, 2), (8, 24)), (1, 1)),
    ((2, 3, 4), (1, 2, 6), (1, 1, 1)),
]

SWIZZLES = [(1, 0, 1), (1, 0, -1), (1, 1, 2), (1, 1, -2), (2, 0, 2), (2, 0, -2), (2, 1, 3), (2, 1, -3),
            (2, 2, 3), (3, 0, 3), (3, 0, -3), (3, 1, 4), (3, 1, -4), (3, 3, 3)]
SWIZZLED = [
    (2, 0, 2, (4, 8), (1, 4)), (2, 0, 2, (8, 4), (4, 1)), (3, 0, 3, (8, 8), (1, 8)),
    (3, 0, 3, (8, 8), (8, 1)), (2, 1, 3, (4, 8), (1, 4)), (1, 0, 1, (2, 2), (1, 2)),
    (2, 0, -2, (4, 8), (1, 4)), (3, 0, -3, (8, 8), (1, 8)),
]

ORDERED = [((4, 8), (0, 1)), ((4, 8), (1, 0)), ((2, 3, 4), (2, 0, 1))]
TILE_TO_SHAPE = [
    (Layout(4, 1), 16, None),
    (Layout((2, 3), (1, 2)), (8, 9), None),
    (Layout((2, 4), (1, 2)), (4, 8), None),
    (Layout((3, 5)), (12, 15), None),
    (Layout((2, 3), (1, 2)), (4, 6), (1, 0)),
]
BLOCKS = [Layout(2, 1), Layout(3, 1), Layout(4, 1), Layout(2, 2), Layout(4, 2),
          Layout((2, 2), (1, 2)), Layout((2, 3), (3, 1)), Layout((3, 2))]
PRODUCT_EACH = [(4, 8), ((2, 2), 8), (3, (2, 4)), ((2, 3), (4, 5))]
IDX2CRD = [(s, i) for s in (4, (4, 2), (2, (2, 2)), ((2, 2), (2, 2))) for i in (0, 1, 3, 5, 10, 16)]
TUPLE_MAX = [5, (3, 7, 2), ((1, 9), (4, 2)), (1,), ((2, 3), (4, (5, 6)))]
ELEM_SCALE = [(3, 4), (2, (3, 4)), ((2, 3), (4, 5)), (1, (2, 3, 4))]
CRD2CRD = [(3, (2, 4), None), (5, 8, None), ((1, 2), (3, 4), None), ((1, 0), 8, (2, 4))]
TUPLE_SLICES = [(None, 4), (0, 4), ((None, 0), (3, 4)), ((0, None), (3, 4)), ((None, None), (3, 4)),
                ((0, 0), (3, 4))]


def _crd(c):
    if c is None:
        return "_"
    if type(c) is int:
        return f"Int<{c}>{{}}"
    return "make_coord(" + ", ".join(_crd(x) for x in c) + ")"


def _dyn(t):
    """A shape of run-time integers (C++ gives a static size-1 leaf stride _0, pycute does not)."""
    return "make_shape(" + ", ".join(_dyn(x) for x in t) + ")" if type(t) is tuple else f"int({t})"


def _compose_case(A, B):
    return Case("composition", (A, B), lambda: cp.composition(A, B),
                f"print(composition({cx(A)}, {cx(B)}));", cxx_cases._compose_ref(A, B))


def _inverse_case(kind, A):
    if kind == "right_inverse":
        ok = lambda R: [A(R(i)) for i in range(R.size())] == list(range(R.size()))  # noqa: E731
    else:
        ok = lambda R: [R(A(i)) for i in range(A.size())] == list(range(A.size()))  # noqa: E731
    return Case(kind, (A,), lambda: getattr(cp, kind)(A), f"print({kind}({cx(A)}));", ok)


def _cases() -> dict[str, list[Case]]:
    c: dict[str, list[Case]] = {}
    c["size"] = [Case("size", (A,), lambda A=A: cp.size(A), f"print(size({cx(A)}));") for A in CORPUS]
    c["cosize"] = [Case("cosize", (A,), lambda A=A: cp.cosize(A), f"print(cosize({cx(A)}));")
                   for A in STRIDED]
    c["complement"] = [Case("complement", (A,), lambda A=A: cp.complement(A), f"print(complement({cx(A)}));")
                       for A in STRIDED]
    c["complement"] += [Case("complement(n)", (A, n), lambda A=A, n=n: cp.complement(A, n),
                             f"print(complement({cx(A)}, {cx(n)}));")
                        for A in STRIDED for n in (1, 2, 8, 16, 53, 128)]
    c["coalesce"] = [Case("coalesce", (A,), lambda A=A: cp.coalesce(A), f"print(coalesce({cx(A)}));")
                     for A in CORPUS]
    c["composition"] = [_compose_case(L_(a, da), L_(b, db)) for a, da, b, db in COMPOSITION_PAIRS]
    c["shape_div"] = [Case("shape_div", (s, d), lambda s=s, d=d: cp.shape_div(s, d),
                           f"print(shape_div({cx(s)}, {cx(d)}));") for s, d in SHAPE_DIV]
    c["prefix_product"] = [Case("prefix_product", (s,), lambda s=s: cp.prefix_product(s),
                                f"print(compact_col_major({_dyn(s)}));") for s in PREFIX_PRODUCT]
    c["inner_product"] = [Case("inner_product", (a, b), lambda a=a, b=b: cp.inner_product(a, b),
                               f"print(inner_product({cx(a)}, {cx(b)}));") for a, b in INNER_PRODUCT]
    c["right_inverse"] = [_inverse_case("right_inverse", A) for A in STRIDED]
    c["left_inverse"] = [_inverse_case("left_inverse", A) for A in STRIDED]
    c["logical_divide"] = []
    for ls, ld, ts, td in DIVIDE_CASES:
        A, B = Layout(ls, ld), Layout(ts, td)
        c["logical_divide"].append(Case("logical_divide", (A, B), lambda A=A, B=B: cp.logical_divide(A, B),
                                        f"print(logical_divide({cx(A)}, {cx(B)}));",
                                        cxx_cases._reindex_ref(A)))
    c["logical_product"] = []
    for a, da, b, db in PRODUCT_CASES:
        A, B = L_(a, da), L_(b, db)
        c["logical_product"].append(Case("logical_product", (A, B), lambda A=A, B=B: cp.logical_product(A, B),
                                         f"print(logical_product({cx(A)}, {cx(B)}));",
                                         cxx_cases._product_ref(A, B)))
    c["elem_scale"] = [Case("elem_scale", (a, b), lambda a=a, b=b: it.elem_scale(a, b),
                            f"print(elem_scale({cx(a)}, {cx(b)}));") for a, b in ELEM_SCALE]
    c["slice_and_offset"] = []
    for s, d, crd in SLICES:
        A = Layout(s, d)
        c["slice_and_offset"].append(Case(
            "slice_and_offset", (A, crd),
            lambda A=A, crd=crd: "{} {}".format(*(cxx_cases.show(x) for x in cp.slice_and_offset(crd, A))),
            f"auto so = slice_and_offset({_crd(crd)}, {cx(A)}); print(get<0>(so)); printf(\" \"); "
            f"print(get<1>(so));"))
    c["layout_slice"] = []
    for s, d, crd in LAYOUT_SLICES:
        A = Layout(s, d)
        args = ", ".join(_crd(x) for x in crd)
        c["layout_slice"].append(Case("layout(slice)", (A, crd), lambda A=A, crd=crd: A(*crd),
                                      f"auto L = {cx(A)}; print(L({args}));"))
    for op, table in (("zipped_product", ZIPPED_PRODUCT), ("tiled_product", TILED_PRODUCT)):
        c[op] = []
        for a, da, b, db in table:
            A, B = L_(a, da), L_(b, db)
            c[op].append(Case(op, (A, B), lambda A=A, B=B, op=op: getattr(cp, op)(A, B),
                              f"print({op}({cx(A)}, {cx(B)}));", cxx_cases._product_ref(A, B)))
    c["filter"] = [Case("filter", (A,), lambda A=A: cp.filter(A), f"print(filter({cx(A)}));")
                   for A in STRIDED]
    for op, table in (("zipped_divide", ZIPPED_DIVIDE), ("tiled_divide", TILED_DIVIDE)):
        c[op] = []
        for s, d, t in table:
            A = L_(s, d)
            c[op].append(Case(op, (A, t), lambda A=A, t=t, op=op: getattr(cp, op)(A, t),
                              f"print({op}({cx(A)}, {cxx_cases.cx_tiler(t)}));", cxx_cases._reindex_ref(A)))
    c["coalesce_profiled"] = []
    for s, d, prof in PROFILED:
        A = Layout(s, d)
        c["coalesce_profiled"].append(Case("coalesce(profile)", (A, prof),
                                           lambda A=A, p=prof: cp.coalesce(A, p),
                                           f"print(coalesce({cx(A)}, {cx(prof)}));"))
    c["swizzle"] = []
    for b, m, s in SWIZZLES:
        n = 1 << (b + m + abs(s))
        c["swizzle"].append(Case(
            "swizzle", (b, m, s),
            lambda b=b, m=m, s=s, n=n: " ".join(str(Swizzle(b, m, s)(i)) for i in range(n)),
            f"Swizzle<{b},{m},{s}> sw; "
            f"for (int i = 0; i < {n}; ++i) printf(i ? \" %d\" : \"%d\", int(sw(i)));"))
    c["swizzle_composed"] = []
    for b, m, s, shape, stride in SWIZZLED:
        A = Layout(shape, stride)
        c["swizzle_composed"].append(_compose_case(Swizzle(b, m, s), A))
    c["make_ordered_layout"] = [Case("make_ordered_layout", (s, o),
                                     lambda s=s, o=o: cp.make_ordered_layout(s, o),
                                     f"print(make_ordered_layout({cx(s)}, {cx(o)}));") for s, o in ORDERED]
    c["tile_to_shape"], c["tile_to_shape_int"] = [], []
    for block, target, order in TILE_TO_SHAPE:
        if type(target) is int:
            c["tile_to_shape_int"].append(Case("tile_to_shape", (block, target),
                                               lambda b=block, t=target: cp.tile_to_shape(b, t),
                                               f"print(tile_to_shape({cx(block)}, {cx(target)}));"))
        elif order is None:
            c["tile_to_shape"].append(Case("tile_to_shape", (block, target),
                                           lambda b=block, t=target: cp.tile_to_shape(b, t),
                                           f"print(tile_to_shape({cx(block)}, {cx(target)}));"))
        else:
            c["tile_to_shape"].append(Case("tile_to_shape(order)", (block, target, order),
                                           lambda b=block, t=target, o=order: cp.tile_to_shape(b, t, o),
                                           f"print(tile_to_shape({cx(block)}, {cx(target)}, {cx(order)}));"))
    c["blocked_product"] = [Case("blocked_product", (A, B), lambda A=A, B=B: cp.blocked_product(A, B),
                                 f"print(blocked_product({cx(A)}, {cx(B)}));", cxx_cases._product_ref(A, B))
                            for A in BLOCKS for B in BLOCKS]
    c["product_each"] = [Case("product_each", (s,), lambda s=s: it.product_each_tuple(s),
                              f"print(product_each({cx(s)}));") for s in PRODUCT_EACH]
    c["idx2crd"] = [Case("idx2crd", (i, s), lambda i=i, s=s: cp.idx2crd(i, s),
                         f"print(idx2crd({i}, {cx(s)}));") for s, i in IDX2CRD]
    return c


def _missing_cases() -> dict[str, list[Case]]:
    """Cases of the functions cutepy lacks (their calls raise AttributeError until they exist)."""
    c: dict[str, list[Case]] = {}
    c["tuple_max"] = [Case("max", (t,), lambda t=t: cp.max(t), f"print(cute::max({cx(t)}));")
                      for t in TUPLE_MAX]
    c["crd2crd"] = []
    for crd, dst, src in CRD2CRD:
        if src is None:  # the peer's two-argument form: C++ has none (test_crd2crd_needs_both_shapes)
            continue
        py = lambda a=(crd, dst, src): cp.crd2crd(*a)  # noqa: E731
        cxx = f"print(crd2crd({cx(crd)}, {cx(dst)}, {cx(src)}));"
        c["crd2crd"].append(Case("crd2crd", (crd, dst, src), py, cxx))
    c["slice"] = [Case("slice", (crd, t), lambda crd=crd, t=t: cp.slice(crd, t),
                       f"print(slice({_crd(crd)}, {cx(t)}));") for crd, t in TUPLE_SLICES]
    return c


@lru_cache(maxsize=1)
def _verdicts(missing: bool):
    from tests.cxx import cxx_harness

    groups = _missing_cases() if missing else _cases()
    flat = [(name, case) for name, cases in groups.items() for case in cases]
    results = cxx_harness.run_cases([case.cxx for _, case in flat],
                                    keys=[name if missing else 0 for name, _ in flat])
    out: dict[str, list] = {}
    for (name, case), res in zip(flat, results):
        out.setdefault(name, []).append(cxx_cases.classify(case, res))
    return out


def _assert_as_cxx(cxx, name, missing=False):
    verdicts = _verdicts(missing)[name]
    assert verdicts
    bad = [f"{v.case.op}{v.case.args}: cutepy {v.cutepy} | C++ {v.cxx}" for v in verdicts
           if v.kind not in ("exact", "cxx-wrong")]
    assert not bad, "\n".join(bad)


ORACLES = ["size", "cosize", "complement", "coalesce", "composition", "shape_div", "prefix_product",
           "inner_product", "right_inverse", "left_inverse", "logical_divide", "logical_product",
           "elem_scale", "slice_and_offset", "layout_slice", "zipped_product", "tiled_product", "filter",
           "zipped_divide", "tiled_divide", "coalesce_profiled", "swizzle", "swizzle_composed",
           "idx2crd"]


@pytest.mark.parametrize("name", ORACLES)
def test_oracle(cxx, name):
    """test_oracle_<name>: cutepy prints what C++ prints (24 peer tests)."""
    _assert_as_cxx(cxx, name)


@pytest.mark.parametrize("name", ["tuple_max", "crd2crd", "slice"])
def test_oracle_missing_function(cxx, name):
    """test_oracle_tuple_max, test_oracle_crd2crd, test_oracle_slice."""
    _assert_as_cxx(cxx, name, missing=True)


def test_crd2crd_needs_both_shapes(cxx):
    # tensor-layouts' crd2crd(crd, shape) has no C++ form: C++ does not compile it, and
    # cutepy's crd2crd takes C++'s three arguments
    two = [(crd, dst) for crd, dst, src in CRD2CRD if src is None]
    assert two
    results = cxx.run_cases([f"print(crd2crd({cx(crd)}, {cx(dst)}));" for crd, dst in two])
    for (crd, dst), r in zip(two, results):
        assert not r.ok
        with pytest.raises(TypeError):
            cp.crd2crd(crd, dst)


def _colex_offset(L, i):
    """An independent evaluation: split i colexicographically over the flat shape."""
    shape, stride = it.flatten_tuple(L.shape), it.flatten_tuple(L.stride)
    if type(shape) is not tuple:
        shape, stride = (shape,), (stride,)
    off = 0
    for s, d in zip(shape, stride):
        off += (i % s) * d
        i //= s
    return off


def test_oracle_indexing():
    for A in CORPUS:
        assert [A(i) for i in range(A.size())] == [_colex_offset(A, i) for i in range(A.size())], A


# -- exhaustive laws on small layouts --------------------------------------------------------


def _small_layouts(max_size=24):
    out = [Layout(n, s) for n in (1, 2, 3, 4, 6, 8, 12) for s in (0, 1, 2, 3, 4, 8)]
    for shape in ((2, 2), (2, 3), (2, 4), (3, 4), (4, 3), (2, 6), (3, 2)):
        out += [Layout(shape), Layout(shape, (shape[1], 1))]
        out += [Layout(shape, (s0, s1)) for s0 in (1, 2)
                for s1 in (shape[0] * s0, shape[0] * s0 + 2, shape[0] * s0 * 2) if s1 <= max_size]
        out += [Layout(shape, (0, 1)), Layout(shape, (1, 0))]
    for shape in ((2, 2, 2), (2, 3, 2), (2, 2, 3)):
        out += [Layout(shape), Layout(shape, (shape[1] * shape[2], shape[2], 1))]
    out += [Layout((4, 2), (1, 5)), Layout((2, 2, 2), (4, 0, 1)), Layout((2, 4, 4, 6), (4, 1, 0, 8)),
            Layout(((4, 2),), ((1, 16),))]
    return out


SMALL = _small_layouts()


def offsets(L):
    return [L(i) for i in range(L.size())]


def is_contiguous(L):
    return sorted(offsets(L)) == list(range(L.size()))


def test_exhaustive_complement_disjointness():
    for A in SMALL:
        C = cp.complement(A)
        image = set(offsets(A))
        assert all(C(b) not in image or C(b) == 0 for b in range(C.size())), A


def test_exhaustive_complement_ordering():
    for A in SMALL:
        C = cp.complement(A)
        assert all(C(i - 1) < C(i) for i in range(1, C.size())), A


def test_exhaustive_coalesce_preserves_mapping():
    for A in SMALL:
        R = cp.coalesce(A)
        assert R.size() == A.size() and offsets(R) == offsets(A), A


def test_exhaustive_coalesce_reduces_depth():
    assert all(cp.depth(cp.coalesce(A)) <= 1 for A in SMALL)


def test_exhaustive_right_inverse_identity():
    for A in SMALL:
        R = cp.right_inverse(A)
        assert all(A(R(i)) == i for i in range(R.size())), A


def test_exhaustive_left_inverse_identity():
    checked = 0
    for A in SMALL:
        if len(set(offsets(A))) != A.size() or not is_contiguous(A):
            continue
        R = cp.left_inverse(A)
        assert all(R(A(i)) == i for i in range(A.size())), A
        checked += 1
    assert checked > 20


def test_exhaustive_compose_identity():
    small = _small_layouts(max_size=12)
    tested = 0
    for A in small:
        for B in small:
            if B.size() > A.size():
                continue
            try:
                R = cp.composition(A, B)
            except cp.CutepyError:
                continue
            assert offsets(R) == [A(B(i)) for i in range(B.size())], (A, B)
            tested += 1
    assert tested > 100




def test_exhaustive_logical_divide_preserves_mapping():
    tested = 0
    for A in _small_layouts(max_size=12):
        if A.size() < 2:
            continue
        for t in (1, 2, 3, 4, 6):
            if t > A.size():
                continue
            try:
                R = cp.logical_divide(A, Layout(t, 1))
            except cp.CutepyError:
                continue
            assert [R(i) for i in range(A.size())] == offsets(A), (A, t)
            tested += 1
    assert tested > 50


def test_exhaustive_inverse_roundtrip():
    for A in SMALL:
        R = cp.right_inverse(A)
        assert all(A(R(i)) == i for i in range(R.size())), A
        if is_contiguous(A):
            Li = cp.left_inverse(A)
            assert all(Li(A(i)) == i for i in range(A.size())), A


def test_exhaustive_filter_idempotent():
    for A in SMALL:
        F = cp.filter(A)
        assert cp.filter(F) == F, A
        strides = it.flatten_tuple(F.stride) if type(F.stride) is tuple else (F.stride,)
        assert 0 not in strides or F.size() == 1


def test_exhaustive_blocked_product_size(cxx):
    """C++ rejects six of the peer's pairs (a static_assert on the complement's divisibility, e.g.
    blocked_product(2:2, 3:1)); pycute answers them. cutepy must raise exactly where C++ does."""
    answered = 0
    for A in BLOCKS:
        for B in BLOCKS:
            try:
                R = cp.blocked_product(A, B)
            except cp.AdmissibilityError:
                continue
            assert R.size() == A.size() * B.size(), (A, B)
            answered += 1
    assert answered == 58
    _assert_as_cxx(cxx, "blocked_product")


def test_exhaustive_blocked_product_covers_offsets():
    for A in (Layout(2, 1), Layout(4, 1), Layout((2, 2))):
        for B in (Layout(2, 1), Layout(3, 1), Layout((2, 2))):
            got = set(offsets(cp.blocked_product(A, B)))
            want = {A(k) + B(j) * A.cosize() for j in range(B.size()) for k in range(A.size())}
            assert want <= got, (A, B)


def test_exhaustive_flat_divide_preserves_mapping():
    tested = 0
    for A in _small_layouts(max_size=12):
        s = A.size()
        if s < 4:
            continue
        for t in (2, 3, 4):
            if s % t:
                continue
            if A.rank() > 1:
                first = it.product(A.shape[0])
                if t > first or first % t:
                    continue
            try:
                R = cp.flat_divide(A, t)
            except cp.CutepyError:
                continue
            assert [R(i) for i in range(s)] == offsets(A), (A, t)
            tested += 1
    assert tested > 20


# -- make_ordered_layout, tile_to_shape, product_each ---------------------------------------


def test_make_ordered_layout_column_major():
    R = cp.make_ordered_layout((4, 8), (0, 1))
    assert R.shape == (4, 8) and R.stride == (1, 4)
    assert cp.make_ordered_layout((4, 8)) == R


def test_make_ordered_layout_row_major():
    R = cp.make_ordered_layout((4, 8), (1, 0))
    assert R.shape == (4, 8) and R.stride == (8, 1)


def test_make_ordered_layout_3d():
    """The peer expects (4,8,1) ("mode 2 fastest"); C++'s order[i] is the rank of mode i's stride,
    so mode 1 gets stride 1: C++ prints (_2,_3,_4):(_12,_1,_3) (test_make_ordered_layout_as_cxx)."""
    R = cp.make_ordered_layout((2, 3, 4), (2, 0, 1))
    assert R.shape == (2, 3, 4) and R.stride == (12, 1, 3)


def test_make_ordered_layout_as_cxx(cxx):
    _assert_as_cxx(cxx, "make_ordered_layout")


def test_tile_to_shape_size_preserved():
    for block, target, _ in TILE_TO_SHAPE[:4]:
        assert cp.tile_to_shape(block, target).size() == it.product(target)


def test_tile_to_shape_blocked_structure():
    block = Layout((2, 4), (1, 2))
    assert cp.tile_to_shape(block, (4, 8)) == cp.blocked_product(block, cp.make_ordered_layout((2, 2)))


def test_tile_to_shape_with_row_major_order():
    block = Layout((2, 3), (1, 2))
    assert cp.tile_to_shape(block, (4, 6)) == cp.blocked_product(
        block, cp.make_ordered_layout((2, 2), (0, 1)))
    assert cp.tile_to_shape(block, (4, 6), (1, 0)) == cp.blocked_product(
        block, cp.make_ordered_layout((2, 2), (1, 0)))


def test_tile_to_shape_as_cxx(cxx):
    _assert_as_cxx(cxx, "tile_to_shape")


def test_tile_to_shape_integer_target_as_cxx(cxx):
    _assert_as_cxx(cxx, "tile_to_shape_int")


def test_product_each_matches_pycute_size(cxx):
    for s in PRODUCT_EACH:
        assert it.product_each_tuple(s) == tuple(it.product(x) for x in s)
    _assert_as_cxx(cxx, "product_each")
