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
from ..algebra.composed import ComposedLayout, composed_parts
from ..algebra.composition import composition
from ..core import inttuple as it
from ..core.errors import CutepyError
from ..core.layout import Layout
from ..core.lazy import load
from ..core.swizzle import Swizzle
from .gf2 import as_xor_map, swizzle_is_identity_on
from .normal_form import fmt_modes, modes_layout
from .verdict import Counterexample, Equivalence, _parts, first_difference

np = load("numpy")  # numpy loads on first use (point-by-point comparison needs it)

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
    if by == "coordinate":
        fa = it.flatten_tuple(A.shape) if type(A.shape) is tuple else (A.shape,)
        fb = it.flatten_tuple(B.shape) if type(B.shape) is tuple else (B.shape,)
        if fa != fb:
            return Equivalence(False, A, B, by, note=f"the shape leaves differ ({it.format_tuple(fa)} vs "
                               f"{it.format_tuple(fb)}), so the natural coordinates differ")
        by = "index"
    if by not in ("index", "modes"):
        raise CutepyError(f"by must be 'index', 'modes' or 'coordinate', not {by!r}")
    if domain is not None:
        return _composed_on_domain(A, B, by, domain)
    if by == "modes":  # the same modes' sizes: then the same function of the coordinates is that of the index
        sa = it.product_each_tuple(A.shape) if type(A.shape) is tuple else (A.shape,)
        sb = it.product_each_tuple(B.shape) if type(B.shape) is tuple else (B.shape,)
        if sa != sb:
            return Equivalence(False, A, B, by, note=f"the modes have sizes {it.format_tuple(sa)} in A and "
                               f"{it.format_tuple(sb)} in B: the domains differ")
        r = _decide_swizzled(A, B, "index", None)
        r.by = by
        return r
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


def _composed_on_domain(A: Any, B: Any, by: str, domain: Any) -> Equivalence:
    """Composed layouts compared on the leading extents of each mode (or of the 1-D index),
    point by point (at most :data:`EXHAUSTIVE_LIMIT` points)."""
    if by == "index":
        (v,) = domain if isinstance(domain, tuple) else (domain,)
        _check_domain(Layout._new((A.size(),), (1,)), Layout._new((B.size(),), (1,)), (v,))
        idx = np.arange(v, dtype=np.int64)
        dom: Any = v
    else:
        sa = it.product_each_tuple(A.shape) if type(A.shape) is tuple else (A.shape,)
        sb = it.product_each_tuple(B.shape) if type(B.shape) is tuple else (B.shape,)
        if sa != sb:
            return Equivalence(False, A, B, by, domain, note=f"the modes have sizes {it.format_tuple(sa)} "
                               f"in A and {it.format_tuple(sb)} in B")
        dom = _check_domain(Layout._new(sa, (0,) * len(sa)), Layout._new(sb, (0,) * len(sb)), domain)
        if it.product(dom) > EXHAUSTIVE_LIMIT:
            raise CutepyError(f"cannot compare {A} and {B} on the region {dom}: {it.product(dom)} points are "
                              f"more than EXHAUSTIVE_LIMIT = {EXHAUSTIVE_LIMIT}")
        idx = np.zeros(1, dtype=np.int64)
        place = 1
        for v, s in zip(dom, sa):  # colexicographic: mode k's coordinate moves the index by place
            idx = (idx[None, :] + place * np.arange(v, dtype=np.int64)[:, None]).reshape(-1)
            place *= s
        idx = np.sort(idx)
    if idx.size > EXHAUSTIVE_LIMIT:
        raise CutepyError(f"cannot compare {A} and {B} on the first {idx.size} indices: more than "
                          f"EXHAUSTIVE_LIMIT = {EXHAUSTIVE_LIMIT}")
    diff = np.nonzero(A.offsets(idx) != B.offsets(idx))[0]
    if diff.size == 0:
        return Equivalence(True, A, B, by, dom, method="exhaustive", decide=_decide_swizzled,
                           note=f"all {idx.size} offsets of the region agree")
    return Equivalence(False, A, B, by, dom, method="exhaustive", decide=_decide_swizzled,
                       counterexample=_counter_at_any(A, B, int(idx[diff[0]])))


