"""Inverses and common sub-layouts: ``right_inverse``, ``left_inverse``, ``nullspace``,
``max_common_layout`` and ``max_common_vector``.

>>> from cutepy import Layout
>>> right_inverse(Layout((4, 2), (2, 1)))
(2,4):(4,1)
>>> left_inverse(Layout(4, 2))
(2,4):(0,1)
>>> nullspace(Layout((2, 3, 4), (1, 0, 2)))
3:2
>>> max_common_vector(Layout((4, 8), (1, 4)), Layout((4, 8), (1, 8)))
4
"""

from __future__ import annotations

from typing import Any

from ..core import inttuple as it
from ..core.basis import ScaledBasis
from ..core.dynamic import DynamicInt, has_dynamic, is_static_int
from ..core.errors import AdmissibilityError, CutepyError, Undecided
from ..core.events import Event, Mode
from ..core.kinds import (
    LEFT_INVERSE,
    MAX_COMMON_LAYOUT,
    MAX_COMMON_LAYOUT_BY_B,
    MAX_COMMON_VECTOR,
    MAX_COMMON_VECTOR_BY_B,
    NULLSPACE,
    RIGHT_INVERSE,
)
from ..core.layout import Layout, derived, derived_if_kept, layout_arg
from ..core.lazy import load
from ..core.tracing import recorder
from .coalesce import coalesce, coalesce_dynamic, coalesce_flat, coalesce_static, modes_layout
from .composition import composition

np = load("numpy")  # numpy loads on first use (the module's import needs none)

# -- the steps explain() shows: the decisions this algorithm reports, and their words --------
# (an event without words is worded by its explainer in cutepy.derivation, which knows the
# derivation around it)


class Positions(Event):
    """``coalesce(A)``'s flat modes and the column-major position of each."""

    shape: tuple
    stride: tuple
    positions: tuple

    def words(self, tex: Any) -> str:
        X = modes_layout(list(zip(self.shape, self.stride)))
        positions = ", ".join(map(str, self.positions))
        return f"coalesce(A) = {X}; column-major positions of its modes: {positions}"


class Chain(Event):
    """``right_inverse``: ``mode`` continues the chain of strides; it maps to ``position``."""

    mode: Mode
    position: Any

    def words(self, tex: Any) -> str:
        s, d = self.mode
        return f"mode {s}:{d} continues the chain at stride {d}: take {s}:{self.position}"


class OffChain(Event):
    """``right_inverse``: ``mode`` is off the chain, which needs stride ``needs`` next."""

    mode: Mode
    needs: Any

    def words(self, tex: Any) -> str:
        return f"mode {self.mode[0]}:{self.mode[1]} is off the chain (it would need stride {self.needs})"


class ZeroMode(Event):
    """``left_inverse``: the stride-0 ``mode`` reaches no new offset."""

    mode: Mode

    def words(self, tex: Any) -> str:
        return f"mode {self.mode[0]}:0 reaches no new offset: skipped"


class InverseStep(Event):
    """``left_inverse``: ``count = stride / below`` offsets per step, mapped to ``position``."""

    stride: Any
    below: Any
    count: Any
    position: Any

    def words(self, tex: Any) -> str:
        return (f"stride {self.stride}: {self.stride}/{self.below} = {self.count} offsets per step of the "
                f"modes below, mapped to position {self.position}")


class Close(Event):
    """``left_inverse``: the largest-stride mode's ``size`` closes the inverse."""

    size: Any

    def words(self, tex: Any) -> str:
        return f"the largest-stride mode's size {self.size} closes the inverse"


def _flat(L: Layout) -> tuple[tuple, tuple]:
    s, d = L.shape, L.stride
    if type(s) is not tuple:
        return (s,), (d,)
    return it.flatten_tuple(s), it.flatten_tuple(d)


def _wrap(shapes: list, strides: list) -> Layout:
    if not shapes:
        return Layout._grown(1, 0)
    if len(shapes) == 1:
        return Layout._grown(shapes[0], strides[0])
    return Layout._grown(tuple(shapes), tuple(strides))


def _coalesced(A: Layout) -> tuple[tuple, tuple, list]:
    """``coalesce(A)``'s flat modes (integer strides only) and their column-major positions."""
    fs, dyn_s = it.flatten_dyn(A._shape)
    fd, dyn_d = it.flatten_dyn(A._stride)
    fs, fd = coalesce_dynamic(fs, fd) if dyn_s or dyn_d else coalesce_static(fs, fd)
    if type(fs) is not tuple:
        fs, fd = (fs,), (fd,)
    _int_strides(A, fd)
    pre = _prefix(fs)
    rec = recorder()
    if rec:
        rec.emit(Positions(fs, fd, tuple(pre)))
    return fs, fd, pre


