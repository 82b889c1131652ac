"""Explainers for the divides and products: the complement and composition they use.

>>> from cutepy import Layout
>>> from cutepy.derivation import explain
>>> d = explain("logical_divide", Layout((4, 2, 3), (2, 1, 8)), Layout(4, 2))
>>> [s.text for s in d.steps]  # doctest: +NORMALIZE_WHITESPACE
['complement(T, size(A)) = complement(4:2, 24) = (2,3):(1,8)', \
'the divisor (T, complement) = (4,(2,3)):(2,(1,8))', \
'A o (T, complement) = ((2,2),(2,3)):((4,1),(2,8))']
"""

from __future__ import annotations

from typing import Any

from .. import inttuple as it
from ..coalesce import coalesce_flat
from ..divides import _modes, _tiler, unzip_modes
from ..errors import CutepyError
from ..layout import Layout, append, as_layout, make_layout, make_ordered_layout
from . import Derivation, explainable, fmt, run


def _sub(D: Derivation, text: str, name: str, *args: Any, layout: bool = False) -> Any:
    sub = run(name, *args)
    if sub.error is not None:
        D.add(text, sub=sub)
        raise sub.error
    return D.add(f"{text} = {fmt(sub.result)}", sub=sub, layout=sub.result if layout else None)


@explainable("logical_divide")
def logical_divide(D: Derivation, A: Any, tiler: Any) -> Any:
    tiler = _tiler(tiler)
    if not isinstance(A, Layout) and hasattr(A, "compose"):
        if isinstance(tiler, tuple):
            raise CutepyError("logical_divide of a composed layout takes a single layout tiler")
        return _divide_one(D, A, tiler)
    A = as_layout(A)
    if tiler is None:
        D.add("no tiler: A is kept")
        return A
    if isinstance(tiler, tuple):
        modes = _modes(A)
        if len(tiler) > len(modes):
            raise CutepyError(f"logical_divide: the tiler has {len(tiler)} modes, {A} has {len(modes)}")
        out = []
        for i, (m, t) in enumerate(zip(modes, tiler)):
            out.append(_sub(D, f"mode {i}: logical_divide({m}, {fmt(t)})", "logical_divide", m, t))
        if len(tiler) < len(modes):
            D.add(f"modes {len(tiler)}.. are kept as they are")
        return make_layout(*out, *modes[len(tiler):])
    return _divide_one(D, A, tiler)


def _divide_one(D: Derivation, A: Any, T: Layout) -> Any:
    n = A.size()
    C = _sub(D, f"complement(T, size(A)) = complement({T}, {n})", "complement", T, n)
    TC = make_layout(T, C)
    D.add(f"the divisor (T, complement) = {TC}", layout=TC)
    return _sub(D, "A o (T, complement)", "composition", A, TC)


def _zip_note(D: Derivation, what: str, first: Layout, second: Layout) -> None:
    D.add(f"{what}: tiles {first}, rest {second}")


@explainable("zipped_divide")
def zipped_divide(D: Derivation, A: Any, tiler: Any) -> Layout:
    tiler = _tiler(tiler)
    L = _sub(D, "logical_divide(A, T)", "logical_divide", A, tiler, layout=True)
    if not isinstance(tiler, tuple):
        D.add("a single-layout tiler: the logical divide is already (tile, rest)")
        return L
    a, b = unzip_modes(L, tiler)
    _zip_note(D, "gather every mode's tile part, then every rest part", a, b)
    return make_layout(a, b)


@explainable("tiled_divide")
def tiled_divide(D: Derivation, A: Any, tiler: Any) -> Layout:
    z = _sub(D, "zipped_divide(A, T)", "zipped_divide", A, tiler)
    D.add("unpack the rest modes next to the tile")
    return make_layout(z[0], *_modes(z[1]))


@explainable("flat_divide")
def flat_divide(D: Derivation, A: Any, tiler: Any) -> Layout:
    z = _sub(D, "zipped_divide(A, T)", "zipped_divide", A, tiler)
    D.add("unpack the tile modes and the rest modes")
    return make_layout(*_modes(z[0]), *_modes(z[1]))


