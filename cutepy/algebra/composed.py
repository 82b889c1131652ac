"""The composed layout ``outer o offset o inner``: a swizzle (or a layout) over a layout.

Layer 2, the top of the algebra. C++ gives a composed layout an overload of most operations,
which applies the operation to ``inner`` and keeps ``outer`` and ``offset``
(``composition(layout_a(), offset(), op(layout_b()))``); here each of those variants is
registered in its operation's table (:mod:`cutepy.core.kinds`), at the end of this module,
beside the swizzle's variants whose results are composed layouts (``Sw o B``, ``A o Sw``,
``make_layout(Sw)``). The value itself (construction, evaluation, slicing, printing) comes
first. :func:`composed_parts` and :func:`is_layout` answer "is it composed?" for the analyses
that read a composed layout's parts, so no other module asks.

>>> from cutepy import Layout, Swizzle, composition
>>> C = composition(Swizzle(3, 4, 3), Layout((8, 8), (8, 1)))
>>> print(C)
Sw<3,4,3> o 0 o (8,8):(8,1)
>>> C(1, 2), C.size()
(10, 64)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import inttuple as it
from ..core import kinds as k
from ..core.dynamic import DynamicInt, static_eq
from ..core.errors import AdmissibilityError, CutepyError, LayoutError, SymbolicError
from ..core.kinds import ComposedKind
from ..core.layout import (
    MAX_LEAF,
    Layout,
    _fill_none,
    _has_none,
    _leaf,
    _wide,
    append,
    as_layout,
    dice,
    flatten,
    get,
    group,
    is_static,
    slice_and_offset,
    take,
)
from ..core.lazy import load
from ..core.swizzle import SmemPtrFlag, Swizzle, compose_swizzles, make_swizzle
from ..core.tracing import recorder as _recorder
from .casting import cxx_gcd as _cxx_gcd
from .casting import downcast, make_fragment_like, make_layout_like, max_alignment, upcast
from .coalesce import coalesce, filter
from .complement import complement
from .composition import coalesce_x, composition
from .divides import flat_divide, logical_divide, tiled_divide, zipped_divide
from .inverse import (
    MAX_INVERSE_CHECK,
    left_inverse,
    max_common_layout,
    max_common_vector,
    right_inverse,
)
from .products import (
    MAX_PRODUCT_CHECK,
    blocked_product,
    flat_product,
    logical_product,
    raked_product,
    tile_to_shape,
    tiled_product,
    zipped_product,
)

if TYPE_CHECKING:  # numpy is imported only where offsets are computed
    import numpy as np
else:  # numpy loads on first use (the module's import needs none)
    np = load("numpy")

#: whole-domain evaluation (it loads numpy), on first use
_evaluate = load("cutepy.core.evaluate")


def _compose3(outer: Any, offset: Any, inner: Any) -> Any:
    """C++'s ``composition(layout_a, offset, layout_b)``, which every operation on a composed
    layout builds its result with: ``outer o offset o inner``, or ``inner`` itself where the
    outer function is a swizzle without bits and the offset is 0 (C++ drops ``Sw<0,M,S>``)."""
    if isinstance(outer, Swizzle) and outer.bits == 0 and offset == 0 and type(inner) is Layout:
        return inner
    return ComposedLayout(outer, offset, inner)


def _as_inner(B: Any) -> Any:
    if isinstance(B, (ComposedLayout, Layout)):
        return B
    if type(B) is int:
        return Layout(B)
    if isinstance(B, tuple):
        return as_layout(B)
    raise CutepyError(f"cannot compose a swizzle with {B!r}")


def _offset_arg(offset: Any) -> Any:
    """A composed layout's offset checked as a stride is: an integer within 64 bits (numpy's
    become ``int``), a symbolic integer, a basis element, or a tuple of them (a coordinate offset
    of a basis-strided layout)."""
    if isinstance(offset, int) and type(offset) is not bool and -MAX_LEAF <= offset <= MAX_LEAF:
        return offset  # an int subclass is kept as it is (SmemPtrFlag: C++'s smem_ptr_flag_bits)
    if isinstance(offset, tuple):
        for x in offset:
            _offset_arg(x)
        if _wide(offset) is not None:
            raise LayoutError(f"ComposedLayout: the offset {it.short_repr(offset)} has a leaf beyond "
                              f"64 bits (|leaf| <= {MAX_LEAF}), as in C++ CuTe")
        return offset
    try:
        return _leaf(offset, "the offset", False)
    except LayoutError as e:
        raise LayoutError(f"ComposedLayout: {e}") from None


class ComposedLayout(ComposedKind):
    """``outer o offset o inner``: evaluates ``outer(offset + inner(c))``.

    ``outer`` is a :class:`Swizzle`, a :class:`Layout` or another composed layout;
    ``inner`` is a :class:`Layout` (or composed layout) and gives the domain. As in C++,
    ``inner`` may also be a bare :class:`Swizzle` (the inverse of a swizzled layout with an
    offset is ``inverse(L) o -offset o Sw``): such a composed layout is a function of an
    index with no domain of its own, so it evaluates at an index but has no shape or size.

    >>> C = ComposedLayout(Swizzle(1, 0, 1), 0, Layout((2, 2), (2, 1)))
    >>> C, [C(i) for i in range(4)]
    (Sw<1,0,1> o 0 o (2,2):(2,1), [0, 3, 1, 2])
    """

    # _plans: the value's slicing plans (see _slice_plan), a cache of forms derived from the fields
    __slots__ = ("outer", "offset", "inner", "_plans")

    def __init__(self, outer: Any, offset: Any, inner: Any):
        if not isinstance(outer, (Swizzle, Layout, ComposedLayout)):
            raise CutepyError(f"ComposedLayout: {outer!r} cannot be the outer function")
        if not isinstance(inner, (Layout, ComposedLayout, Swizzle)):
            raise CutepyError(f"ComposedLayout: {inner!r} is not a layout")
        if type(offset) is not int or not -MAX_LEAF <= offset <= MAX_LEAF:
            offset = _offset_arg(offset)
        self.outer, self.offset, self.inner = outer, offset, inner
        self._plans: dict | None = None

    def _domain(self) -> Any:
        """The inner layout, which gives the domain (a bare swizzle inside has none)."""
        if isinstance(self.inner, Swizzle):
            raise CutepyError(f"{self} has no domain (a swizzle is innermost): it has no shape or size, "
                              "evaluate it at an index")
        return self.inner

    # domain queries come from the inner layout
    @property
    def shape(self) -> Any:
        return self._domain().shape

    def size(self) -> Any:
        return self._domain().size()

    def rank(self) -> int:
        return self._domain().rank()

    def depth(self) -> int:
        return self._domain().depth()

    def cosize(self) -> Any:
        """As C++: a swizzle permutes within aligned blocks, so the cosize is the inner layout's."""
        self._domain()
        if isinstance(self.outer, Swizzle):
            return self.inner.cosize()
        return int(self.offsets().max()) + 1

    def __call__(self, *args: Any) -> Any:
        crd = args[0] if len(args) == 1 else args
        if isinstance(self.inner, Swizzle):
            if len(args) != 1 or not it.is_integer(crd) or isinstance(crd, bool):
                raise CutepyError(f"{self} is evaluated at an integer index, not at {it.short_repr(crd)}")
            return self.outer(self.offset + self.inner(crd))
        if _has_none(crd):
            return self.slice_and_offset(crd)[0]
        return self.outer(self.offset + self.inner(*args))

    def slice_and_offset(self, crd: Any) -> tuple[Any, Any]:
        """C++'s ``slice_and_offset(crd, outer o offset o inner)``: the free part and the offset.

        Pre:  ``crd`` as for :func:`cutepy.core.layout.slice_and_offset` over ``inner``'s shape.
        Post: ``self(c) == offset + sub(c')``, ``c'`` the wildcard positions of ``c``.

        >>> ComposedLayout(Swizzle(3, 0, 3), 0, Layout((8, 8), (8, 1))).slice_and_offset((3, None))
        (((4,2)):((-1,4)), 27)
        """
        if not isinstance(self.inner, Layout):
            raise CutepyError("slicing a doubly composed layout is not supported")
        if isinstance(self.offset, SmemPtrFlag):  # C++ never folds the swizzle of a flagged layout
            sub, off = slice_and_offset(crd, self.inner)
            if not _has_none(crd):
                return sub, self(crd)
            # C++ 4.7 keeps the flag for a static 0 offset only; any other offset (a run-time 0
            # too) takes the flag's place: Sw o off o sub, the swizzle then on element offsets
            return ComposedLayout(self.outer, self.offset if static_eq(off, 0) else off, sub), 0
        if isinstance(self.outer, Swizzle):  # C++ folds the swizzle into strides where it can
            return slice_and_offset_swizzled(crd, self)
        sub, off = slice_and_offset(crd, self.inner)
        return ComposedLayout(self.outer, self.offset + off, sub), 0

    def __getitem__(self, i: int) -> ComposedLayout:
        return ComposedLayout(self.outer, self.offset, self._domain()[i])

    def offsets(self, indices: Any = None, *, max_elements: int | None = None) -> np.ndarray:
        """Every offset of the domain (or of given indices) as int64, vectorized and in place
        (:func:`cutepy.core.evaluate.composed_offsets`, with its limits)."""
        if isinstance(self.inner, Swizzle):
            return self._offsets_without_domain(indices)
        return _evaluate.composed_offsets(self, self.outer, self.offset, self.inner, indices, max_elements)

    _offsets = offsets  # what cutepy.core.evaluate.offsets hands a composed layout to

    def _offsets_without_domain(self, indices: Any) -> np.ndarray:
        """``outer(offset + Sw(i))`` at given indices; a Layout outside is evaluated as C++ does
        at a negative index (truncating division: ``L(-k) == -L(k)``)."""
        if indices is None:
            raise CutepyError(f"{self} has no domain (a swizzle is innermost): pass the indices")
        idx = np.asarray(indices)
        if idx.dtype.kind not in "iu":
            raise CutepyError(f"indices of {self} must be integers, got dtype {idx.dtype}")
        vals = self.inner(idx.astype(np.int64)) + self.offset
        if isinstance(self.outer, Layout):
            return np.sign(vals) * self.outer.offsets(np.abs(vals))
        if isinstance(self.outer, Swizzle):
            return self.outer(vals)
        return self.outer.offsets(vals)


    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ComposedLayout)
            and self.outer == other.outer
            and self.offset == other.offset
            and self.inner == other.inner
        )

    def __hash__(self) -> int:
        return hash((ComposedLayout, self.outer, self.offset, self.inner))

    def __reduce__(self):
        return (ComposedLayout, (self.outer, self.offset, self.inner))

    def __str__(self) -> str:  # as C++: a nested composed layout prints as a flat chain
        return f"{self.outer} o {self.offset} o {self.inner}"

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        """``format(C, "cxx")``: C++'s exact print (``_N`` static, ``N`` dynamic) of every part."""
        return it.format_value(self, spec, lambda: " o ".join(
            _format_cxx(p) for p in (self.outer, self.offset, self.inner)))


