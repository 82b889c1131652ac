"""The :class:`Layout`: a function from coordinates to offsets, written ``shape:stride``.

>>> L = Layout(((2, 2), 3), ((24, 2), 8))
>>> print(L)
((2,2),3):((24,2),8)
>>> L(5), L(1, 2), L(((1, 0), 2))
(32, 40, 40)
>>> L.size(), L.cosize(), L.rank(), L.depth()
(12, 43, 2, 2)
>>> Layout((2, 3))              # LayoutLeft (column-major) by default
(2,3):(1,2)
>>> print(L(None, 1))           # slice: the wildcard keeps mode 0
((2,2)):((24,2))
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from numbers import Integral
from typing import Any

from . import inttuple as it
from .basis import ScaledBasis, basis_like
from .dynamic import DynamicInt, is_static_int
from .errors import CutepyError, LayoutError
from .kinds import (
    APPEND,
    FLATTEN,
    GET,
    GROUP,
    IS_STATIC,
    MAKE_LAYOUT,
    SIZE,
    SLICE_AND_OFFSET,
    TAKE,
    LayoutKind,
)
from .lazy import load
from .limits import max_elements
from .tracing import recorder as _recorder
from .tuples import as_int, check_int_tuple

#: whole-domain evaluation (it loads numpy), on first use
_evaluate = load("cutepy.core.evaluate")

#: Largest magnitude of a shape or stride leaf: C++ CuTe's dynamic integers are 64-bit.
MAX_LEAF = (1 << 63) - 1
_MAX_DEPTH = it.MAX_DEPTH


def _leaf(x: Any, what: str, positive: bool) -> Any:
    """One leaf of a shape (``positive``) or stride, checked: the core's only integer predicate.

    Pre:  ``x`` is an ``int``, an integer-like value (numpy integers: anything
          ``operator.index`` accepts), a symbolic integer (an ``Integral`` without
          ``__index__``, e.g. :class:`cutepy.symbolic.Sym`), or, for strides, a basis element.
    Post: a plain ``int``, the symbolic integer itself, or the basis element.
    """
    t = type(x)
    if t is int:
        if positive and x < 1:
            raise LayoutError(f"{what} has a leaf {x}; shape leaves must be positive integers")
        if not -MAX_LEAF <= x <= MAX_LEAF:
            raise LayoutError(f"{what} has a leaf of {x.bit_length()} bits; leaves are 64-bit integers "
                              f"(|leaf| <= {MAX_LEAF}), as in C++ CuTe")
        return x
    if t is bool:
        raise LayoutError(f"{what} has a boolean leaf {x}; expected an integer")
    if t is DynamicInt:  # a run-time integer keeps its kind (operator.index would make it static)
        _leaf(int(x), what, positive)
        return x
    if isinstance(x, ScaledBasis):
        if positive:
            raise LayoutError(f"{what} has a basis element {x}; only strides may hold one")
        return x
    if isinstance(x, Integral) or hasattr(x, "__index__"):
        try:
            return _leaf(operator.index(x), what, positive)
        except TypeError:  # a symbolic integer: kept; a shape leaf must be positive for every value
            if not isinstance(x, Integral):  # e.g. a numpy array of several values: not one integer
                raise LayoutError(f"{what} has a leaf {it.short_repr(x)} of type {t.__name__}; "
                                  "expected an integer (a tuple, not an array, for several)") from None
            if positive and not x >= 1:  # decided from the facts, or Undecided naming the fact
                raise LayoutError(f"{what} has a leaf {x} that is never positive") from None
            return x
    raise LayoutError(f"{what} has a leaf {x!r} of type {t.__name__}; expected an integer")


def _wide(t: Any) -> Any:
    """The first integer of ``t`` (a leaf, a basis element's value, or nested tuples of them)
    beyond 64 bits (``|x| > MAX_LEAF``), else ``None``. Symbolic leaves are not judged here."""
    m = MAX_LEAF
    if type(t) is int:
        return t if t > m or t < -m else None
    if isinstance(t, tuple):
        for x in t:
            if type(x) is int:
                if x > m or x < -m:
                    return x
            else:
                w = _wide(x)
                if w is not None:
                    return w
        return None
    if isinstance(t, ScaledBasis):
        return _wide(t.value)
    return None


def check_64bit(shape: Any, stride: Any) -> None:
    """The 64-bit rule for a layout the library computes (strides from a shape, a result of
    the algebra): every leaf fits in 64 bits, as for a layout given by the user.

    Pre:  ``shape`` and ``stride`` are congruent, already-normalized IntTuples.
    Post: returns; else :class:`LayoutError` naming the leaf's size, and no layout is built.

    >>> check_64bit((2, 3), (1, 2))
    >>> check_64bit((2,) * 64, it.compact_major((2,) * 64))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    cutepy.LayoutError: a computed stride has a leaf of 64 bits (9223372036854775808); leaves are ...
    """
    for what, t in (("shape", shape), ("stride", stride)):
        w = _wide(t)
        if w is not None:
            shown = w if w.bit_length() <= 128 else f"about 2**{w.bit_length() - 1}"
            raise LayoutError(f"a computed {what} has a leaf of {w.bit_length()} bits ({shown}); leaves are "
                              f"64-bit integers (|leaf| <= {MAX_LEAF}), as in C++ CuTe")


def _check_compact(shape: Any, right: bool) -> None:
    """The 64-bit rule for the compact strides of ``shape``, checked before they are computed
    (their product grows with the rank: stop at the first stride past 64 bits)."""
    acc = 1
    leaves = it.flatten_tuple(shape) if type(shape) is tuple else (shape,)
    for s in reversed(leaves) if right else leaves:
        if type(s) is not int:
            return  # a symbolic leaf: its strides are symbolic
        if s != 1:
            if acc > MAX_LEAF:
                check_64bit(1, acc)
            acc *= s


def _normalize(t: Any, what: str, positive: bool, depth: int = 0) -> Any:
    """Lists become tuples, integer-likes become ``int``, every leaf is checked."""
    if type(t) is tuple or type(t) is list:
        if depth >= it.MAX_DEPTH:
            raise LayoutError(f"{what} nests deeper than {it.MAX_DEPTH} levels")
        return tuple([_normalize(x, what, positive, depth + 1) for x in t])
    if type(t) is int and (t > 0 or not positive) and -MAX_LEAF <= t <= MAX_LEAF:
        return t
    return _leaf(t, what, positive)


def _canonical(s: Any, d: Any, depth: int = 1) -> bool:
    """Whether ``s:d`` is already canonical: congruent tuples of positive ``int`` shapes and
    ``int`` strides, no deeper than ``MAX_DEPTH`` (the constructor's fast path)."""
    if type(s) is int:
        return type(d) is int and 0 < s <= MAX_LEAF and -MAX_LEAF <= d <= MAX_LEAF
    if type(s) is not tuple or type(d) is not tuple or len(s) != len(d) or depth > _MAX_DEPTH:
        return False
    for k in range(len(s)):  # (indexing, not zip: no iterator for the compiled core to make)
        x, y = s[k], d[k]
        if type(x) is int is type(y):
            if not 0 < x <= MAX_LEAF or not -MAX_LEAF <= y <= MAX_LEAF:
                return False
        elif not _canonical(x, y, depth + 1):
            return False
    return True


class _Incongruent(Exception):
    """Raised inside :func:`_pair`; the constructor turns it into a :class:`LayoutError`."""


def _pair(s: Any, d: Any, depth: int) -> tuple[Any, Any]:
    """Shape and stride checked together in one walk (the constructor's hot path).

    Returns the same objects when they are already canonical (tuples of ``int``).
    """
    ts = type(s)
    if ts is int:
        if type(d) is int and 0 < s <= MAX_LEAF and -MAX_LEAF <= d <= MAX_LEAF:
            return s, d
        if type(d) in (tuple, list):
            raise _Incongruent
        return _leaf(s, "shape", True), _leaf(d, "stride", False)
    if ts is tuple or ts is list:
        if type(d) is not tuple and type(d) is not list or len(d) != len(s):
            raise _Incongruent
        if depth >= it.MAX_DEPTH:
            raise LayoutError(f"shape nests deeper than {it.MAX_DEPTH} levels")
        same = ts is tuple and type(d) is tuple
        out_s, out_d = [], []
        for a, b in zip(s, d):
            na, nb = _pair(a, b, depth + 1)
            same = same and na is a and nb is b
            out_s.append(na)
            out_d.append(nb)
        return (s, d) if same else (tuple(out_s), tuple(out_d))
    if type(d) in (tuple, list):
        raise _Incongruent
    return _leaf(s, "shape", True), _leaf(d, "stride", False)


def derived(layout: Layout, make: Callable[[Layout], Any]) -> Any:
    """``make(layout)``, kept on the value: the forms the algebra derives from a layout alone
    (its filtered or coalesced flat modes, ``coalesce_x``) are computed once per value.

    The value is immutable and ``make`` a pure function of it, so a kept form never changes a
    result; at most one entry per ``make`` (a handful of functions), so the cache stays
    bounded; a ``make`` that raises keeps nothing, so errors are raised again, unchanged.
    Computed afresh, never kept: while :func:`cutepy.explain` records (the form's steps are
    events), and for a layout with a symbolic leaf (its forms depend on the facts in force).

    A value asked for its first form keeps nothing (most values the algebra builds are used
    once); from the second request on, its forms are kept.

    >>> from cutepy.algebra.coalesce import filter_flat_dyn
    >>> L = Layout((2, 3), (0, 1))
    >>> _ = derived(L, filter_flat_dyn)
    >>> derived(L, filter_flat_dyn) is derived(L, filter_flat_dyn)
    True
    """
    memo = layout._memo
    if memo is None:  # the first form asked of this value: a value used once keeps nothing
        layout._memo = True
        return make(layout)
    if memo is True:  # asked again: keep its forms from now on
        memo = layout._memo = {} if _concrete(layout._shape) and _concrete(layout._stride) else False
    if memo is False or _recorder() is not None:
        return make(layout)
    got = memo.get(make, _ABSENT)
    if got is _ABSENT:  # (a form may be None)
        got = memo[make] = make(layout)
    return got


def derived_if_kept(layout: Layout, make: Callable[[Layout], Any]) -> Any:
    """:func:`derived` for an operation's whole answer (``right_inverse(A)``): kept only on a
    value that keeps forms already (asked before), so a fresh value pays nothing more for it.

    >>> from cutepy.algebra.inverse import _right_inverse_of
    >>> L = Layout((2, 3), (3, 1))
    >>> [derived_if_kept(L, _right_inverse_of) for _ in range(4)][-1] is derived_if_kept(L, _right_inverse_of)
    True
    """
    return derived(layout, make) if type(layout._memo) is dict else make(layout)


def seeded(layout: Layout, make: Callable[[Layout], Any], form: Any) -> Layout:
    """A layout the algebra has just built, with ``make(layout)`` kept on it: the form its maker
    knows already (``form`` must equal what ``make`` computes; :func:`derived` then finds it).

    Pre:  ``layout`` is fresh (no form kept yet) and concrete; ``form == make(layout)``.
    Post: ``layout`` itself, its forms kept from now on.

    >>> from cutepy.algebra.coalesce import filter_flat_dyn
    >>> L = Layout((2, 3), (1, 4))
    >>> seeded(L, filter_flat_dyn, filter_flat_dyn(L)) is L, derived(L, filter_flat_dyn)
    (True, ((2, 3), (1, 4), False))
    """
    layout._memo = {make: form}
    return layout


def _concrete(t: Any) -> bool:
    """Whether every leaf of ``t`` is a concrete integer (``int``, a run-time integer, or a basis
    element of one): no symbolic leaf, whose answers depend on the facts in force."""
    if type(t) is int:
        return True
    if type(t) is tuple:
        for x in t:
            if type(x) is not int and not _concrete(x):
                return False
        return True
    if type(t) is DynamicInt:
        return True
    if isinstance(t, ScaledBasis):
        return _concrete(t.value)
    return False


#: ``L()`` (no index): told apart from every argument
_NO_ARG: Any = object()
#: a form not kept yet (see derived)
_ABSENT: Any = object()


def _int_product(t: Any) -> int | None:
    """The product of the leaves of ``t`` when every leaf is a plain ``int``, else ``None``."""
    if type(t) is int:
        return t
    if type(t) is not tuple:
        return None
    r = 1
    for x in t:
        if type(x) is not int:
            x = _int_product(x)
            if x is None:
                return None
        r *= x
    return r


def _is_flat(t: tuple) -> bool:
    """Whether the tuple ``t`` holds no tuple (is flat)."""
    for x in t:
        if type(x) is tuple:
            return False
    return True


def _fmt(t: Any) -> str:
    return it.format_tuple(t)


class Layout(LayoutKind):
    """An immutable, hashable CuTe layout ``shape:stride``: coordinates to offsets.

    Pre:  ``shape`` is a positive integer or a nested tuple (lists are accepted) of them;
          ``stride`` is congruent to it (integers, or basis elements :func:`cutepy.E`), or
          ``None`` for compact column-major strides (CuTe's LayoutLeft), or
          ``LayoutLeft``/``LayoutRight``. Anything else raises :class:`LayoutError`
          naming the leaf.
    Post: ``L(c) == inner_product(c, stride)`` for every natural coordinate ``c``;
          ``L.size() == product(shape)``; the value is immutable and hashable.

    >>> Layout((2, 3)), Layout((2, 3), (3, 1)), Layout(((2, 2), 3), ((1, 6), 2))
    ((2,3):(1,2), (2,3):(3,1), ((2,2),3):((1,6),2))
    >>> Layout((2, 0))
    Traceback (most recent call last):
      ...
    cutepy.LayoutError: shape has a leaf 0; shape leaves must be positive integers
    """

    # _hash, _memo (see derived), _flat (see __call__), _size and _cosize (plain-int answers
    # only) are None until first asked for: a value built and used once pays for none
    __slots__ = ("_shape", "_stride", "_hash", "_memo", "_flat", "_size", "_cosize")

    def __init__(self, shape: Any, stride: Any = None):
        if type(shape) is tuple and type(stride) is tuple and len(shape) == len(stride):
            for k in range(len(shape)):  # the fast path: canonical tuples of 64-bit ints
                x, y = shape[k], stride[k]
                if type(x) is int is type(y):
                    if not 0 < x <= MAX_LEAF or not -MAX_LEAF <= y <= MAX_LEAF:
                        break
                elif not _canonical(x, y, 2):
                    break
            else:
                self._shape = shape
                self._stride = stride
                self._hash = self._memo = self._flat = self._size = self._cosize = None
                return
        if stride is None:
            shape = _normalize(shape, "shape", True)
            _check_compact(shape, False)
            stride = it.compact_major(shape)
            check_64bit(shape, stride)
        elif isinstance(stride, _MajorTag):
            shape = _normalize(shape, "shape", True)
            _check_compact(shape, stride is LayoutRight)
            stride = stride.strides(shape)
            check_64bit(shape, stride)
        elif not _canonical(shape, stride):
            try:
                shape, stride = _pair(shape, stride, 0)
            except _Incongruent:
                shape = _normalize(shape, "shape", True)
                stride = _normalize(stride, "stride", False)
                raise LayoutError(
                    f"shape {_fmt(shape)} and stride {_fmt(stride)} are not congruent "
                    "(they must nest the same way)"
                ) from None
        self._shape = shape
        self._stride = stride
        self._hash = self._memo = self._flat = self._size = self._cosize = None

    @classmethod
    def _new(cls, shape: Any, stride: Any) -> Layout:
        """Trusted constructor for the algebra: the arguments are well formed and within 64 bits
        (leaves taken from layouts that obey the rule, or checked by :meth:`_grown`)."""
        self = cls.__new__(cls)
        self._shape = shape
        self._stride = stride
        self._hash = self._memo = self._flat = self._size = self._cosize = None
        return self



    @classmethod
    def _strided(cls, shape: Any, stride: Any) -> Layout:
        """:meth:`_grown` for a result whose shape leaves are at most leaves of valid layouts
        (a composition's): only the strides, which an algorithm multiplied, are checked."""
        if _wide(stride) is not None:
            check_64bit(shape, stride)
        self = cls.__new__(cls)
        self._shape = shape
        self._stride = stride
        self._hash = self._memo = self._flat = self._size = self._cosize = None
        return self

    @classmethod
    def _grown(cls, shape: Any, stride: Any) -> Layout:
        """:meth:`_new` for a result whose leaves an algorithm multiplied (a composition's strides,
        merged modes, compact strides, inverses): the 64-bit rule checked, as for given leaves."""
        if _wide(stride) is not None or _wide(shape) is not None:
            check_64bit(shape, stride)
        return cls._new(shape, stride)

    # -- identity -------------------------------------------------------------------

    @property
    def shape(self) -> Any:
        """The shape, a nested tuple of positive integers (or an integer)."""
        return self._shape

    @property
    def stride(self) -> Any:
        """The stride, congruent to the shape."""
        return self._stride

    def __eq__(self, other: object) -> bool:
        if type(other) is not Layout:
            return NotImplemented
        return self._shape == other._shape and self._stride == other._stride

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash((Layout, self._shape, self._stride))
        return h

    def __str__(self) -> str:
        return f"{_fmt(self._shape)}:{_fmt(self._stride)}"

    def __repr__(self) -> str:  # spelled out (not ``= __str__``): the compiled core's class takes it
        return f"{_fmt(self._shape)}:{_fmt(self._stride)}"

    def __format__(self, spec: str) -> str:
        """``format(L, "cxx")``: C++'s exact print, ``_N`` for static integers and ``N`` for
        dynamic ones (:func:`cutepy.dynamic`); any other spec formats ``str(L)``."""
        return it.format_value(self, spec, lambda: f"{it.format_tuple(self._shape, True)}:"
                                                   f"{it.format_tuple(self._stride, True)}")

    def __reduce__(self):
        return (Layout, (self._shape, self._stride))

    # -- queries --------------------------------------------------------------------

    def size(self) -> Any:
        """Number of coordinates in the domain: the product of the shape."""
        n = self._size
        if n is None:
            n = _int_product(self._shape)
            if n is None:  # a symbolic size is not kept: it may depend on the facts in force
                return it.product(self._shape)
            self._size = n
        return n

    def cosize(self) -> Any:
        """One past the largest offset reached: ``1 + sum((s-1)*|d|)`` over the leaves."""
        if self._cosize is not None:
            return self._cosize
        r, plain = 1, True
        s, d = self._shape, self._stride
        if type(s) is not tuple:
            s, d = (s,), (d,)
        elif not _is_flat(s):
            s, d = it.flatten_tuple(s), it.flatten_tuple(d)
        for x, y in zip(s, d):
            if type(y) is not int:
                if isinstance(y, ScaledBasis):
                    raise CutepyError(f"cosize of {self} is not an integer: it has basis strides")
                plain = False
            elif type(x) is not int:
                plain = False
            r = r + (x - 1) * abs(y)
        if plain:  # a symbolic cosize is not kept: it may depend on the facts in force
            self._cosize = r
        return r

    def rank(self) -> int:
        """Number of top-level modes."""
        return it.rank_tuple(self._shape)

    def depth(self) -> int:
        """Nesting depth of the shape."""
        return it.depth_tuple(self._shape)

    def __len__(self) -> int:
        return it.rank_tuple(self._shape)

    def __iter__(self):
        for i in range(self.rank()):
            yield self[i]

    def __getitem__(self, i: int) -> Layout:
        """Mode ``i`` (CuTe's ``layout<i>``); a scalar layout is its own mode 0."""
        if type(i) is not int:
            i = _mode_index(i, self)
        if type(self._shape) is tuple:
            try:
                return Layout._new(self._shape[i], self._stride[i])
            except IndexError:
                raise CutepyError(f"mode {i} out of range for rank-{len(self._shape)} {self}") from None
        if i in (0, -1):
            return self
        raise CutepyError(f"mode {i} out of range for the scalar layout {self}")

    # -- evaluation -----------------------------------------------------------------

    def __call__(self, i: Any = _NO_ARG, *rest: Any) -> Any:
        """``L(i)``, ``L(i, j)``, ``L((i, (j, k)))``: the offset; a ``None`` anywhere slices."""
        if type(i) is int and i >= 0 and not rest:  # L(i): the hot path
            f = self._flat
            if f is None:  # first call: False when the general path decides
                f = self._flat = _index_form(self._shape, self._stride) or False
            if f:
                pairs, last = f
                r = 0
                for s, d in pairs:
                    r += i % s * d
                    i //= s
                return r + i * last
        args = () if i is _NO_ARG else (i, *rest)
        if not args:
            raise CutepyError("a layout is called with an index or a coordinate")
        crd = args[0] if len(args) == 1 else args
        if type(crd) is int:
            return it.crd2idx(crd, self._shape, self._stride)
        if _has_none(crd):
            return slice_and_offset(crd, self)[0]
        crd = _normalize_coord(crd)
        return it.crd2idx(crd, self._shape, self._stride)

    def offsets(self, indices: Any = None):
        """``L(i)`` for every index of the domain (or for an array of indices), as int64.

        >>> Layout((2, 3), (3, 1)).offsets()
        array([0, 3, 1, 4, 2, 5])
        """
        return _evaluate.offsets(self, indices, keep=derived)

    def get_hier_coord(self, offset: Any) -> Any:
        """C++'s ``Layout::get_hier_coord``: see :func:`get_hier_coord`."""
        return get_hier_coord(self, offset)

    def get_flat_coord(self, offset: Any) -> Any:
        """C++'s ``Layout::get_flat_coord``: see :func:`get_flat_coord`."""
        return get_flat_coord(self, offset)

    def get_1d_coord(self, offset: Any) -> Any:
        """C++'s ``Layout::get_1d_coord``: see :func:`get_1d_coord`."""
        return get_1d_coord(self, offset)


def _mode_index(i: Any, layout: Any) -> int:
    """``i`` as a mode index (an integer, numpy's included), else :class:`CutepyError`."""
    if type(i) is not bool and (isinstance(i, Integral) or hasattr(i, "__index__")):
        try:
            return operator.index(i)
        except TypeError:
            pass
    raise CutepyError(f"a mode index is an integer, got {it.short_repr(i)} for {layout}")


def _rank_arg(n: Any, fn: str) -> int:
    """The target rank ``n`` of ``append``/``prepend``: a non-negative integer within the element
    limit (the result holds ``n`` modes), else :class:`CutepyError`."""
    if type(n) is bool or not (isinstance(n, Integral) or hasattr(n, "__index__")):
        raise CutepyError(f"{fn}: the rank n must be an integer, got {it.short_repr(n)}")
    try:
        n = operator.index(n)
    except TypeError:
        raise CutepyError(f"{fn}: the rank n must be a concrete integer, got {it.short_repr(n)}") from None
    if n > max_elements():
        raise CutepyError(f"{fn}: rank {n} is above the element limit of {max_elements()} "
                          "(raise it with cutepy.limits(max_elements=...))")
    return n


class _MajorTag:
    """``LayoutLeft`` / ``LayoutRight``: call with a shape for the compact layout."""

    def __init__(self, name: str, strides):
        self._name = name
        self.strides = strides

    def __call__(self, shape: Any) -> Layout:
        shape = _normalize(shape, "shape", True)
        return Layout._grown(shape, self.strides(shape))

    def __repr__(self) -> str:
        return self._name


#: Compact column-major strides (the default): ``LayoutLeft((2,3)) == (2,3):(1,2)``.
LayoutLeft = _MajorTag("LayoutLeft", it.compact_major)
#: Compact row-major strides: ``LayoutRight((2,3)) == (2,3):(3,1)``.
LayoutRight = _MajorTag("LayoutRight", lambda shape: it.compact_major(shape, "right"))


def _has_none(c: Any) -> bool:
    if c is None:
        return True
    if isinstance(c, (tuple, list)):
        return any(_has_none(x) for x in c)
    return False


def _normalize_coord(c: Any) -> Any:
    if isinstance(c, (tuple, list)):
        it.check_depth(c, "coordinate")
        return tuple(_normalize_coord(x) for x in c)
    if c is None:
        return None
    if type(c) is int or type(c) is DynamicInt:
        return c
    if type(c) is not bool and (isinstance(c, Integral) or hasattr(c, "__index__")):
        try:
            return operator.index(c)
        except TypeError:  # a symbolic coordinate
            return c
    raise CutepyError(f"coordinate leaf {c!r} is not an integer")


def layout_arg(x: Any, fn: str) -> Layout:
    """``x`` as the Layout argument of ``fn``: a Layout, or a shape (its compact layout).

    Pre:  ``x`` is a Layout or a shape; anything else raises :class:`LayoutError` naming ``fn``.
    Post: a Layout (``x`` itself when it is one).

    >>> layout_arg((2, 3), "coalesce")
    (2,3):(1,2)
    >>> layout_arg(2.5, "coalesce")
    Traceback (most recent call last):
      ...
    cutepy.LayoutError: coalesce: expected a layout (or a shape), got 2.5
    """
    if type(x) is Layout:
        return x
    if type(x) in (tuple, list) or (it.is_integer(x) and not isinstance(x, ScaledBasis)):
        return Layout(x)
    raise LayoutError(f"{fn}: expected a layout (or a shape), got {it.short_repr(x)}")


def as_layout(x: Any) -> Layout:
    """A Layout from a Layout or a shape (compact strides); text is read by :func:`cutepy.parse`.

    >>> as_layout((2, 3))
    (2,3):(1,2)
    """
    if type(x) is Layout:
        return x
    if isinstance(x, str):
        raise LayoutError(f"expected a layout, got the text {x!r}: read it with cutepy.parse first")
    return Layout(x)


# -- construction -------------------------------------------------------------------


def make_layout(*args: Any) -> Layout:
    """``make_layout(shape, stride=None)``, or ``make_layout(L0, L1, ...)`` to use layouts as modes.

    Pre:  a shape (and a congruent stride or ``LayoutLeft``/``LayoutRight``), layouts, or one Swizzle.
    Post: as :class:`Layout`; with layouts, mode ``k`` of the result is the ``k``-th layout.

    >>> make_layout((2, 3), LayoutRight)
    (2,3):(3,1)
    >>> make_layout(Layout(2, 3), Layout((4, 2)))
    (2,(4,2)):(3,(1,4))

    A swizzle gives C++'s ``make_layout(Sw<B,M,S>)``, ``Sw o 0 o (M+B+|S|):1`` (see
    :meth:`cutepy.core.swizzle.Swizzle.make_layout`).
    """
    for a in args:
        if type(a) is not Layout:
            break
    else:
        if len(args) == 2:  # the common case: two modes
            a, b = args
            return Layout._new((a._shape, b._shape), (a._stride, b._stride))
        if args:
            return Layout._new(tuple([a._shape for a in args]), tuple([a._stride for a in args]))
    if len(args) == 1 and (impl := MAKE_LAYOUT.of(args[0])) is not None:
        return impl(args[0])  # a Swizzle: the composed layout's module registers it
    if len(args) == 1:
        return Layout(args[0])
    if len(args) == 2:
        return Layout(args[0], args[1])
    raise CutepyError("make_layout takes (shape, stride=None) or layouts as modes")


def make_identity_layout(shape: Any) -> Layout:
    """The layout mapping each coordinate to itself, with basis strides.

    Pre:  a shape.
    Post: ``L(c) == c`` for every natural coordinate ``c`` (as an ArithmeticTuple).

    >>> L = make_identity_layout((4, 8))
    >>> print(L)
    (4,8):(1@0,1@1)
    >>> L(5), L(3, 7)
    ((1,1), (3,7))
    """
    shape = _normalize(shape, "shape", True)
    return Layout._new(shape, basis_like(shape))


# -- mode manipulation ------------------------------------------------------------


def _modes(layout: Layout, fn: str = "a mode operation") -> tuple[tuple, tuple]:
    if type(layout) is not Layout:
        layout = layout_arg(layout, fn)
    if type(layout._shape) is tuple:
        return layout._shape, layout._stride
    return (layout._shape,), (layout._stride,)


def get(layout: Layout, *path: int) -> Layout:
    """The sub-layout at a mode path: ``get(L, 1, 0)`` is CuTe's ``layout<1,0>(L)``.

    A swizzled layout ``outer o offset o L`` gives ``outer o offset o get(L, ...)``, as C++.

    Pre:  each index of ``path`` names a mode of the layout reached so far.
    Post: the result is that mode, shape and stride unchanged.

    >>> get(Layout(((2, 2), 3), ((24, 2), 8)), 0, 1)
    2:2
    """
    if type(layout) is not Layout and (impl := GET.of(layout)) is not None:
        return impl(layout, *path)
    layout = layout_arg(layout, "get")
    for i in path:
        layout = layout[i]
    return layout


def select(layout: Layout, *modes: int, mode: Any = None) -> Layout:
    """The layout of the chosen top-level modes, in the given order (CuTe's ``select<I...>``).

    The modes are C++'s template arguments, ``select(L, 2, 0)``, or the CuTe DSL's keyword,
    ``select(L, mode=[2, 0])``.

    Pre:  every index is a top-level mode of ``layout``; modes are given one way, not both.
    Post: mode ``k`` of the result is mode ``modes[k]`` of ``layout``.

    >>> select(Layout((2, 3, 4)), 2, 0)
    (4,2):(6,1)
    >>> select(Layout((2, 3, 4)), mode=[2, 0])
    (4,2):(6,1)
    """
    if mode is not None:
        if modes:
            raise CutepyError(f"select: give the modes as arguments or as mode=, not both "
                              f"({modes} and {mode})")
        modes = tuple(mode) if isinstance(mode, (list, tuple)) else (mode,)
    s, d = _modes(layout, "select")
    modes = as_int(modes)
    for i in modes:
        if type(i) is not int:
            raise CutepyError(f"select: the mode index {it.short_repr(i)} is not an integer")
    try:
        return Layout._new(tuple(s[i] for i in modes), tuple(d[i] for i in modes))
    except IndexError:
        raise CutepyError(f"select: a mode of {it.short_repr(modes)} is out of range for {layout}") from None


def _mode_range(layout: Any, begin: Any, end: Any, fn: str) -> tuple[tuple, tuple]:
    """The modes (shapes, strides) of ``layout`` after checking ``0 <= begin <= end <= rank``."""
    s, d = _modes(layout, fn)
    begin, end = as_int(begin), as_int(end)
    if type(begin) is not int or type(end) is not int or not 0 <= begin <= end <= len(s):
        raise CutepyError(f"{fn}: [{it.short_repr(begin)}, {it.short_repr(end)}) "
                          f"is not a mode range of {layout}")
    return s, d


def take(layout: Layout, begin: int, end: int) -> Layout:
    """Modes ``[begin, end)`` (CuTe's ``take<B,E>``).

    Pre:  ``0 <= begin <= end <= rank(layout)``.
    Post: a rank ``end - begin`` layout of those modes, unchanged.

    >>> take(Layout((2, 3, 4)), 1, 3)
    (3,4):(2,6)
    """
    if type(layout) is not Layout and (impl := TAKE.of(layout)) is not None:
        return impl(layout, begin, end)
    s, d = _mode_range(layout, begin, end, "take")
    return Layout._new(s[begin:end], d[begin:end])


def group(layout: Layout, begin: int, end: int) -> Layout:
    """Gather modes ``[begin, end)`` into one mode (CuTe's ``group<B,E>``).

    Pre:  ``0 <= begin <= end <= rank(layout)``.
    Post: the same function of the 1-D index; rank drops by ``end - begin - 1``.

    >>> group(Layout((2, 3, 4)), 0, 2)
    ((2,3),4):((1,2),6)
    """
    if type(layout) is not Layout and (impl := GROUP.of(layout)) is not None:
        return impl(layout, begin, end)
    s, d = _mode_range(layout, begin, end, "group")
    if begin == end:  # as C++: an empty range groups nothing
        return layout_arg(layout, "group")
    return Layout._new(
        s[:begin] + (s[begin:end],) + s[end:], d[:begin] + (d[begin:end],) + d[end:]
    )


#: C++'s ``group_modes<B,E>``: :func:`group` (a tensor's modes too, through its method)
group_modes = group


def append(layout: Layout, x: Layout | None = None, n: int | None = None) -> Layout:
    """Add ``x`` as a last mode; with ``n``, pad with ``x`` (default ``1:0``) up to rank ``n``.

    Pre:  ``x`` is a Layout (or None for ``1:0``).
    Post: the old modes come first, unchanged; with ``n``, the rank is ``max(rank, n)``.

    >>> append(Layout(4), n=3)
    (4,1,1):(1,0,0)
    >>> append(Layout((2, 3)), Layout(5, 6))
    (2,3,5):(1,2,6)
    """
    if type(layout) is not Layout and (impl := APPEND.of(layout)) is not None:
        return impl(layout, x, n)
    x = Layout._new(1, 0) if x is None else layout_arg(x, "append")
    s, d = _modes(layout, "append")
    if n is None:
        return Layout._new(s + (x._shape,), d + (x._stride,))
    k = max(0, _rank_arg(n, "append") - len(s))
    return Layout._new(s + (x._shape,) * k, d + (x._stride,) * k)


def prepend(layout: Layout, x: Layout | None = None, n: int | None = None) -> Layout:
    """Add ``x`` as a first mode; with ``n``, pad in front up to rank ``n``.

    Pre:  ``x`` is a Layout (or None for ``1:0``).
    Post: the old modes come last, unchanged; with ``n``, the rank is ``max(rank, n)``.

    >>> prepend(Layout((2, 3)), Layout(5, 6))
    (5,2,3):(6,1,2)
    """
    x = Layout._new(1, 0) if x is None else layout_arg(x, "prepend")
    s, d = _modes(layout, "prepend")
    if n is None:
        return Layout._new((x._shape,) + s, (x._stride,) + d)
    k = max(0, _rank_arg(n, "prepend") - len(s))
    return Layout._new((x._shape,) * k + s, (x._stride,) * k + d)


def replace(layout: Layout, i: int, x: Layout) -> Layout:
    """Mode ``i`` replaced by ``x`` (CuTe's ``replace<I>``).

    Pre:  ``i`` names a top-level mode; ``x`` is a Layout.
    Post: every other mode is unchanged.

    >>> replace(Layout((2, 3)), 1, Layout(5, 7))
    (2,5):(1,7)
    """
    s, d = _modes(layout, "replace")
    x = layout_arg(x, "replace")
    i = as_int(i)
    if type(i) is not int or not -len(s) <= i < len(s):
        raise CutepyError(f"replace: mode {i} out of range for {layout}")
    s, d = list(s), list(d)
    s[i], d[i] = x._shape, x._stride
    return Layout._new(tuple(s), tuple(d))


def flatten(layout: Layout) -> Layout:
    """All leaves as top-level modes.

    Pre:  any layout.
    Post: depth at most 1; the same function of the 1-D index.

    >>> flatten(Layout(((2, 2), 3), ((24, 2), 8)))
    (2,2,3):(24,2,8)
    """
    if type(layout) is not Layout and (impl := FLATTEN.of(layout)) is not None:
        return impl(layout)
    layout = layout_arg(layout, "flatten")
    if type(layout._shape) is not tuple:
        return layout
    return Layout._new(it.flatten_tuple(layout._shape), it.flatten_tuple(layout._stride))


def unflatten(layout: Layout, target_profile: Any) -> Layout:
    """The flat ``layout`` with its modes nested like ``target_profile`` (C++'s ``unflatten``).

    Pre:  ``layout`` is flat and has as many modes as ``target_profile`` has leaves (else
          ``CutepyError``); ``target_profile`` is an IntTuple (its leaves' values do not matter).
    Post: ``congruent(result.shape, target_profile)`` and ``flatten(result) == flatten(layout)``.

    >>> unflatten(Layout((2, 3, 4)), ((0, 0), 0))
    ((2,3),4):((1,2),6)
    """
    layout = layout_arg(layout, "unflatten")
    check_profile = it.flatten_tuple(target_profile) if type(target_profile) is tuple else (target_profile,)
    for leaf in check_profile:
        if not it.is_integer(leaf):
            raise CutepyError(f"unflatten: the profile {it.short_repr(target_profile)} is not an IntTuple")
    s, d = layout._shape, layout._stride
    if type(s) is tuple and any(type(x) is tuple for x in s):
        raise CutepyError(f"unflatten: {layout} is not flat")
    fs, fd = (s, d) if type(s) is tuple else ((s,), (d,))
    if len(fs) != len(check_profile):
        raise CutepyError(f"unflatten: {layout} has {len(fs)} modes, the profile "
                          f"{it.short_repr(target_profile)} {len(check_profile)} leaves")
    if type(target_profile) is not tuple:
        return Layout._new(fs[0], fd[0])
    return Layout._new(it.unflatten_tuple(fs, target_profile), it.unflatten_tuple(fd, target_profile))


# -- slicing ----------------------------------------------------------------------


def slice_and_offset(crd: Any, layout: Layout) -> tuple[Layout, Any]:
    """Split ``crd`` (``None`` = wildcard) into the sub-layout it leaves free and the offset it fixes.

    Pre:  ``crd`` is congruent to a prefix profile of the shape, ``None`` where a mode stays.
    Post: ``layout(c) == offset + sub(c')`` where ``c'`` are the wildcard positions of ``c``.

    >>> slice_and_offset((None, 2), Layout((4, 3), (3, 1)))
    ((4):(3), 2)
    """
    if type(layout) is not Layout and (impl := SLICE_AND_OFFSET.of(layout)) is not None:
        return impl(layout, crd)
    if type(layout) is not Layout:
        layout = layout_arg(layout, "slice_and_offset")
    crd = _normalize_coord(crd)
    shape, stride = layout._shape, layout._stride
    if crd is None:
        return layout, 0
    if isinstance(crd, tuple):
        s, d = it.lift_slice(crd, shape, True), it.lift_slice(crd, stride, True)
    else:
        s, d = (), ()
    zero = _fill_none(crd)
    return Layout._new(s, d), it.crd2idx(zero, shape, stride)


def _fill_none(c: Any) -> Any:
    if isinstance(c, tuple):
        return tuple(_fill_none(x) for x in c)
    return 0 if c is None else c


def slice_(crd: Any, x: Any) -> Any:
    """C++'s ``slice(crd, x)`` (exported as ``cutepy.slice``): the part of a layout or an
    IntTuple that the wildcards ``None`` of ``crd`` leave free, without the offset.

    Pre:  ``x`` is a layout (plain or composed) or an IntTuple; ``crd`` as for
          :func:`slice_and_offset` (else ``CutepyError``).
    Post: for a layout, ``slice_and_offset(crd, x)[0]``; for an IntTuple, the leaves under
          the wildcards, flat (``x`` itself for ``crd = None``, ``()`` for an integer ``crd``).

    >>> slice_((None, 0), (3, 4)), slice_((None, 2), Layout((4, 3), (3, 1)))
    ((3,), (4):(3))
    """
    if isinstance(x, tuple) or type(x) is int:
        check_int_tuple(x, "slice", 2)
        return it.slice_tuple(_normalize_coord(crd), x)
    return slice_and_offset(crd, x)[0]


def dice(crd: Any, layout: Layout) -> Layout:
    """The modes of ``layout`` (or of an IntTuple) that ``crd`` fixes (the opposite of slicing).

    Pre:  ``crd`` as for :func:`slice_and_offset`.
    Post: the leaves where ``crd`` is not the wildcard, flat, in order.

    >>> dice((None, 2), Layout((4, 3), (3, 1)))
    (3):(1)
    >>> dice((1, None, 1), (1, 2, None))
    (1, None)
    """
    if isinstance(layout, tuple) or type(layout) is int:  # C++'s dice(crd, IntTuple)
        # a coordinate may hold wildcards (C++ dice(Step<_1,X,_1>{}, make_coord(m, n, _)))
        check_int_tuple(it.transform_leaf(lambda x: 0 if x is None else x, layout), "dice", 2)
        return it.dice_tuple(_normalize_coord(crd), layout)
    if type(layout) is not Layout:  # C++ has no dice of a composed layout
        layout = layout_arg(layout, "dice")
    crd = _normalize_coord(crd)
    if crd is None:
        return Layout._new((), ())
    if not isinstance(crd, tuple):
        return layout
    return Layout._new(it.lift_slice(crd, layout._shape, False), it.lift_slice(crd, layout._stride, False))


# -- offsets back to coordinates ---------------------------------------------------


def get_hier_coord(layout: Layout, offset: Any) -> Any:
    """The natural coordinate whose offset is ``offset``, read through the strides (C++'s
    ``Layout::get_hier_coord``): leaf ``(offset // d) % s``. Exact for compact layouts.

    Pre:  integer strides, no stride-0 leaf of size > 1 (else ``CutepyError``).
    Post: ``congruent(result, shape(layout))`` and ``layout(result) == offset`` whenever
          ``layout`` is compact and reaches ``offset``.

    >>> get_hier_coord(Layout((2, 4), (4, 1)), 7)
    (1, 3)
    """
    return it.idx2crd(offset, layout.shape, layout.stride)


def get_flat_coord(layout: Layout, offset: Any) -> Any:
    """``get_hier_coord`` with each top-level mode's coordinate made 1-D (C++'s ``get_flat_coord``).

    Pre:  as :func:`get_hier_coord`.
    Post: ``rank(result) == rank(layout)``, ``depth(result) <= 1`` and
          ``layout(result) == offset`` for a compact layout.

    >>> get_flat_coord(Layout(((2, 2), 4), ((8, 4), 1)), 13)
    (3, 1)
    """
    crd = get_hier_coord(layout, offset)
    shape = layout.shape
    if type(shape) is not tuple or len(shape) == 1:  # C++'s repeat<1> is not a tuple
        return it.crd2idx(crd, shape)
    return tuple(it.crd2idx(c, s) for c, s in zip(crd, shape))


def get_1d_coord(layout: Layout, offset: Any) -> Any:
    """The column-major index of ``get_hier_coord(offset)`` (C++'s ``get_1d_coord``).

    Pre:  ``offset`` is an offset ``layout`` reaches (exact for compact layouts).
    Post: ``layout(result) == offset``; ``result == crd2idx(get_hier_coord(layout, offset), shape)``.

    >>> get_1d_coord(Layout((2, 4), (4, 1)), 7)
    7
    """
    return _horner(get_hier_coord(layout, offset), layout.shape)


def _horner(crd: Any, shape: Any) -> Any:
    if type(crd) is not tuple:
        return crd
    fc, fs = it.flatten_tuple(crd), it.flatten_tuple(it._product_like(shape, crd))
    r = fc[-1]
    for c, s in zip(reversed(fc[:-1]), reversed(fs[:-1])):
        r = c + s * r
    return r



def _index_form(s: Any, d: Any) -> tuple[tuple, int] | None:
    """What ``L(i)`` for an index ``i >= 0`` reads when every leaf is a plain ``int`` (``None``
    otherwise, or for ``():()``: the general path decides): the flat leaves but the last as
    ``(shape, stride)`` pairs, and the last leaf's stride. ``L(i)`` is colexicographic: each
    pair takes ``i % shape`` and passes ``i // shape`` on; the last leaf takes what is left,
    unwrapped, as in C++. Kept per value (computed on the first call).

    Size-1 leaves but the last are dropped and a leaf ``s1:d1`` following ``s0:d0`` with
    ``d1 == s0 * d0`` is merged into ``(s0*s1):d0``: both leave ``L(i)`` unchanged for every
    ``i >= 0``, in the domain or past it.

    >>> _index_form(((2, 1), (4, 3)), ((1, 9), (2, 16)))  # 1:9 dropped, 2:1 and 4:2 merged
    (((8, 1),), 16)
    """
    if type(s) is not tuple:
        return ((), d) if type(s) is int and type(d) is int else None
    fs, fd = it.flatten_tuple(s), it.flatten_tuple(d)
    if not fs:
        return None
    pairs: list = []
    last = len(fs) - 1
    for k, (x, y) in enumerate(zip(fs, fd)):
        if type(x) is not int or type(y) is not int:
            return None
        if x == 1 and k < last:
            continue
        if pairs and y == pairs[-1][0] * pairs[-1][1]:
            px, py = pairs.pop()
            x, y = px * x, py
        pairs.append((x, y))
    return tuple(pairs[:-1]), pairs[-1][1]


# -- free functions mirroring CuTe ----------------------------------------------------


def size(x: Any) -> Any:
    """``size`` of a layout (or anything with ``size()``), of an IntTuple, or of a value that
    implements it (C++'s ``size(tiled_mma)`` and ``size(tiled_copy)``: the number of threads).

    Pre:  a layout-like value, a TiledMMA/TiledCopy or an IntTuple.
    Post: the number of coordinates: the product of the shape (threads for a tiled object).

    >>> size(Layout((2, (3, 4)))), size((2, 3))
    (24, 6)
    """
    if type(x) is not Layout and (impl := SIZE.of(x)) is not None:
        return impl(x)
    return x.size() if callable(getattr(x, "size", None)) else it.product(x)


def cosize(layout: Any) -> Any:
    """``cosize`` of a layout: one past its largest offset.

    Pre:  a layout with integer strides.
    Post: ``1 + sum((s - 1) * |d|)`` over the leaves.

    >>> cosize(Layout((2, 3), (3, 1)))
    6
    """
    if type(layout) is not Layout and not callable(getattr(layout, "cosize", None)):
        layout = layout_arg(layout, "cosize")
    return layout.cosize()


def coprofile(layout: Layout) -> Any:
    """The profile of ``layout``'s codomain, as a tuple of zeros (C++'s ``coprofile``).

    Integer strides give ``0``; basis strides (identity layouts) give zeros shaped like the
    sum of the strides, the coordinate tuple every offset of ``layout`` is.

    Pre:  ``layout`` is a Layout (or a shape); its strides are all integers or all basis
          elements (else ``CutepyError``: C++ does not add an integer to a coordinate).
    Post: ``congruent(result, layout(i))`` for every index ``i``; every leaf is 0.

    >>> coprofile(Layout((4, 8), (1, 4)))
    0
    >>> coprofile(make_identity_layout((4, (8, 2))))
    (0, (0, 0))
    """
    if type(layout) is not Layout:
        layout = layout_arg(layout, "coprofile")
    total: Any = 0
    for d in it.flatten_tuple(layout._stride) if type(layout._stride) is tuple else (layout._stride,):
        total = total + (d.as_tuple() if isinstance(d, ScaledBasis) else d)
    return _zeros_like(total)


def _zeros_like(t: Any) -> Any:
    if isinstance(t, tuple):
        return tuple(_zeros_like(x) for x in t)
    return 0


def rank(x: Any) -> int:
    """``rank`` of a layout or an IntTuple: the number of top-level modes.

    Pre:  a layout-like value or an IntTuple.
    Post: ``1`` for an integer, ``len`` for a tuple.

    >>> rank(Layout((2, (3, 4)))), rank(5)
    (2, 1)
    """
    return x.rank() if callable(getattr(x, "rank", None)) else it.rank_tuple(x)


def depth(x: Any) -> int:
    """``depth`` of a layout or an IntTuple: how deeply its shape nests.

    Pre:  a layout-like value or an IntTuple.
    Post: ``0`` for an integer, ``1 + max(depth of the modes)`` for a tuple.

    >>> depth(Layout((2, (3, 4)))), depth(5)
    (2, 0)
    """
    return x.depth() if callable(getattr(x, "depth", None)) else it.depth_tuple(x)


def is_static(x: Any) -> bool:
    """C++'s ``is_static`` (the DSL's ``cute.is_static``): whether ``x`` is known at compile
    time. A plain ``int`` is static, as in the CuTe DSL; a :func:`cutepy.dynamic` integer or a
    symbolic one is not; a tuple is static when every leaf is; a layout when its shape and
    stride are; a swizzled layout when its offset and layout are; a tensor when its layout is.

    Pre:  an integer, a tuple of them (``None`` for C++'s static ``_``), a basis element or a
          layout-like value.
    Post: ``True`` iff no leaf is dynamic.

    >>> from cutepy import dynamic
    >>> is_static(8), is_static(dynamic(8)), is_static((2, (dynamic(3), 4)))
    (True, False, False)
    >>> is_static(Layout((4, 8))), is_static(make_layout((4, 8), (1, dynamic(4))))
    (True, False)
    """
    if type(x) is int or x is None:
        return True
    if type(x) is not Layout and (impl := IS_STATIC.of(x)) is not None:
        return impl(x)
    if type(x) is tuple:
        return all(is_static(y) for y in x)
    if type(x) is Layout:
        return is_static(x._shape) and is_static(x._stride)
    if isinstance(x, ScaledBasis):
        return is_static(x.value)
    if it.is_integer(x):
        return is_static_int(x)
    raise CutepyError(f"is_static: {it.short_repr(x)} is not an integer, a tuple or a layout")


def shape(layout: Layout) -> Any:
    """The shape of a layout.

    Pre:  a layout-like value.
    Post: its shape, a positive integer or a nested tuple of them.

    >>> shape(Layout((2, 3), (3, 1)))
    (2, 3)
    """
    return layout.shape


def stride(layout: Layout) -> Any:
    """The stride of a layout.

    Pre:  a layout-like value.
    Post: its stride, congruent to its shape.

    >>> stride(Layout((2, 3), (3, 1)))
    (3, 1)
    """
    return layout.stride

#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "Layout", "LayoutLeft", "LayoutRight", "append", "coprofile", "cosize", "depth", "dice", "flatten",
    "get", "get_1d_coord", "get_flat_coord", "get_hier_coord", "group", "group_modes", "is_static",
    "make_identity_layout", "make_layout", "prepend", "rank", "replace", "select", "shape", "size",
    "slice_and_offset", "stride", "take", "unflatten",
]
