"""``composition(A, B)``: the layout ``R`` with ``R(c) == A(B(c))`` for every ``c`` in B's domain.

``B`` may be a Layout, a shape (an int ``n`` means ``n:1``) or a tuple of tilers
applied mode by mode (``None`` keeps a mode). A's modes past the tiler are dropped.

>>> from cutepy import Layout, parse
>>> composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))
((2,2),3):((24,2),8)
>>> A = Layout((12, (4, 8)), (59, (13, 1)))
>>> composition(A, parse("<3:4, 8:2>"))
(3,(2,4)):(236,(26,1))
>>> composition(A, (3, 8))
(3,(4,2)):(59,(13,1))

Compositions that break CuTe's divisibility conditions raise, where C++ would
silently return a wrong layout:

>>> composition(Layout((4, 6), (1, 5)), Layout(8, 3))
Traceback (most recent call last):
...
cutepy.errors.AdmissibilityError: composition (4,6):(1,5) o 8:3 is inadmissible: \
stride divisibility fails at mode 0 of coalesce(A) = (4,6):(1,5): B's remaining stride 3 \
does not divide A's shape 4, and B's remaining shape 8 runs past it
"""

from __future__ import annotations

from typing import Any

from . import inttuple as it
from .basis import ScaledBasis
from .coalesce import coalesce_flat
from .errors import AdmissibilityError, CutepyError
from .layout import Layout, _is_symbolic, as_layout
from .swizzle import ComposedLayout, Swizzle

_tracer: Any = None  # a tracer while cutepy.tracing.recording() runs, else None


def composition(A: Any, B: Any) -> Any:
    """``A o B``; see the module docstring for what ``B`` may be."""
    tr = _tracer
    if tr is not None and tr.opens(composition):
        return tr.framed(composition, A, B)
    if type(A) is Layout and type(B) in (Swizzle, ComposedLayout):
        return _compose_swizzle_right(A, B)
    if type(A) is not Layout:
        if hasattr(A, "compose") and not isinstance(A, str):
            if tr is not None:
                tr.note("composed_A", A=A)
            return A.compose(B)
        A = as_layout(A)
        if tr is not None:
            tr.note("layout_A", A=A)
    if type(B) is Layout:
        return _compose_layouts(A, B)
    if B is None:
        if tr is not None:
            tr.note("no_tiler")
        return A
    if type(B) is int or _is_symbolic(B):  # a size n means n:1
        if tr is not None:
            tr.note("size", B=B)
        return _compose_layouts(A, Layout._new(B, 1))  # C++: composition_impl(A, n, Int<1>)
    if isinstance(B, tuple):
        return _compose_by_mode(A, B)
    if isinstance(B, str):
        from .notation import parse

        B = parse(B)
        if tr is not None:
            tr.note("parsed_B", B=B)
        return composition(A, B)
    if hasattr(B, "compose_left"):
        if tr is not None:
            tr.note("composed_B", B=B)
        return B.compose_left(A)
    raise CutepyError(f"composition: cannot use {B!r} as the right-hand side")


def make_swizzle(y_mask: int, z_mask: int) -> Swizzle:
    """The swizzle that XORs the bits of ``y_mask`` into those of ``z_mask`` (C++'s ``make_swizzle<Y,Z>``).

    Pre: both masks have the same number of bits, and together they are the masks of one
    ``Swizzle<B,M,S>`` (else ``CutepyError``, where C++ fails a static_assert).

    >>> make_swizzle(0b1000, 0b0100), make_swizzle(0b11000000, 0b00000110)
    (Sw<1,2,1>, Sw<2,1,5>)
    """
    for what, m in (("Y", y_mask), ("Z", z_mask)):
        if type(m) is not int or m < 0:
            raise CutepyError(f"make_swizzle: the {what} mask must be a non-negative integer, got {m!r}")
    b = bin(y_mask).count("1")
    if b != bin(z_mask).count("1"):
        raise CutepyError(f"make_swizzle: masks {y_mask:#b} and {z_mask:#b} have different numbers of bits")
    tz_y = (y_mask & -y_mask).bit_length() - 1 if y_mask else 32
    tz_z = (z_mask & -z_mask).bit_length() - 1 if z_mask else 32
    sw = Swizzle(b, min(tz_y, tz_z) % 32, tz_y - tz_z)
    if sw.yyy_mask | sw.zzz_mask != y_mask | z_mask:
        raise CutepyError(f"make_swizzle: masks {y_mask:#b} and {z_mask:#b} are not those of one swizzle")
    return sw