def _format_cxx(x: Any) -> str:
    """A part of a composed layout as C++ prints it: layouts and offsets with ``_`` on static ints."""
    if isinstance(x, (Swizzle, SmemPtrFlag)):
        return str(x)
    if isinstance(x, (Layout, ComposedLayout)):
        return format(x, "cxx")
    return it.format_tuple(x, True)


def is_layout(x: Any) -> bool:
    """Whether ``x`` is a layout, plain or composed (C++'s ``is_layout`` trait).

    Pre:  none (any object).
    Post: ``True`` for a Layout and a composed layout (``Sw o offset o L`` included); ``False``
          for shapes, swizzles, tensors and anything else.

    >>> is_layout(Layout(4)), is_layout(make_composed_layout(Swizzle(1, 0, 1), 0, Layout(4))), is_layout((4,))
    (True, True, False)
    """
    return isinstance(x, (Layout, ComposedLayout))


def composed_parts(x: Any) -> tuple[Any, Any, Any] | None:
    """``(outer, offset, inner)`` of a composed layout (C++'s ``layout_a()``, ``offset()``,
    ``layout_b()``), None for anything else: the one place that tells a composed layout apart,
    for the analyses that read its structure (equivalence, pictures, emitted code).

    Pre:  none (any object).
    Post: ``x == ComposedLayout(*result)`` when ``result`` is not None.

    >>> composed_parts(make_composed_layout(Swizzle(1, 0, 1), 2, Layout(4))), composed_parts(Layout(4))
    ((Sw<1,0,1>, 2, 4:1), None)
    """
    return (x.outer, x.offset, x.inner) if isinstance(x, ComposedLayout) else None


def pointer_flag(x: Any) -> SmemPtrFlag | None:
    """The pointer flag of ``Sw<B,M,S> o smem_ptr[b](unset) o L`` (C++'s ``smem_ptr_flag_bits``),
    None for anything else: whether the swizzle of ``x`` acts on byte addresses.

    Pre:  none (any object).
    Post: ``result is x.offset`` for a pointer-flag layout, else None.

    >>> pointer_flag(ComposedLayout(Swizzle(3, 4, 3), SmemPtrFlag(16), Layout(8))), pointer_flag(Layout(8))
    (smem_ptr[16b](unset), None)
    """
    parts = composed_parts(x)
    return parts[1] if parts is not None and isinstance(parts[1], SmemPtrFlag) else None