def _prefix(fs: tuple) -> list:
    pre = []
    acc = 1
    for s in fs:
        pre.append(acc)
        acc = acc * s
    return pre


def right_inverse(A: Layout) -> Layout:
    """The largest ``R`` with ``A(R(i)) == i`` for every ``i`` in R's domain.

    As C++: walk A's coalesced modes in stride order, following the chain of strides
    1, s0*d0, ... ; each mode on the chain adds its shape with its column-major position.

    Pre:  integer strides (else ``CutepyError``); a swizzled ``A`` is ``Sw o 0 o L``.
    Post: ``A(result(i)) == i`` for all ``0 <= i < size(result)`` (``1:0`` when ``A`` never
          reaches offset 1); for an injective ``A`` the run ``0 .. size(result)-1`` is the longest.

    >>> A = Layout((4, 2), (2, 1))
    >>> right_inverse(A), [A(right_inverse(A)(i)) for i in range(8)]
    ((2,4):(4,1), [0, 1, 2, 3, 4, 5, 6, 7])
    """
    rec = recorder()
    if rec and rec.opens(right_inverse):
        return rec.framed(right_inverse, A)
    if type(A) is not Layout and (impl := RIGHT_INVERSE.of(A)) is not None:
        return impl(A)
    if type(A) is not Layout:
        A = layout_arg(A, "right_inverse")
    return derived_if_kept(A, _right_inverse_of)


def _right_inverse_of(A: Layout) -> Layout:
    """:func:`right_inverse` of a plain layout, a function of A alone (kept on the value)."""
    rec = recorder()
    fs, fd, pre = derived(A, _coalesced)
    shapes, strides = [], []
    curr = 1
    order = _cxx_sort_order(fd)
    dyn = has_dynamic(fs, fd)
    if dyn:  # as C++: only static strides are sorted, and the chain follows
        keep = [k for k in range(len(fd)) if is_static_int(fd[k])]  # statically equal strides
        order = [keep[j] for j in _cxx_sort_order([fd[k] for k in keep])]
    for k in order:
        if fd[k] == curr and (not dyn or type(curr) is not DynamicInt):
            shapes.append(fs[k])
            strides.append(pre[k])
            curr = fs[k] * fd[k]
            if rec:
                rec.emit(Chain((fs[k], fd[k]), pre[k]))
        elif rec:
            rec.emit(OffChain((fs[k], fd[k]), curr))
    s, d = coalesce_flat(shapes, strides)
    return Layout._grown(s, d)


def left_inverse(A: Layout) -> Layout:
    """C++'s quasi-inverse ``L``: ``A(L(A(i))) == A(i)``; ``L(A(i)) == i`` when ``A`` is injective.

    As C++: walk A's coalesced modes in stride order (C++'s sort), skip stride-0 modes, give
    each mode the quotient of its stride by the extent already taken at its column-major
    position, and close with the last mode's shape. Offsets that A does not reach map to
    whatever this construction gives (often 0), exactly as in C++.

    Pre:  integer strides (else ``CutepyError``); each non-zero stride, in sorted order, is a
          multiple of the extent taken below it (C++'s static assertion; else
          ``AdmissibilityError``); no negative stride (C++ answers with a negative extent, which
          is no layout: ``AdmissibilityError``); a swizzled ``A`` is ``Sw o 0 o L``.
    Post: ``A(result(A(i))) == A(i)`` for all ``0 <= i < size(A)`` (checked where A's modes
          overlap; ``AdmissibilityError`` where C++'s answer breaks it); ``result(A(i)) == i``
          when ``A`` is injective.

    >>> A = Layout((4, 2), (2, 1))
    >>> left_inverse(A), [left_inverse(A)(A(i)) for i in range(8)]
    ((2,4):(4,1), [0, 1, 2, 3, 4, 5, 6, 7])
    >>> left_inverse(Layout((8, 4), (1, 4)))  # not injective: a quasi-inverse
    (4,4):(1,8)
    """
    rec = recorder()
    if rec and rec.opens(left_inverse):
        return rec.framed(left_inverse, A)
    if type(A) is not Layout and (impl := LEFT_INVERSE.of(A)) is not None:
        return impl(A)
    if type(A) is not Layout:
        A = layout_arg(A, "left_inverse")
    return derived_if_kept(A, _left_inverse_of)


