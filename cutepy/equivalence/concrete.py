"""The decision for integer and swizzled layouts: normal forms, XOR maps, or enumeration.

Plain layouts are compared by their coalesced normal forms (time depends on the rank,
not the size); swizzled layouts by an affine normal form when the swizzle never applies,
else by their XOR maps over GF(2); anything else by enumerating both (at most
:data:`EXHAUSTIVE_LIMIT` points).

>>> from cutepy import Layout
>>> bool(decide_concrete(Layout(((2, 2), 3), ((1, 2), 4)), Layout(12, 1), "index", None))
True
"""

from __future__ import annotations

from typing import Any

from ..algebra.coalesce import coalesce_static
from ..algebra.composition import composition
from ..algebra.swizzle import Swizzle, composed_parts
from ..core import inttuple as it
from ..core.errors import CutepyError
from ..core.layout import Layout
from .gf2 import as_xor_map, swizzle_is_identity_on
from .normal_form import fmt_modes
from .verdict import Counterexample, Equivalence, _parts, first_difference

#: Largest domain compared point by point when no normal form applies.
EXHAUSTIVE_LIMIT = 1 << 22


def _modes(L: Layout) -> tuple:
    """Normal-form modes of an integer layout, fast (coalesce on the flat leaves)."""
    s, d = coalesce_static(it.flatten_tuple(L._shape), it.flatten_tuple(L._stride))  # by value
    if type(s) is tuple:
        return tuple(zip(s, d))
    return () if s == 1 else ((s, d),)


def _counter_at(A: Layout, B: Layout, k: int, by: str, mode: int | None = None) -> Counterexample:
    if by == "modes":
        r = A.rank() if type(A.shape) is tuple else 1
        crd = tuple(k if m == mode else 0 for m in range(r))
        before = it.product(tuple(it.product(A.shape[m]) for m in range(mode))) if r > 1 else 1
        ca = crd if r > 1 else k
        return Counterexample(k * before, ca, ca, A(ca), B(ca))
    return _counter_at_any(A, B, k)


def _check_domain(A: Layout, B: Layout, domain: Any) -> tuple:
    if isinstance(domain, int) and not isinstance(domain, bool):
        domain = (domain,)
    dom = tuple(domain)
    sa = it.product_each_tuple(A.shape) if type(A.shape) is tuple else (A.shape,)
    sb = it.product_each_tuple(B.shape) if type(B.shape) is tuple else (B.shape,)
    if len(dom) != len(sa) or len(dom) != len(sb):
        raise CutepyError(f"domain {dom} needs one extent per mode of {A} and {B}")
    out = []
    for k, (v, x, y) in enumerate(zip(dom, sa, sb)):
        v = x if v is None else v
        if not 1 <= v <= x or v > y:
            raise CutepyError(f"domain extent {v} of mode {k} lies outside the modes' sizes {x} and {y}")
        out.append(v)
    return tuple(out)


def _concrete(A: Layout, B: Layout, by: str, domain: Any) -> Equivalence:
    if by == "coordinate":
        fa, fb = it.flatten_tuple(A.shape), it.flatten_tuple(B.shape)
        if fa != fb:
            return Equivalence(False, A, B, by, note=f"the shape leaves differ ({it.format_tuple(fa)} vs "
                               f"{it.format_tuple(fb)}), so the natural coordinates differ")
        by = "index"
    if by == "index" and domain is None:
        na, nb = A.size(), B.size()
        ma, mb = _modes(A), _modes(B)
        if na != nb:
            ce = _counter_at(A, B, min(na, nb), by)
            ce.reason = f"A has {na} elements and B has {nb}"
            return Equivalence(False, A, B, by, counterexample=ce,
                               note=f"the domains differ: A has {na} elements and B has {nb}")
        if ma == mb:
            return Equivalence(True, A, B, by, note=f"both have the normal form {fmt_modes(ma)}")
        k = first_difference(ma, mb, na)
        return Equivalence(False, A, B, by, counterexample=_counter_at(A, B, k, by),
                           note=f"normal forms {fmt_modes(ma)} and {fmt_modes(mb)}")
    if by not in ("index", "modes"):
        raise CutepyError(f"by must be 'index', 'modes' or 'coordinate', not {by!r}")
    if by == "index":  # an int prefix of the 1-D index
        (v,) = domain if isinstance(domain, tuple) else (domain,)
        A1, B1 = Layout._new((A.shape,), (A.stride,)), Layout._new((B.shape,), (B.stride,))
        _check_domain(A1, B1, (v,))
        k = first_difference(_modes(A), _modes(B), v)
        if k is None:
            return Equivalence(True, A, B, by, v, note=f"they agree on the first {v} indices: the "
                               "normal forms differ first at or past that index")
        return Equivalence(False, A, B, by, domain, counterexample=_counter_at(A, B, k, by))
    pa, pb = _parts(A, by), _parts(B, by)
    if len(pa) != len(pb):
        return Equivalence(False, A, B, by, domain, note=f"A has {len(pa)} modes and B has {len(pb)}")
    if domain is None:
        for m, (a, b) in enumerate(zip(pa, pb)):
            if a.size() != b.size():
                return Equivalence(False, A, B, by, note=f"mode {m} has {a.size()} elements in A "
                                   f"and {b.size()} in B: the domains differ")
        dom = tuple(a.size() for a in pa)
    else:
        dom = _check_domain(A, B, domain)
    for m, (a, b, v) in enumerate(zip(pa, pb, dom)):
        k = first_difference(_modes(a), _modes(b), v)
        if k is not None:
            return Equivalence(False, A, B, by, domain, counterexample=_counter_at(A, B, k, by, m))
    if domain is None:
        return Equivalence(True, A, B, by, note="every mode has the same normal form")
    return Equivalence(True, A, B, by, dom, note="every mode agrees on its region: the normal forms "
                       "differ first at or past its extent")