def make_composed_layout(outer: Any, offset: Any, inner: Any) -> ComposedLayout:
    """CuTe's ``make_composed_layout(outer, offset, inner)``.

    Pre:  ``outer`` is a Swizzle, a Layout or a composed layout, ``inner`` a layout (or a shape)
          (else ``CutepyError``).
    Post: ``result(c) == outer(offset + inner(c))``; ``shape(result) == shape(inner)``.

    >>> make_composed_layout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1)))
    Sw<3,3,3> o 0 o (8,64):(64,1)
    """
    return ComposedLayout(outer, offset, _as_inner(inner))


def get_swizzle_portion(layout: Any) -> Swizzle:
    """The swizzle of ``Sw o offset o L``; a plain Layout's is the identity ``Sw<0,4,3>`` (as C++).

    Pre:  ``layout`` is a Layout or a composed layout (else ``CutepyError``).
    Post: ``layout == get_swizzle_portion(layout) o 0 o get_nonswizzle_portion(layout)`` for a
          swizzle over offset 0.

    >>> get_swizzle_portion(ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 8), (8, 1))))
    Sw<3,3,3>
    """
    if isinstance(layout, ComposedLayout) and isinstance(layout.outer, Swizzle):
        return layout.outer
    if isinstance(layout, Layout):
        return Swizzle(0, 4, 3)
    raise CutepyError(f"get_swizzle_portion: {layout!r} is not a layout or a swizzled layout")


def get_nonswizzle_portion(layout: Any) -> Any:
    """The layout under the swizzle of ``Sw o offset o L`` (``L``); a plain Layout is its own.

    Pre:  ``layout`` is a Layout or a composed layout (else ``CutepyError``).
    Post: the inner layout ``L``: same shape as ``layout``, and ``layout(c) == Sw(offset + L(c))``.

    >>> get_nonswizzle_portion(ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 8), (8, 1))))
    (8,8):(8,1)
    """
    if isinstance(layout, ComposedLayout) and isinstance(layout.outer, Swizzle):
        return layout.inner
    if isinstance(layout, Layout):
        return layout
    raise CutepyError(f"get_nonswizzle_portion: {layout!r} is not a layout or a swizzled layout")



def domain_offset(crd: Any, layout: Any) -> tuple[Any, Any]:
    """C++'s ``domain_offset``: the layout that starts at ``crd``, and the offset to add to a pointer.

    A Layout stays and gives ``layout(crd)``; a composed layout keeps the offset itself
    (``outer o (offset + inner(crd)) o inner``, pointer offset 0), as C++.

    Pre:  ``layout`` is a Layout (or a shape) or a composed layout; ``crd`` is a coordinate
          (or an index) of its shape (else ``CutepyError``).
    Post: ``(L, p)`` with ``p + L(c) == layout(c) + layout(crd)`` for a Layout, and
          ``L(c) == outer(offset + inner(crd) + inner(c))`` for a composed layout.

    >>> domain_offset((1, 2), Layout((4, 8), (1, 4)))
    ((4,8):(1,4), 9)
    >>> domain_offset((1, 2), ComposedLayout(Swizzle(1, 0, 1), 3, Layout((4, 8), (1, 4))))
    (Sw<1,0,1> o 12 o (4,8):(1,4), 0)
    """
    if isinstance(layout, ComposedLayout):
        if _has_none(crd):
            raise CutepyError(f"domain_offset: the coordinate {it.short_repr(crd)} has a wildcard")
        return ComposedLayout(layout.outer, layout.offset + layout._domain()(crd), layout.inner), 0
    layout = as_layout(layout) if not isinstance(layout, Layout) else layout
    if _has_none(crd):
        raise CutepyError(f"domain_offset: the coordinate {it.short_repr(crd)} has a wildcard")
    return layout, layout(crd)


def _with_swizzle(sw: Swizzle, L: Layout) -> Any:
    """``sw o 0 o L``; a swizzle without bits is the identity and gives ``L`` (as C++)."""
    return L if sw.bits == 0 else ComposedLayout(sw, 0, L)


def _compose_swizzle_right(A: Layout, B: Any) -> Any:
    """``A o Sw`` and ``A o (Sw o 0 o L)`` as C++: A moves the bits, ``make_swizzle(A(Y), A(Z))``."""
    if type(B) is ComposedLayout:
        if not isinstance(B.outer, Swizzle):
            return ComposedLayout(A, 0, B)
        if B.offset != 0:
            raise CutepyError(f"composition {A} o ({B}): C++ requires the composed layout's offset to be 0")
        return composition(_compose_swizzle_right(A, B.outer), B.inner)
    return _with_swizzle(make_swizzle(A(B.yyy_mask), A(B.zzz_mask)), A)




def slice_and_offset_swizzled(crd: Any, C: ComposedLayout) -> tuple[Any, Any]:
    """C++'s ``slice_and_offset`` of ``Sw<B,M,S> o offset o L``: the sliced layout and the offset.

    What does not depend on the fixed coordinates' values (the sliced layout, C++'s divisibility
    asserts, whether the swizzle stays, each folded layout) is worked out once per pattern of
    wildcards and kept on ``C`` (:func:`_slice_plan`); each coordinate then costs its offset and
    a few bit operations. Anything the plan does not cover, and every error, comes from
    :func:`_slice_swizzled_general` (the same answer: tests/algebra/test_swizzle_slice_plan.py).

    When the fixed coordinates decide only bits the swizzle leaves alone, or when the free
    modes touch only one side (Y or Z) of it, the swizzle folds into a plain layout with
    signed strides; otherwise the result stays ``Sw o offset' o slice(L)``. As in C++, an
    all-wildcard slice keeps the swizzle. A slice C++ 4.7 refuses at compile time (its
    divisibility asserts on the swizzle's bit projections, ``to_mixed_bits``'s powers of two)
    raises ``AdmissibilityError``; one C++ compiles wrongly (the fixed offset carries into the
    swizzle's bits) gives the right answer or raises, checked element by element (beyond C++;
    tests/data/swizzle_slice_cxx47.txt holds C++'s prints).

    >>> C = ComposedLayout(Swizzle(3, 1, 4), 0, Layout((32, 8), (8, 1)))
    >>> slice_and_offset_swizzled((5, None), C)
    (((2,2,2)):((1,-2,4)), 42)
    """
    plan = _slice_plan(crd, C)
    if plan is None:
        return _slice_swizzled_general(crd, C)
    try:
        _, fixed = slice_and_offset(crd, C.inner)
        return _finish_slice(plan, crd, C, fixed)
    except CutepyError:  # every error as the general path words it
        return _slice_swizzled_general(crd, C)


#: slicing plans kept per composed layout (patterns of wildcards; emptied when full)
PLAN_LIMIT = 64