def _with_swizzle(sw: Swizzle, L: Layout) -> Any:
    """``sw o 0 o L``; a swizzle without bits is the identity and gives ``L`` (as C++)."""
    return L if sw.bits == 0 else ComposedLayout(sw, 0, L)


def _compose_swizzle_right(A: Layout, B: Any) -> Any:
    """``A o Sw`` and ``A o (Sw o 0 o L)`` as C++: A moves the bits, ``make_swizzle(A(Y), A(Z))``."""
    if type(B) is ComposedLayout:
        if not isinstance(B.outer, Swizzle):
            return B.compose_left(A)
        if B.offset != 0:
            raise CutepyError(f"composition {A} o ({B}): C++ requires the composed layout's offset to be 0")
        return composition(_compose_swizzle_right(A, B.outer), B.inner)
    return _with_swizzle(make_swizzle(A(B.yyy_mask), A(B.zzz_mask)), A)


def _compose_by_mode(A: Layout, tiler: tuple) -> Layout:
    shape, stride = A.shape, A.stride
    if type(shape) is not tuple:
        shape, stride = (shape,), (stride,)
    if len(tiler) > len(shape):
        raise CutepyError(f"composition: tiler {_fmt_tiler(tiler)} has more modes than {A}")
    ss, dd = [], []
    for i, t in enumerate(tiler):
        m = composition(Layout._new(shape[i], stride[i]), t)
        ss.append(m.shape)
        dd.append(m.stride)
    tr = _tracer
    if tr is not None and len(tiler) < len(shape):
        tr.note("dropped", first=len(tiler))
    return Layout._new(tuple(ss), tuple(dd))


def _fmt_tiler(t: Any) -> str:
    if isinstance(t, tuple):
        return "<" + ", ".join(_fmt_tiler(x) for x in t) + ">"
    return str(t)


def coalesce_x(A: Layout) -> tuple[tuple, tuple]:
    """Flat coalesce that also keeps A's function *outside* its domain (C++ ``coalesce_x``).

    A trailing size-1 mode is treated as size 2 so that its stride survives: only the
    last mode's stride matters past the domain, and composition reads nothing else there.
    """
    fs, fd = it.flatten(A._shape), it.flatten(A._stride)
    if not fs:
        return (2,), (0,)
    if fs[-1] == 1:
        fs = fs[:-1] + (2,)
        if _tracer is not None:
            _tracer.note("last_one")
    s, d = coalesce_flat(fs, fd)
    if type(s) is not tuple:
        return (s,), (d,)
    return s, d


def _compose_layouts(A: Layout, B: Layout) -> Layout:
    ls, ld = coalesce_x(A)
    tr = _tracer
    if tr is not None:
        tr.note("coalesce_x", A=A, B=B, shape=ls, stride=ld)
    usage = [0] * (len(ls) - 1)
    signs: set = set()
    s, d = _impl(ls, ld, B._shape, B._stride, A, B, usage, signs)
    if usage and len(signs) > 1:
        raise AdmissibilityError(
            f"composition {A} o {B} is inadmissible: B mixes positive and negative strides over "
            f"the modes of coalesce(A) = {Layout._new(ls, ld)}, so A(B(c)) borrows across them "
            "and is not the sum of the modes' results"
        )
    if type(B._shape) is tuple and usage:
        if tr is not None:
            tr.note("carry", usage=tuple(usage), shape=ls)
        _check_carry_free(ls, ld, usage, A, B)
    return Layout._new(s, d)