def _head_tail(F: Any) -> tuple[Any, tuple, int] | None:
    """``(swizzle, offset, normal-form modes, bit)`` of ``Sw o offset o L`` (L plain, offset and
    strides non-negative); ``2**bit`` bounds every bit the swizzle reads or writes."""
    parts = composed_parts(F)
    if parts is None:
        return None
    sw, off, L = parts
    if not isinstance(sw, Swizzle) or type(off) is not int or off < 0 or type(L) is not Layout:
        return None
    modes = _modes(L)
    if any(type(d) is not int or d < 0 for _, d in modes):
        return None
    return sw, off, modes, (sw.yyy_mask | sw.zzz_mask).bit_length()


def _periodic(A: Any, B: Any) -> Equivalence | None:
    """Swizzled layouts past the enumeration limit, by the swizzle's period: ``Sw(x + k*2**T)
    == Sw(x) + k*2**T`` when ``2**T`` bounds the swizzle's bits, so with the normal-form modes
    of the layout split at a place ``n`` after which every stride is a multiple of ``2**T``,
    ``F(i) = Sw(off + head(i % n)) + tail(i // n)``. Two such layouts (split at the same ``n``)
    are equal exactly when their heads are (``n`` points, enumerated) and their tails are
    (normal forms). None where no common split within the limit exists."""
    ha, hb = _head_tail(A), _head_tail(B)
    if ha is None or hb is None:
        return None
    period = 1 << max(ha[3], hb[3])

    def splits(modes: tuple) -> dict:
        out, n = {}, 1
        for j in range(len(modes) + 1):
            if all(d % period == 0 for _, d in modes[j:]):
                out.setdefault(n, j)
            if j < len(modes):
                n *= modes[j][0]
        return out

    sa, sb = splits(ha[2]), splits(hb[2])
    common = sorted(n for n in sa.keys() & sb.keys() if n <= EXHAUSTIVE_LIMIT)
    if not common:
        return None
    n = common[0]
    heads = [ComposedLayout(h[0], h[1], modes_layout(h[2][:s[n]])) for h, s in ((ha, sa), (hb, sb))]
    tails = [modes_layout(h[2][s[n]:]) for h, s in ((ha, sa), (hb, sb))]
    if n > 1:
        r = _exhaustive(heads[0], heads[1], n)
        if not r:
            return Equivalence(False, A, B, method="period", decide=_decide_swizzled,
                               counterexample=_counter_at_any(A, B, r.counterexample.index))
    t = _concrete(tails[0], tails[1], "index", None)
    if not t:
        return Equivalence(False, A, B, method="period", decide=_decide_swizzled,
                           counterexample=_counter_at_any(A, B, n * t.counterexample.index))
    return Equivalence(True, A, B, method="period", decide=_decide_swizzled,
                       note=f"the swizzles touch only bits below {period}: the first {n} offsets agree "
                       f"(enumerated) and the rest repeat them, shifted by the equal layouts "
                       f"{fmt_modes(_modes(tails[0]))} (multiples of {period})")


def _exhaustive(A: Any, B: Any, n: int) -> Equivalence:
    if n > EXHAUSTIVE_LIMIT and A == B:
        return Equivalence(True, A, B, method="identical", decide=_decide_swizzled,
                           note="the same layout (equal swizzle, offset and layout)")
    if n > EXHAUSTIVE_LIMIT:
        r = _periodic(A, B)
        if r is not None:
            return r
    if n > EXHAUSTIVE_LIMIT:
        raise CutepyError(f"cannot compare {A} and {B} exactly: they are neither plain nor XOR-linear "
                          f"layouts, no place in their modes starts a part whose strides are multiples of "
                          f"their swizzles' period (to enumerate one period), and {n} points are more than "
                          f"EXHAUSTIVE_LIMIT = {EXHAUSTIVE_LIMIT} (about 0.1 s to enumerate)")
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