class _SlicePlan:
    """What slicing ``Sw o offset o L`` at one pattern of wildcards decides once: the sliced
    layout, the swizzle's bits (``code``), whether the swizzle stays (``keep``) or the whole
    slice is free (``whole``), and the folded layouts met so far, by the offset's swizzle bits
    and kind (at most ``2 * 4**B``)."""

    __slots__ = ("whole", "keep", "sliced", "code", "folded")

    def __init__(self, whole: bool, keep: bool, sliced: Layout, code: int):
        self.whole, self.keep, self.sliced, self.code = whole, keep, sliced, code
        self.folded: dict = {}


def _pattern(crd: Any) -> Any:
    """``crd`` with each integer leaf (plain or run-time) as 0, wildcards kept; ``False`` for a
    coordinate with any other leaf (a symbol, a list): no plan is made for it."""
    t = type(crd)
    if t is tuple:
        out = []
        for x in crd:
            p = _pattern(x)
            if p is False:
                return False
            out.append(p)
        return tuple(out)
    if crd is None:
        return None
    return 0 if t is int or t is DynamicInt else False


def _static_layout(L: Any) -> bool:
    return type(L) is Layout and all(type(x) is int for x in it.flatten_tuple((L.shape, L.stride)))


def _slice_plan(crd: Any, C: ComposedLayout) -> _SlicePlan | None:
    """The plan for slicing ``C`` at ``crd``'s pattern of wildcards, kept on ``C`` (at most
    :data:`PLAN_LIMIT`); None where the general path answers: a coordinate with all or no
    wildcards or other leaves, a run-time or symbolic layout or offset, while
    :func:`cutepy.explain` records, or a pattern the general path refuses (its error then
    raised by it, unchanged, each time)."""
    if type(C.offset) is not int or not isinstance(C.outer, Swizzle) or _recorder() is not None:
        return None
    key = _pattern(crd)
    if key is False or key is None or type(key) is not tuple:
        return None
    plans = C._plans
    if plans is None:
        plans = C._plans = {}
    plan = plans.get(key)
    if plan is None:
        plan = _make_plan(crd, C)
        if len(plans) >= PLAN_LIMIT:
            plans.clear()
        plans[key] = plan
    return plan or None


def _make_plan(crd: Any, C: ComposedLayout) -> _SlicePlan | bool:
    """The general path's steps that depend only on where the wildcards are (``False``: none
    to keep, the general path answers)."""
    sw, inner = C.outer, C.inner
    if not _static_layout(inner) or not _has_none(crd):
        return False
    sliced, _ = slice_and_offset(crd, inner)
    if all(x is None for x in it.flatten_tuple(crd)):
        return _SlicePlan(True, True, sliced, 0)
    b, m, s = sw.bits, sw.base, abs(sw.shift)
    proj = (1 << m, 1 << b, 1 << (s - b), 1 << b, 1)
    anti = Layout._new(proj, (1, 0, 1 << (m + b), 0, 1 << (m + s + b)))
    only = Layout._new(proj, (0, 1 << m, 0, 1 << (m + s), 0))
    try:
        diced = dice(crd, inner)
        _cxx_compose(anti, diced, crd, C)
        only_diced = _cxx_compose(only, diced, crd, C)
        for x, y in zip(it.flatten_tuple(only_diced.shape), it.flatten_tuple(only_diced.stride)):
            if x * y & (x * y - 1):
                return False
        _cxx_compose(only, sliced, crd, C)
    except CutepyError:
        return False
    code = sw.yyy_mask | sw.zzz_mask
    n = sliced.size()
    active = sliced(n - 1) & code if n > 0 else 0
    return _SlicePlan(False, bool(active & ~sw(active)), sliced, code)


def _finish_slice(plan: _SlicePlan, crd: Any, C: ComposedLayout, fixed: Any,
                  folds: dict | None = None) -> tuple[Any, Any]:
    """The general path's last steps for one coordinate, its fixed offset ``fixed`` given;
    ``folds`` (a :func:`fold_table`) keeps folded layouts by value (swizzle, offset bits, kind,
    sliced layout: what :func:`_fold` computes one from) for other layouts that fold alike."""
    sw, sliced = C.outer, plan.sliced
    if plan.whole:
        return ComposedLayout(sw, C.offset, sliced), 0
    code = plan.code
    off_only_zy = C.offset ^ (fixed & code)
    off_anti_zy = fixed & ~code
    if plan.keep:
        return _exact_slice(crd, C, ComposedLayout(sw, off_only_zy, sliced), off_anti_zy, sliced, fixed)
    kind = DynamicInt if type(off_only_zy) is DynamicInt else int
    key = (int(off_only_zy) & code, kind)
    folded = plan.folded.get(key)
    if folded is None and folds is not None:
        folded = plan.folded[key] = folds.get((sw, key, sliced))
    if folded is None:
        folded = plan.folded[key] = _fold(sw, off_only_zy, kind, sliced, crd, C)
        if folds is not None:
            if len(folds) >= FOLD_LIMIT:
                folds.clear()
            folds[(sw, key, sliced)] = folded
    return _exact_slice(crd, C, folded, sw(off_only_zy) + off_anti_zy, sliced, fixed)


#: elements a batched slice checks at once (threads x free elements); more: one at a time
MANY_LIMIT = 1 << 22


#: folded layouts a fold table keeps (emptied when full)
FOLD_LIMIT = 1 << 12


def fold_table(C: Any) -> dict | None:
    """A table of folded layouts kept on the swizzled layout ``C`` (a tensor's, say), for the
    slices of the layouts made from it (every TiledMMA's and TiledCopy's fragments of it: two
    MMA atoms that differ only in value types fold its slices alike); None for anything else.

    Pre:  none (any object).
    Post: ``kept_table(C, "folds")``: each entry ``(sw, (bits, kind), sliced) -> _fold(...)``.
    """
    return kept_table(C, "folds")


def kept_table(C: Any, name: str) -> dict | None:
    """The table ``name`` kept on the swizzled layout ``C`` beside its slicing plans (values the
    caller derives from ``C`` and keys exactly; at most :data:`FOLD_LIMIT` entries, which the
    caller enforces); None for anything but a swizzled composed layout.

    Pre:  none (any object).
    Post: the same dict for the same ``C`` and ``name`` until ``C``'s plans are emptied.
    """
    if type(C) is not ComposedLayout or not isinstance(C.outer, Swizzle):
        return None
    plans = C._plans
    if plans is None:
        plans = C._plans = {}
    table = plans.get((name,))  # no pattern of wildcards is a string
    if table is None:
        table = plans[(name,)] = {}
    return table