def _check_carry_free(ls: tuple, ld: tuple, usage: list, A: Layout, B: Layout) -> None:
    """Right-distributivity needs B's modes to add up in A's digits without carries.

    ``usage[i]`` sums, over B's leaves, the largest value each puts in digit ``i`` of
    ``coalesce_x(A)``. A carry out of digit ``i`` would change A's offset, so C++'s
    mode-by-mode result would be wrong there.
    """
    for i, u in enumerate(usage):
        if u > ls[i] - 1:
            raise AdmissibilityError(
                f"composition {A} o {B} is inadmissible: B's modes overlap in mode {i} of "
                f"coalesce(A) = {Layout._new(ls, ld)}: together they reach {u} there, past its "
                f"shape {ls[i]}, so A(B(c)) carries and is not the sum of the modes' results"
            )


def _compose_basis(A: Layout, rs: Any, rd: ScaledBasis, B: Layout) -> tuple[Any, Any]:
    """A B leaf whose stride is a basis element picks the sub-mode of A it names."""
    sub = A
    for m in rd.mode:
        if type(sub.shape) is not tuple or not 0 <= m < len(sub.shape):
            raise CutepyError(f"composition {A} o {B}: basis stride {rd} names no mode of A")
        sub = sub[m]
    ls, ld = coalesce_x(sub)
    if _tracer is not None:
        _tracer.note("basis", stride=rd, sub=sub, shape=ls, stride_x=ld)
    return _impl(ls, ld, rs, rd.value, A, B, [0] * (len(ls) - 1))