@explainable("logical_product")
def logical_product(D: Derivation, A: Any, tiler: Any) -> Layout:
    A = as_layout(A)
    tiler = _tiler(tiler)
    if tiler is None:
        D.add("no tiler: A is kept")
        return A
    if isinstance(tiler, tuple):
        modes = _modes(A)
        if len(tiler) > len(modes):
            raise CutepyError(f"logical_product: the tiler has {len(tiler)} modes, {A} has {len(modes)}")
        out = []
        for i, (m, t) in enumerate(zip(modes, tiler)):
            out.append(_sub(D, f"mode {i}: logical_product({m}, {fmt(t)})", "logical_product", m, t))
        if len(tiler) < len(modes):
            D.add(f"modes {len(tiler)}.. are kept as they are")
        return make_layout(*out, *modes[len(tiler):])
    k = A.size() * tiler.cosize()
    D.add(f"room for the copies: size(A) * cosize(B) = {A.size()} * {tiler.cosize()} = {k}")
    C = _sub(D, f"complement(A, {k})", "complement", A, k, layout=True)
    CB = _sub(D, "complement o B", "composition", C, tiler)
    D.add(f"A then its copies: ({A}, {CB})")
    return make_layout(A, CB)


@explainable("zipped_product")
def zipped_product(D: Derivation, A: Any, tiler: Any) -> Layout:
    tiler = _tiler(tiler)
    L = _sub(D, "logical_product(A, B)", "logical_product", A, tiler)
    if not isinstance(tiler, tuple):
        D.add("a single-layout tiler: the logical product is already (block, copies)")
        return L
    a, b = unzip_modes(L, tiler)
    _zip_note(D, "gather every mode's block part, then every copy part", a, b)
    return make_layout(a, b)


@explainable("tiled_product")
def tiled_product(D: Derivation, A: Any, tiler: Any) -> Layout:
    z = _sub(D, "zipped_product(A, B)", "zipped_product", A, tiler)
    D.add("unpack the copy modes next to the block")
    return make_layout(z[0], *_modes(z[1]))


@explainable("flat_product")
def flat_product(D: Derivation, A: Any, tiler: Any) -> Layout:
    z = _sub(D, "zipped_product(A, B)", "zipped_product", A, tiler)
    D.add("unpack the block modes and the copy modes")
    return make_layout(*_modes(z[0]), *_modes(z[1]))


def _interleave(D: Derivation, A: Any, B: Any, block_first: bool) -> Layout:
    from ..products import _padded_modes

    A, B = as_layout(A), as_layout(B)
    r = max(A.rank(), B.rank())
    a_s, a_d = _padded_modes(A, r)
    Ap = Layout._new(a_s, a_d)
    Bp = Layout._new(*_padded_modes(B, r))
    D.add(f"pad both to rank {r} with 1:0 modes: A = {Ap}, B = {Bp}")
    k = Ap.size() * Bp.cosize()
    Cm = _sub(D, f"complement(A, size(A)*cosize(B)) = complement({Ap}, {k})", "complement", Ap, k)
    C = _sub(D, "complement o B", "composition", Cm, Bp, layout=True)
    c_s, c_d = C.shape, C.stride
    ss, dd = [], []
    for i in range(r):
        if block_first:
            pair_s, pair_d = (a_s[i], c_s[i]), (a_d[i], c_d[i])
        else:
            pair_s, pair_d = (c_s[i], a_s[i]), (c_d[i], a_d[i])
        s, d = coalesce_flat(it.flatten(pair_s), it.flatten(pair_d))
        order = "(A_i, copies_i)" if block_first else "(copies_i, A_i)"
        D.add(f"mode {i}: {order} = {Layout._new(pair_s, pair_d)}, coalesced to {Layout._new(s, d)}")
        ss.append(s)
        dd.append(d)
    return Layout._new(tuple(ss), tuple(dd))


@explainable("blocked_product")
def blocked_product(D: Derivation, A: Any, B: Any) -> Layout:
    return _interleave(D, A, B, True)


@explainable("raked_product")
def raked_product(D: Derivation, A: Any, B: Any) -> Layout:
    return _interleave(D, A, B, False)


@explainable("tile_to_shape")
def tile_to_shape(D: Derivation, block: Any, target_shape: Any, order: Any = None) -> Layout:
    from ..coalesce import coalesce

    block = as_layout(block)
    target = target_shape if type(target_shape) is tuple else (target_shape,)
    r = len(target)
    if block.rank() > r:
        raise CutepyError(f"tile_to_shape: {block} has more modes than the target {target_shape}")
    if type(block.shape) is not tuple:
        block = Layout._new((block.shape,), (block.stride,))
    padded = append(block, n=r)
    bs, ts = it.product_each(padded.shape), it.product_each(target)
    for b, t in zip(bs, ts):
        if t % b != 0:
            raise CutepyError(f"tile_to_shape: the block's extent {b} does not divide the target's {t}")
    ps = tuple(t // b for b, t in zip(bs, ts))
    grid = make_ordered_layout(ps, order)
    D.add(f"copies per mode: {ps}, laid out as {grid}")
    P = _sub(D, "blocked_product(block, copies)", "blocked_product", padded, grid)
    R = coalesce(P, ps)
    D.add(f"coalesce by the profile {ps}: {R}")
    return R