def slice_and_offset_many(crd: Any, L: Any, fixed: np.ndarray, exact: Any,
                          folds: dict | None = None) -> tuple | None:
    """``slice_and_offset(c_i, L)`` for many coordinates ``c_i = crd(i)`` of one pattern of wildcards
    at once (every thread's partition): ``(subs, which, offs, kind)`` with
    ``slice_and_offset(c_i, L) == (subs[which[i]], kind(offs[i]))``, or None where they must be
    sliced one at a time (a pattern without a plan, a coordinate the general path refuses).

    ``fixed[i]`` is the offset ``c_i`` fixes in ``L``'s (inner) layout, as int64; ``exact(i)`` is
    the one-at-a-time answer for ``c_i``; ``folds`` a :func:`fold_table` shared with other
    layouts whose slices fold alike. The coordinates fall into groups that share a sliced
    layout (a plain layout: one; a pointer-flag layout: by offset; a swizzled one: by the
    offset's swizzle bits, its plan's keep/fold); one coordinate is sliced by ``exact`` and
    gives the kinds, one of each other group by the single path's last steps (the fixed offset
    known), and the others' offsets are computed at once and (as ``_exact_slice`` does one by
    one) checked element by element.

    Pre:  ``L`` a static Layout or ``Sw o offset o L`` of one; the ``c_i`` share one pattern and
          leaf kinds; ``fixed`` as above with ``|fixed| + cosize`` within int64.
    Post: as above; nothing is kept beyond ``L``'s plan and ``folds``.
    """
    n = len(fixed)
    if type(L) is Layout:
        keys, offs, plan = np.zeros(n, dtype=np.int64), fixed, None
    elif type(L) is ComposedLayout and isinstance(L.offset, SmemPtrFlag) and type(L.inner) is Layout:
        keys, offs, plan = fixed, np.zeros(n, dtype=np.int64), None
    elif type(L) is ComposedLayout:
        plan = _slice_plan(crd(0), L)
        if plan is None:
            return None
        if plan.whole:
            keys, offs = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        else:
            only = L.offset ^ (fixed & plan.code)
            anti = fixed & ~plan.code
            keys, offs = (only, anti) if plan.keep else (only & plan.code, L.outer(only) + anti)
    else:
        return None
    uniq, first, which = np.unique(keys, return_index=True, return_inverse=True)
    subs, kind, fkind = [], None, None
    for i in first.tolist():
        if fkind is None:  # the one-at-a-time answer (its errors raised as they are)
            sub, off = exact(i)
            if plan is not None and not plan.whole:  # the kind of the fixed offsets
                _, f = slice_and_offset(crd(i), L.inner)
                if int(f) != int(fixed[i]):
                    return None
                fkind = type(f)
        else:  # the single path's last steps, its fixed offset known
            try:
                sub, off = _finish_slice(plan, crd(i), L, fkind(int(fixed[i])), folds)
            except CutepyError:
                return None
        if int(off) != int(offs[i]) or (kind is not None and type(off) is not kind):
            return None
        kind = type(off)
        subs.append(sub)
    which = which.reshape(-1)
    checked = plan is not None and not plan.whole and kind is int
    if checked and not _carries_free(L, plan, subs, which, offs, fixed):
        return None
    return subs, which, offs, kind


def _carries_free(C: ComposedLayout, plan: _SlicePlan, subs: list, which: np.ndarray, offs: np.ndarray,
                  fixed: np.ndarray) -> bool:
    """:func:`_exact_slice`'s check for every coordinate at once: each ``offs[i] + sub(j)`` is the
    swizzled layout's value at its free index ``j`` (the fixed offset never carries into the
    swizzle's bits); True also where ``_exact_slice`` checks nothing (a run-time or large slice)."""
    sliced = plan.sliced
    m = sliced.size()
    if type(m) is not int or m > 1 << 20 or not is_static(sliced):
        return True
    if m * len(offs) > MANY_LIMIT:
        return False
    free = np.asarray(sliced.offsets(), dtype=np.int64)
    want = C.outer(free[None, :] + (fixed + C.offset)[:, None])
    for g, sub in enumerate(subs):
        rows = which == g
        got = np.asarray(sub.offsets(), dtype=np.int64)[None, :] + offs[rows][:, None]
        if not np.array_equal(got, want[rows]):
            return False
    return True


def _fold(sw: Swizzle, off_only_zy: Any, kind: type, sliced: Layout, crd: Any, C: ComposedLayout) -> Layout:
    """The swizzle folded into signed strides over ``sliced``, as C++ composes it (a stride is
    chosen by a test of the offset's swizzle bits; a run-time offset makes it a run-time stride,
    which C++ then leaves unmerged)."""
    b, m, s = sw.bits, sw.base, abs(sw.shift)
    z = sw.zzz_mask & -sw.zzz_mask
    y = sw.yyy_mask & -sw.yyy_mask

    def strides(first: bool) -> tuple:
        if first:
            return tuple(kind(z << i if off_only_zy & (y << i) == 0 else -(z << i)) for i in range(b))
        return tuple(kind((y + z) << i if off_only_zy & (z << i) == 0 else (y - z) << i) for i in range(b))

    lo, hi = strides(z < y), strides(z > y)
    # C++'s layout (1<<M, (2,..), 1<<(S-B), (2,..), 1):(1, lo, 1<<(M+B), hi, 1<<(M+B+S))
    two = (2,) * b
    shape = (1 << m, two if b != 1 else 2, 1 << (s - b), two if b != 1 else 2, 1)
    stride = (1, lo if b != 1 else lo[0], 1 << (m + b), hi if b != 1 else hi[0], 1 << (m + b + s))
    try:
        return composition(Layout._new(shape, stride), sliced)
    except AdmissibilityError:  # C++ may still compile it: its answer, checked by _exact_slice
        folded = _cxx_compose(Layout._new(shape, stride), sliced, crd, C)
        if folded is None:
            raise
        return folded