def _impl(ls: tuple, ld: tuple, rs: Any, rd: Any, A: Layout, B: Layout,
          usage: list, signs: set | None = None) -> tuple[Any, Any]:
    """C++ ``composition_impl`` for a flat ``ls:ld``; adds each leaf's digit use to ``usage``.

    A tracer hears ``leaf`` for each leaf of B, then ``zero``, ``single``, or a ``skip`` or
    ``take`` for each mode of ``ls:ld`` but the last and ``rest`` for the last.
    """
    if type(rs) is tuple:
        ss, dd = [], []
        for s, d in zip(rs, rd):
            a, b = _impl(ls, ld, s, d, A, B, usage, signs)
            ss.append(a)
            dd.append(b)
        return tuple(ss), tuple(dd)
    tr = _tracer
    if tr is not None:
        tr.note("leaf", shape=rs, stride=rd)
    if type(rd) is not int and isinstance(rd, ScaledBasis):
        return _compose_basis(A, rs, rd, B)
    if rd == 0:
        if tr is not None:
            tr.note("zero", shape=rs)
        return rs, rd
    last = len(ls) - 1
    if last == 0:
        if tr is not None:
            tr.note("single", mode=(ls[0], ld[0]), rest=(rs, rd), stride=rd * ld[0])
        return rs, rd * ld[0]
    # as C++: work on |stride| and give the results its sign; by A(-x) == -A(x) (C++'s
    # truncating division) an all-negative B composes as the mirror image of a positive one
    sign = -1 if rd < 0 else 1
    if rs != 1 and signs is not None:
        signs.add(sign)
    result_s: list = []
    result_d: list = []
    rest_s, rest_d = rs, sign * rd
    for i in range(last):
        s = ls[i]
        next_shape = -(-s // rest_d)
        next_stride = -(-rest_d // s)
        if next_shape == 1 or rest_s == 1:
            if rest_s != 1 and rest_d % s != 0:
                raise _inadmissible(A, B, "stride", i, ls, ld,
                                    f"B's remaining stride {rest_d} is neither a multiple of "
                                    f"A's shape {s} nor smaller than it")
            if tr is not None:
                tr.note("skip", i=i, mode=(s, ld[i]), rest=(rest_s, rest_d), stride=next_stride)
            rest_d = next_stride
            continue
        new = next_shape if next_shape < rest_s else rest_s
        if rest_s % new != 0:
            raise _inadmissible(A, B, "shape", i, ls, ld,
                                f"B's remaining shape {rest_s} is not a multiple of {new}, "
                                f"the extent that A's shape {s} leaves at stride {rest_d}")
        if rest_s > next_shape and s % rest_d != 0:
            raise _inadmissible(A, B, "stride", i, ls, ld,
                                f"B's remaining stride {rest_d} does not divide A's shape {s}, "
                                f"and B's remaining shape {rest_s} runs past it")
        result_s.append(new)
        result_d.append(sign * rest_d * ld[i])
        usage[i] += (new - 1) * rest_d
        if tr is not None:
            tr.note("take", i=i, mode=(s, ld[i]), rest=(rest_s, rest_d), shape=next_shape,
                    stride=next_stride, new=new, out=result_d[-1], left=rest_s // new)
        rest_s //= new
        rest_d = next_stride
    rest_d = sign * rest_d
    if not result_s:
        if tr is not None:
            tr.note("rest", mode=(ls[last], ld[last]), rest=(rest_s, rest_d), stride=rest_d * ld[last])
        return rest_s, rest_d * ld[last]
    if rest_s == 1:
        if len(result_s) == 1:
            return result_s[0], result_d[0]
        return tuple(result_s), tuple(result_d)
    if tr is not None:
        tr.note("rest", mode=(ls[last], ld[last]), rest=(rest_s, rest_d), stride=rest_d * ld[last])
    result_s.append(rest_s)
    result_d.append(rest_d * ld[last])
    return tuple(result_s), tuple(result_d)


def _inadmissible(A, B, kind: str, i: int, ls: tuple, ld: tuple, why: str) -> AdmissibilityError:
    flat = Layout._new(ls, ld)
    return AdmissibilityError(
        f"composition {A} o {B} is inadmissible: {kind} divisibility fails at mode {i} "
        f"of coalesce(A) = {flat}: {why}"
    )


def is_admissible(A: Layout, B: Any) -> bool:
    """Whether ``composition(A, B)`` meets CuTe's divisibility conditions."""
    try:
        composition(A, B)
    except AdmissibilityError:
        return False
    return True




def slice_and_offset_swizzled(crd: Any, C: ComposedLayout) -> tuple[Any, Any]:
    """C++'s ``slice_and_offset`` of ``Sw<B,M,S> o offset o L``: the sliced layout and the offset.

    When the fixed coordinates decide only bits the swizzle leaves alone, or when the free
    modes touch only one side (Y or Z) of it, the swizzle folds into a plain layout with
    signed strides; otherwise the result stays ``Sw o offset' o slice(L)``. As in C++, an
    all-wildcard slice keeps the swizzle.

    >>> C = ComposedLayout(Swizzle(3, 1, 4), 0, Layout((32, 8), (8, 1)))
    >>> slice_and_offset_swizzled((5, None), C)
    (((2,2,2)):((1,-2,4)), 42)
    """
    from .layout import _fill_none, _has_none, slice_and_offset

    sw, inner = C.outer, C.inner
    sliced, fixed = slice_and_offset(crd, inner)
    if not _has_none(crd) or _fill_none(crd) == crd:
        return sliced, C(crd)
    if crd is None or (type(crd) is tuple and all(x is None for x in it.flatten(crd))):
        return ComposedLayout(sw, C.offset, sliced), 0
    code = sw.yyy_mask | sw.zzz_mask
    off_only_zy = C.offset ^ (fixed & code)
    off_anti_zy = fixed & ~code
    n = sliced.size()
    active = sliced(n - 1) & code if n > 0 else 0
    if active & ~sw(active):  # the free modes reach both Y and Z: the swizzle stays
        return ComposedLayout(sw, off_only_zy, sliced), off_anti_zy
    z = sw.zzz_mask & -sw.zzz_mask
    y = sw.yyy_mask & -sw.yyy_mask
    b, m, s = sw.bits, sw.base, abs(sw.shift)

    def strides(first: bool) -> tuple:
        if first:
            return tuple(z << i if off_only_zy & (y << i) == 0 else -(z << i) for i in range(b))
        return tuple((y + z) << i if off_only_zy & (z << i) == 0 else (y - z) << i for i in range(b))

    lo, hi = strides(z < y), strides(z > y)
    two = (2,) * b
    shape = (1 << m, two if b != 1 else 2, 1 << (s - b), two if b != 1 else 2, 1)
    stride = (1, lo if b != 1 else lo[0], 1 << (m + b), hi if b != 1 else hi[0], 1 << (m + b + s))
    return composition(Layout._new(shape, stride), sliced), sw(off_only_zy) + off_anti_zy