def _left_inverse_of(A: Layout) -> Layout:
    """:func:`left_inverse` of a plain layout, a function of A alone (kept on the value)."""
    rec = recorder()
    fs, fd, pre = derived(A, _coalesced)
    order = _cxx_sort_order(fd)
    shapes: list = []
    strides: list = [0]
    total = 1
    reach = 1  # one past the largest offset of the modes taken so far
    overlap = False  # a mode starts inside their reach: A may not be one-to-one
    for k in order:
        d = fd[k]
        if d == 0:
            if rec:
                rec.emit(ZeroMode((fs[k], d)))
            continue
        if d < 0:
            raise AdmissibilityError(
                f"left_inverse of {A}: stride {d} is negative; C++ answers with the negative extent "
                f"{d // total if d % total == 0 else d}, which is no layout")
        overlap = overlap or bool(d < reach)  # symbolic: decided from the facts, or Undecided
        reach = reach + (fs[k] - 1) * d
        if d % total != 0:
            raise AdmissibilityError(
                f"left_inverse of {A}: stride {d} is not a multiple of {total}, the extent "
                "of the modes of smaller stride (C++'s left inverse divisibility condition)"
            )
        shapes.append(d // total)
        strides.append(pre[k])
        if rec:
            rec.emit(InverseStep(d, total, shapes[-1], pre[k]))
        total *= d // total
    shapes.append(fs[order[-1]])
    if rec:
        rec.emit(Close(shapes[-1]))
    s, d = coalesce_flat(shapes, strides)
    L = Layout._grown(s, d)
    if overlap:
        _check_left_inverse(A, L)
    return L


def _cxx_sort_order(keys: tuple) -> list:
    """The positions of ``keys`` in C++'s sorted order (``detail::SortByKey``: an exchange sort,
    which is not stable: equal keys may come out in another order than ``sorted`` gives).

    Pre:  ``keys`` compare with ``<``.
    Post: ``[keys[k] for k in result]`` is sorted; the order of equal keys is C++'s.

    >>> _cxx_sort_order((2, 2, 1))
    [2, 1, 0]
    """
    order = list(range(len(keys)))
    for i in range(len(order)):
        for j in range(i + 1, len(order)):
            if keys[order[j]] < keys[order[i]]:
                order[i], order[j] = order[j], order[i]
    return order


def _check_left_inverse(A: Layout, L: Layout) -> None:
    """C++'s post-condition ``A(L(A(i))) == A(i)`` for every ``i``, checked when A's modes
    overlap (C++ answers there without checking; ``L`` and ``A`` are evaluated past their
    sizes as C++ does, the last mode taking the rest of the index)."""
    n = A.size()
    leaves = [x for X in (A, L) for t in (X.shape, X.stride)
              for x in (it.flatten_tuple(t) if type(t) is tuple else (t,))]
    if not isinstance(n, int) or any(not isinstance(x, int) for x in leaves):  # run-time ints are values
        raise Undecided(f"left_inverse of {A}: its modes overlap, and whether C++'s answer meets its "
                        "post-condition depends on the symbols' values: substitute them first")
    if n > MAX_INVERSE_CHECK:
        raise CutepyError(f"left_inverse of {it.short_repr(A)}: its modes overlap and {n} elements are too "
                          f"many to check (MAX_INVERSE_CHECK = {MAX_INVERSE_CHECK})")
    want = np.asarray(A.offsets(np.arange(n, dtype=np.int64)))
    got = np.asarray(A.offsets(L.offsets(want)))
    if not np.array_equal(got, want):
        k = int(np.nonzero(got != want)[0][0])
        raise AdmissibilityError(
            f"left_inverse of {it.short_repr(A)}: C++'s answer {it.short_repr(L)} breaks its post-condition "
            f"A(L(A(i))) == A(i) "
            f"at i = {k}: A(L({int(want[k])})) = {int(got[k])}")


#: Largest swizzled layout whose inverse is checked element by element (numpy, int64).
MAX_INVERSE_CHECK = 1 << 22


def _int_strides(A: Layout, fd: tuple) -> None:
    for d in fd:
        if isinstance(d, ScaledBasis):
            raise CutepyError(f"the inverse of {A} needs integer strides; {d} is not one")


def nullspace(A: Layout) -> Layout:
    """The indices of A's domain whose offset is 0, as a layout (stride-0 leaves of A).

    A swizzled layout's nullspace is ``1:0``, as in C++.

    Pre:  ``A`` is a Layout or a swizzled layout ``Sw o offset o L`` (else ``CutepyError``).
    Post: ``A(result(i)) == 0`` for all ``i < size(result)``;
          ``size(result) == size(A) / size(filter(A))``.

    >>> nullspace(Layout((2, 4, 3), (1, 0, 2)))
    4:2
    """
    if type(A) is not Layout and (impl := NULLSPACE.of(A)) is not None:
        return impl(A)
    if type(A) is not Layout:
        A = layout_arg(A, "nullspace")
    fs, fd = _flat(A)
    rstride = it.compact_major(fs)
    shapes, strides = [], []
    for k, d in enumerate(fd):
        if not isinstance(d, ScaledBasis) and d == 0:
            shapes.append(fs[k])
            strides.append(rstride[k])
    return _wrap(shapes, strides)


def max_common_layout(A: Layout, B: Layout) -> Layout:
    """The largest layout ``V`` with ``A o V`` and ``B o V`` both compact (stride 1).

    With a swizzled side ``Sw<B,M,S> o 0 o L`` (C++): the common layout of ``L`` and the
    other side, truncated to ``2**M`` elements (the swizzle keeps runs of ``2**M``).

    Pre:  ``A`` and ``B`` are layouts (or swizzled layouts) over the same domain shape.
    Post: ``A(result(i)) == i`` and ``B(result(i)) == i`` for all ``0 <= i < size(result)``.

    >>> max_common_layout(Layout((4, 8), (1, 4)), Layout((4, 8), (1, 8)))
    4:1
    """
    if type(A) is not Layout and (impl := MAX_COMMON_LAYOUT.of(A)) is not None:
        return impl(A, B)
    if type(B) is not Layout and (impl := MAX_COMMON_LAYOUT_BY_B.of(B)) is not None:
        return impl(B, A)
    if type(A) is not Layout:
        A = layout_arg(A, "max_common_layout")
    inv_b = right_inverse(B)
    common = coalesce(composition(A, inv_b))
    s0 = common.shape[0] if type(common.shape) is tuple else common.shape
    d0 = common.stride[0] if type(common.stride) is tuple else common.stride
    if d0 == 1:
        return composition(inv_b, Layout._new(s0, d0))
    return Layout._new(1, 0)


def max_common_vector(A: Layout, B: Layout) -> Any:
    """The number of leading elements that are contiguous in both A and B.

    A swizzled side ``Sw<B,M,S> o 0 o L`` caps it at ``2**M`` (both sides with the same
    swizzle: no cap), as C++.

    Pre:  as :func:`max_common_layout`.
    Post: ``N >= 1`` with ``A(V(n)) == n == B(V(n))`` for all ``0 <= n < N``, where
          ``V = max_common_layout(A, B)`` and ``N == size(V)`` for plain layouts. (C++ states
          it as ``A(B.get_1d_coord(n)) == n``, which has no meaning where B has a stride-0
          mode: ``get_1d_coord`` divides by that stride.)

    >>> max_common_vector(Layout((4, 8), (1, 4)), Layout((4, 8), (1, 8)))
    4
    """
    if type(A) is not Layout and (impl := MAX_COMMON_VECTOR.of(A)) is not None:
        return impl(A, B)
    if type(B) is not Layout and (impl := MAX_COMMON_VECTOR_BY_B.of(B)) is not None:
        return impl(B, A)
    if type(A) is not Layout:
        A = layout_arg(A, "max_common_vector")
    if type(B) is not Layout:
        B = layout_arg(B, "max_common_vector")
    inv_b = right_inverse(B)
    common = coalesce(composition(A, inv_b))
    s0 = common.shape[0] if type(common.shape) is tuple else common.shape
    d0 = common.stride[0] if type(common.stride) is tuple else common.stride
    n = s0 if d0 == 1 else 1
    _check_common_vector(A, B, inv_b, n)
    return n


def _check_common_vector(A: Layout, B: Layout, inv_b: Layout, n: Any) -> None:
    """The post-condition ``A(V(k)) == k == B(V(k))`` for every ``k < n``, with ``V`` the first
    ``n`` elements of ``right_inverse(B)``, checked by the algebra (``A o V`` and ``B o V``
    coalesce to ``n:1``): exact for every ``k``, near-linear in the rank. Where C++'s formula
    breaks it, raise instead of answering silently wrong."""
    if type(n) is not int or n <= 1:
        return
    want = Layout._new(n, 1)
    V = composition(inv_b, want)
    for name, X in (("A", A), ("B", B)):
        try:
            ok = coalesce(composition(X, V)) == want
        except CutepyError:
            ok = False
        if not ok:
            raise AdmissibilityError(
                f"max_common_vector({it.short_repr(A)}, {it.short_repr(B)}): C++'s answer {n} breaks its "
                f"post-condition "
                f"{name}(V(k)) == k for k < {n}, V = right_inverse(B) o {n}:1")

#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "left_inverse", "max_common_layout", "max_common_vector", "nullspace", "right_inverse",
]