def _slice_swizzled_general(crd: Any, C: ComposedLayout) -> tuple[Any, Any]:
    """:func:`slice_and_offset_swizzled` computed from scratch: C++ 4.7's steps, one by one."""
    sw, inner = C.outer, C.inner
    sliced, fixed = slice_and_offset(crd, inner)
    if not _has_none(crd) or _fill_none(crd) == crd:
        return sliced, C(crd)
    if crd is None or (type(crd) is tuple and all(x is None for x in it.flatten_tuple(crd))):
        return ComposedLayout(sw, C.offset, sliced), 0
    # as C++ (4.7, checked: tests/data/swizzle_slice_cxx47.txt): the swizzle's bit projections
    # compose with the fixed and the free parts first, under its static divisibility asserts
    b, m, s = sw.bits, sw.base, abs(sw.shift)
    proj = (1 << m, 1 << b, 1 << (s - b), 1 << b, 1)
    anti = Layout._new(proj, (1, 0, 1 << (m + b), 0, 1 << (m + s + b)))
    only = Layout._new(proj, (0, 1 << m, 0, 1 << (m + s), 0))
    diced = dice(crd, inner)
    _cxx_compose(anti, diced, crd, C)
    only_diced = _cxx_compose(only, diced, crd, C)
    for x, y in zip(it.flatten_tuple(only_diced.shape if only_diced else ()),
                    it.flatten_tuple(only_diced.stride if only_diced else ())):
        if x * y & (x * y - 1):  # C++'s to_mixed_bits of the fixed part: "Requires pow2 shape*stride."
            raise AdmissibilityError(f"slice_and_offset({crd}, {C}): C++ refuses this slice (the fixed "
                                     f"part's swizzle bits {only_diced} need power-of-two extents)")
    _cxx_compose(only, sliced, crd, C)
    code = sw.yyy_mask | sw.zzz_mask
    off_only_zy = C.offset ^ (fixed & code)
    off_anti_zy = fixed & ~code
    n = sliced.size()
    active = sliced(n - 1) & code if n > 0 else 0
    if active & ~sw(active):  # the free modes reach both Y and Z: the swizzle stays
        return _exact_slice(crd, C, ComposedLayout(sw, off_only_zy, sliced), off_anti_zy, sliced, fixed)
    # C++ chooses each stride by a test of the offset: a run-time offset makes them run-time strides
    kind = DynamicInt if type(off_only_zy) is DynamicInt else int
    folded = _fold(sw, off_only_zy, kind, sliced, crd, C)
    return _exact_slice(crd, C, folded, sw(off_only_zy) + off_anti_zy, sliced, fixed)