# -- swizzles and other composed layouts ---------------------------------------------------


def _decide_swizzled(A: Any, B: Any, by: str, domain: Any) -> Equivalence:
    if by != "index" or domain is not None:
        raise CutepyError("composed (swizzled) layouts are compared on the 1-D index only")
    na, nb = A.size(), B.size()
    if na != nb:
        ce = _counter_at_any(A, B, min(na, nb))
        return Equivalence(False, A, B, by, method="domains", counterexample=ce,
                           note=f"the domains differ: A has {na} elements and B has {nb}")
    plain_a, plain_b = _as_affine(A), _as_affine(B)
    if plain_a is not None and plain_b is not None:
        (oa, la), (ob, lb) = plain_a, plain_b
        r = _concrete(la, lb, "index", None)
        if oa == ob and (r or na == 0):
            return Equivalence(True, A, B, by, method="affine normal form", decide=_decide_swizzled,
                               note=f"both are {oa} + {fmt_modes(_modes(la))} (the swizzle never applies)")
        k = 0 if oa != ob else r.counterexample.index
        return Equivalence(False, A, B, by, method="affine normal form", decide=_decide_swizzled,
                           counterexample=_counter_at_any(A, B, k))
    fa, fb = as_xor_map(A), as_xor_map(B)
    if fa is not None and fb is not None and len(fa.columns) == len(fb.columns):
        if fa == fb:
            cols = ", ".join(str(c) for c in fa.columns)
            return Equivalence(True, A, B, by, method="xor map", decide=_decide_swizzled,
                               note=f"both are {fa.constant} ^ XOR of the columns [{cols}] over the "
                               "set bits of the index")
        k = 0 if fa.constant != fb.constant else next(
            1 << j for j, (x, y) in enumerate(zip(fa.columns, fb.columns)) if x != y)
        return Equivalence(False, A, B, by, method="xor map", decide=_decide_swizzled,
                           counterexample=_counter_at_any(A, B, k))
    return _exhaustive(A, B, na)


def _as_affine(F: Any) -> tuple[int, Layout] | None:
    """``(offset, layout)`` when ``F(i) == offset + layout(i)`` on F's domain."""
    if type(F) is Layout:
        return 0, F
    parts = composed_parts(F)
    if parts is None or type(parts[1]) is not int:
        return None
    outer, offset, inner_layout = parts
    inner = _as_affine(inner_layout)
    if inner is None:
        return None
    o, L = inner
    o += offset
    strides = it.flatten_tuple(L.stride)
    if any(type(d) is not int or d < 0 for d in strides):
        return None
    if isinstance(outer, Swizzle) and o >= 0 and swizzle_is_identity_on(outer, o + L.cosize() - 1):
        return o, L
    if type(outer) is Layout and o == 0:
        try:
            return 0, composition(outer, L)
        except CutepyError:
            return None
    return None


def _counter_at_any(A: Any, B: Any, k: int) -> Counterexample:
    na, nb = A.size(), B.size()
    oa = A(k) if k < na else None
    ob = B(k) if k < nb else None
    ca = it.idx2crd(k, A.shape) if k < na else None
    cb = it.idx2crd(k, B.shape) if k < nb else None
    return Counterexample(k, ca, cb, oa, ob)


def _exhaustive(A: Any, B: Any, n: int) -> Equivalence:
    import numpy as np  # lazy: numpy only for the exhaustive fallback

    if n > EXHAUSTIVE_LIMIT:
        raise CutepyError(f"cannot compare {A} and {B} exactly: they are neither plain nor "
                          f"XOR-linear layouts, and {n} points are too many to enumerate")
    oa, ob = A.offsets(), B.offsets()
    diff = np.nonzero(oa != ob)[0]
    if diff.size == 0:
        return Equivalence(True, A, B, method="exhaustive", decide=_decide_swizzled,
                           note=f"all {n} offsets agree")
    return Equivalence(False, A, B, method="exhaustive", decide=_decide_swizzled,
                       counterexample=_counter_at_any(A, B, int(diff[0])))


def decide_concrete(A: Any, B: Any, by: str, domain: Any) -> Equivalence:
    """The verdict for two integer layouts or composed (swizzled) layouts.

    Pre:  ``A`` and ``B`` are Layouts or ComposedLayouts with integer leaves.
    Post: truthy exactly when they are the same function on the compared domain, with a
          counterexample (index, coordinates, both offsets) otherwise.
    """
    if type(A) is Layout and type(B) is Layout:
        return _concrete(A, B, by, domain)
    return _decide_swizzled(A, B, by, domain)