def _cxx_compose(A: Layout, B: Layout, crd: Any, C: ComposedLayout) -> Any:
    """C++'s ``composition(A, B)`` of static layouts as ``composition_impl`` computes it, under its
    static (weak) divisibility asserts, which refuse a slice of a swizzled layout at compile time
    (``AdmissibilityError`` naming the one that fails); ``None`` for run-time leaves. (cutepy's
    :func:`composition` checks more, its post-condition; here C++'s own answer is wanted.)"""
    if not all(type(x) is int for x in it.flatten_tuple((A.shape, A.stride, B.shape, B.stride))):
        return None
    ls, ld = coalesce_x(A)

    def refuse(what: str) -> AdmissibilityError:
        return AdmissibilityError(f"slice_and_offset({crd}, {C}): C++ refuses this slice (its {what} "
                                  f"Divisibility Condition fails in composing {A} o {B})")

    def leaf(rs: int, rd: int) -> tuple[Any, Any]:
        if rd == 0:
            return rs, 0
        if len(ls) == 1:
            return rs, rd * ld[0]
        out_s, out_d = [], []
        for s, d in zip(ls[:-1], ld[:-1]):
            if rd % s != 0 and not rd < s:
                raise refuse("Stride")
            nshape, nstride = -(-s // abs(rd)), -(-abs(rd) // s) * (1 if rd > 0 else -1)
            if nshape != 1 and rs != 1:
                new = min(nshape, rs)
                if rs % new != 0:
                    raise refuse("Shape")
                out_s.append(new)
                out_d.append(rd * d)
                rs //= new
            rd = nstride
        if not out_s:
            return rs, rd * ld[-1]
        if rs != 1:
            out_s.append(rs)
            out_d.append(rd * ld[-1])
        return (tuple(out_s), tuple(out_d)) if len(out_s) > 1 else (out_s[0], out_d[0])

    def walk(s: Any, d: Any) -> tuple[Any, Any]:
        if type(s) is tuple:
            parts = [walk(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
        return leaf(s, d)

    return Layout._new(*walk(B.shape, B.stride))


def _exact_slice(crd: Any, C: ComposedLayout, sub: Any, off: Any, sliced: Layout,
                 fixed: Any) -> tuple[Any, Any]:
    """``(sub, off)`` when ``off + sub(i) == C(crd at free index i)`` for every free index (checked
    element by element up to 2**20 of them), else ``AdmissibilityError``: C++'s split of the
    fixed offset into the swizzle's bits assumes that adding it never carries into them."""
    if type(off) is not int:  # a run-time offset: nothing to check (the cheap test first)
        return sub, off
    n = sliced.size()
    if type(n) is not int or n > 1 << 20 or not is_static(sliced):
        return sub, off
    got = np.asarray(sub.offsets(), dtype=np.int64) + off
    v = np.asarray(sliced.offsets(), dtype=np.int64) + (fixed + C.offset)
    sw = C.outer
    y = v & sw.yyy_mask
    want = v ^ (y >> sw.shift if sw.shift >= 0 else y << -sw.shift)
    if not np.array_equal(got, want):
        i = int(np.argmax(got != want))
        raise AdmissibilityError(
            f"slice_and_offset({crd}, {C}): C++'s answer {sub} + {off} gives {int(got[i])} at free "
            f"index {i}, where the layout holds {int(want[i])}: the fixed offset carries into the "
            "swizzle's bits")
    return sub, off


def _inverse(inverse: Any, A: ComposedLayout) -> Any:
    """``inverse(Sw o 0 o L) = inverse(L) o Sw`` (a swizzle is its own inverse), as C++; with an
    offset, C++'s ``inverse(L) o -offset o Sw``, a function of an index with no domain of its own.
    Checked element by element against the post-condition (``AdmissibilityError`` where C++'s
    answer breaks it): the right inverse on its own domain, the left (quasi-)inverse as C++'s
    ``A(R(A(i))) == A(i)`` on A's."""
    name = inverse.__name__
    if not isinstance(A.outer, Swizzle):
        raise CutepyError(f"{name} of {A}: C++ inverts a composed layout only with a swizzle outside")
    if A.offset != 0:
        if type(A.offset) is not int:
            raise CutepyError(f"{name} of {A}: the offset must be an integer")
        if not isinstance(A.inner, Layout):
            raise CutepyError(f"{name} of {A}: the inner layout must be a Layout")
        inv = inverse(A.inner)
        R = ComposedLayout(inv, -A.offset, A.outer)
        n = A.size() if inverse is left_inverse else inv.size()
    else:
        R = composition(inverse(A.inner), A.outer)
        n = A.size() if inverse is left_inverse else R.size()
    if it.is_symbolic_leaf(n):  # the post-condition is checked element by element
        raise SymbolicError(f"{name} of {A}: the inverse of a swizzled layout is checked on each of its "
                            f"{n} elements: substitute values for the symbols first (cutepy.subs)")
    if n > MAX_INVERSE_CHECK:
        raise CutepyError(f"{name} of {A}: {n} elements to check, more than "
                          f"MAX_INVERSE_CHECK = {MAX_INVERSE_CHECK}")
    idx = np.arange(n, dtype=np.int64)
    if inverse is left_inverse:  # C++'s post-condition of a quasi-inverse: A(R(A(i))) == A(i)
        idx = A.offsets(idx)
        got = A.offsets(R.offsets(idx))
    elif A.offset != 0:
        inner = np.asarray(R.offsets(idx)) + 0
        got = A.outer(A.offset + np.sign(inner) * A.inner.offsets(np.abs(inner)))
    else:
        got = A.offsets(R.offsets(idx))
    if not np.array_equal(got, idx):
        k = int(np.nonzero(got != idx)[0][0])
        which = f"A(R({int(idx[k])}))" if inverse is left_inverse else f"A(R({k}))"
        why = ("the offset moves the swizzle's input out of the range the inverse of the layout covers"
               if A.offset != 0 else "L moves the swizzle's bits out of order, so the swizzle does not "
               "commute with it")
        raise AdmissibilityError(
            f"{name} of {A}: C++'s answer {R} breaks the post-condition: {which} = {int(got[k])}: {why}")
    return R


def _check_product(A: Layout, T: ComposedLayout, R: Any) -> None:
    """``R(i, j) == A(i) + C(T(j))``, ``C = complement(A, size(A) * cosize(T))``: where C++'s
    moved swizzle is not that function, raise instead of answering silently wrong."""
    n = A.size() * T.size()
    if type(n) is not int:
        raise CutepyError(f"logical_product of {A} by {T}: symbolic sizes cannot be checked")
    if n > MAX_PRODUCT_CHECK:
        raise CutepyError(f"logical_product of {A} by {T}: {n} elements to check, more than "
                          f"MAX_PRODUCT_CHECK = {MAX_PRODUCT_CHECK}")
    C = complement(A, A.size() * T.cosize())
    want = (A.offsets()[:, None] + C.offsets(T.offsets())[None, :]).reshape(-1, order="F")
    got = R.offsets()
    if not np.array_equal(got, want):
        k = int(np.nonzero(got != want)[0][0])
        raise AdmissibilityError(
            f"logical_product of {A} by {T}: C++'s answer {R} breaks the product's definition: at "
            f"index {k} it gives {int(got[k])}, A(i) + complement(A)(tiler(j)) is {int(want[k])} (the "
            "swizzle does not move with the product)")


# -- the composed layout's variants of the operations (C++'s overloads) --------------------


def _on_inner(op: Any) -> Any:
    """The variant applying ``op`` to the layout under the outer function, outer and offset kept:
    C++'s overloads for a composed layout, ``composition(layout_a(), offset(), op(layout_b()))``."""

    def variant(C: ComposedLayout, *args: Any) -> Any:
        return _compose3(C.outer, C.offset, op(C._domain(), *args))

    variant.__name__ = variant.__qualname__ = f"composed_{op.__name__}"
    variant.__doc__ = f"``{op.__name__}`` of the layout under the swizzle (as C++)."
    return variant


for _table, _op in (
    (k.COALESCE, coalesce), (k.FILTER, filter),
    (k.LOGICAL_DIVIDE, logical_divide), (k.ZIPPED_DIVIDE, zipped_divide),
    (k.TILED_DIVIDE, tiled_divide), (k.FLAT_DIVIDE, flat_divide),
    (k.LOGICAL_PRODUCT, logical_product), (k.ZIPPED_PRODUCT, zipped_product),
    (k.TILED_PRODUCT, tiled_product), (k.FLAT_PRODUCT, flat_product),
    (k.BLOCKED_PRODUCT, blocked_product), (k.RAKED_PRODUCT, raked_product),
    (k.TILE_TO_SHAPE, tile_to_shape),
    (k.GET, get), (k.TAKE, take), (k.GROUP, group), (k.APPEND, append), (k.FLATTEN, flatten),
):
    _table.register(ComposedLayout, _on_inner(_op))


@k.MAP_LAYOUT.register(ComposedLayout)
def _map_layout(C: ComposedLayout, fn: Any) -> Any:
    """``fn`` applied to the layout under the outer function, outer and offset kept."""
    return _compose3(C.outer, C.offset, fn(C._domain()))


@k.COMPOSITION.register(ComposedLayout)
def _composition(C: ComposedLayout, B: Any) -> Any:
    """``(outer o offset o inner) o B == outer o offset o (inner o B)``."""
    return _compose3(C.outer, C.offset, composition(C.inner, B))


@k.COMPOSITION_BY_B.register(ComposedLayout)
def _composition_by_B(C: ComposedLayout, A: Layout) -> Any:
    """``A o C``: as C++ for a swizzle outside (A moves its bits), else ``A`` outermost."""
    if isinstance(C.outer, Swizzle):
        return _compose_swizzle_right(A, C)
    return ComposedLayout(A, 0, C)


@k.COMPLEMENT.register(ComposedLayout)
def _complement(C: ComposedLayout, cotarget: Any) -> Layout:
    """As C++: the complement of the layout under the swizzle, up to this layout's cosize."""
    return complement(C._domain(), C.cosize() if cotarget is None else cotarget)


@k.LOGICAL_PRODUCT_BY_TILER.register(ComposedLayout)
def _logical_product_by_tiler(C: ComposedLayout, A: Layout) -> Any:
    """C++'s ``logical_product(A, Sw o 0 o L)``: the product with L, then a new swizzle made of
    where the product sends the swizzle's active Y and Z bits of L (checked: where the moved
    swizzle is not the product's function, ``AdmissibilityError``)."""
    sw, L = C.outer, C.inner
    if not isinstance(sw, Swizzle) or not isinstance(L, Layout):
        raise CutepyError(f"logical_product of {A} by {C}: C++ takes a composed tiler only as a "
                          "swizzle over a layout")
    if C.offset != 0:
        raise CutepyError(f"logical_product of {A} by {C}: C++ requires the swizzle's offset to be 0")
    new = logical_product(A, L)
    b, m, s = sw.bits, sw.base, abs(sw.shift)
    only_zy = Layout._new((1 << m, 1 << b, 1 << (s - b), 1 << b, 1), (0, 1 << m, 0, 1 << (m + s), 0))
    projected = composition(only_zy, L)
    active = projected(projected.size() - 1)
    new_z = new((0, L(active & sw.zzz_mask)))
    new_y = new((0, L(active & sw.yyy_mask)))
    try:
        moved = make_swizzle(new_y, new_z)
    except CutepyError as e:  # C++ fails make_swizzle's static_assert here
        raise CutepyError(f"logical_product of {A} by {C}: the product moves the swizzle's bits to "
                          f"Y = {new_y:#b}, Z = {new_z:#b}, which no swizzle has ({e})") from None
    result = _with_swizzle(moved, new)
    _check_product(A, C, result)
    return result


@k.UPCAST.register(ComposedLayout)
def _upcast(C: ComposedLayout, n: int) -> ComposedLayout:
    """C++'s ``upcast<N>``: the swizzle, the offset and the layout each upcast (kept composed
    even when the swizzle has no bits left: C++'s upcast offset is an unsigned ``C<0u>``, which
    the identity-dropping ``composition(Sw<0,M,S>, Int<0>, L)`` does not match)."""
    off = C.offset
    if isinstance(off, SmemPtrFlag):  # as C++: the flag widens with the elements
        off = SmemPtrFlag(off.bits * n)
    elif off % n:
        raise AdmissibilityError(f"upcast by {n}: the offset {off} is not a multiple of {n}")
    else:
        off = off // n
    return ComposedLayout(upcast(C.outer, n), off, upcast(C.inner, n))


@k.DOWNCAST.register(ComposedLayout)
def _downcast(C: ComposedLayout, n: int) -> ComposedLayout:
    """C++'s ``downcast<N>``: the swizzle, the offset and the layout each downcast (kept
    composed, as :func:`_upcast`)."""
    off = C.offset
    if isinstance(off, SmemPtrFlag):  # as C++: the flag narrows with the elements
        if off.bits % n:
            raise AdmissibilityError(f"downcast by {n}: {off} has fewer than {n} bits")
        off = SmemPtrFlag(off.bits // n)
    else:
        off = off * n
    return ComposedLayout(downcast(C.outer, n), off, downcast(C.inner, n))


@k.MAKE_LAYOUT_LIKE.register(ComposedLayout)
def _make_layout_like(C: ComposedLayout) -> Layout:
    """As C++: the compact layout like the layout under the swizzle."""
    return make_layout_like(C._domain())


@k.MAKE_FRAGMENT_LIKE.register(ComposedLayout)
def _make_fragment_like(C: ComposedLayout) -> Layout:
    """As C++: the register fragment of the layout under the swizzle."""
    return make_fragment_like(C._domain())


@k.MAX_ALIGNMENT.register(ComposedLayout)
def _max_alignment(C: ComposedLayout) -> int:
    """``gcd(2**M, offset, max_alignment(L))`` for ``Sw<B,M,S> o offset o L``; 1 for any other
    composed layout (C++: "do not attempt for general ComposedLayouts")."""
    if type(C.outer) is not Swizzle or isinstance(C.inner, Swizzle):
        return 1
    if not it.is_int(C.offset):
        raise CutepyError(f"max_alignment of {C}: the offset must be an integer")
    return _cxx_gcd(1 << C.outer.base, _cxx_gcd(C.offset, max_alignment(C.inner)))


@k.RIGHT_INVERSE.register(ComposedLayout)
def _right_inverse(C: ComposedLayout) -> Any:
    return _inverse(right_inverse, C)


@k.LEFT_INVERSE.register(ComposedLayout)
def _left_inverse(C: ComposedLayout) -> Any:
    return _inverse(left_inverse, C)


@k.NULLSPACE.register(ComposedLayout)
def _nullspace(C: ComposedLayout) -> Layout:
    """As C++: a swizzled layout's nullspace is ``1:0``."""
    return Layout._new(1, 0)


def _max_common_layout(C: ComposedLayout, other: Any) -> Layout:
    """The common layout of the layout under the swizzle and ``other``, cut to the ``2**M``
    elements the swizzle keeps in order (as C++); the same on either side."""
    common = max_common_layout(_swizzled_inner(C), other)
    base = 1 << C.outer.base
    return composition(common, base) if base < common.size() else common


def _max_common_vector(C: ComposedLayout, other: Any) -> Any:
    """As C++: capped at ``2**M`` by each swizzle, no cap when both sides share one swizzle."""
    if isinstance(other, ComposedLayout):
        vec = max_common_vector(_swizzled_inner(C), _swizzled_inner(other))
        if C.outer == other.outer:
            return vec
        return min(vec, 1 << C.outer.base, 1 << other.outer.base)
    return min(max_common_vector(_swizzled_inner(C), other), 1 << C.outer.base)


k.MAX_COMMON_LAYOUT.register(ComposedLayout, _max_common_layout)
k.MAX_COMMON_LAYOUT_BY_B.register(ComposedLayout, _max_common_layout)
k.MAX_COMMON_VECTOR.register(ComposedLayout, _max_common_vector)
k.MAX_COMMON_VECTOR_BY_B.register(ComposedLayout, _max_common_vector)


def _swizzled_inner(C: ComposedLayout) -> Layout:
    if not isinstance(C.outer, Swizzle):
        raise CutepyError(f"{C} is not a swizzled layout (Sw o offset o layout)")
    return C.inner


@k.SLICE_AND_OFFSET.register(ComposedLayout)
def _slice_and_offset(C: ComposedLayout, crd: Any) -> tuple[Any, Any]:
    return C.slice_and_offset(crd)


@k.IS_STATIC.register(ComposedLayout)
def _is_static(C: ComposedLayout) -> bool:
    return all(is_static(p) for p in (C.offset, C.inner) if not isinstance(p, (Swizzle, SmemPtrFlag)))


# -- the swizzle's variants whose results are composed layouts ------------------------------


@k.COMPOSITION.register(Swizzle)
def _swizzle_composition(sw: Swizzle, B: Any) -> Any:
    """``Sw o B``: a composed layout with offset 0 (``B`` itself when the swizzle has no bits, as C++);
    ``Sw o Sw'`` is one swizzle (see :func:`cutepy.core.swizzle.compose_swizzles`)."""
    if isinstance(B, Swizzle):
        return compose_swizzles(sw, B)
    if sw.bits == 0 and isinstance(B, Layout):
        return B
    return ComposedLayout(sw, 0, _as_inner(B))


@k.COMPOSITION_BY_B.register(Swizzle)
def _swizzle_composition_by_B(sw: Swizzle, A: Layout) -> Any:
    """``A o Sw`` as C++: A moves the swizzle's bits (``make_swizzle(A(Y), A(Z))``)."""
    return _compose_swizzle_right(A, sw)


@k.MAKE_LAYOUT.register(Swizzle)
def _swizzle_make_layout(sw: Swizzle) -> Any:
    """C++'s ``make_layout(Sw<B,M,S>)``: ``Sw o 0 o (M+B+|S|):1`` (see :meth:`Swizzle.make_layout`)."""
    n = sw.base + sw.bits + abs(sw.shift)
    if n == 0:
        raise CutepyError("make_layout(Sw<0,0,0>): C++ gives the 0-element layout 0:1; a cutepy "
                          "layout has at least one element")
    return _with_swizzle(sw, Layout(n, 1))


#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "ComposedLayout", "domain_offset", "get_nonswizzle_portion", "get_swizzle_portion",
    "make_composed_layout",
]
