"""Hierarchical integer tuples (CuTe's ``IntTuple``), with C++ CuTe semantics.

An *IntTuple* is an ``int`` or a (possibly nested) ``tuple`` of IntTuples. Shapes,
strides and coordinates of layouts are IntTuples.

>>> product((2, (3, 4)))
24
>>> flatten_tuple(((2, 2), 3))
(2, 2, 3)
>>> prefix_product((2, (3, 4)))
(1, (2, 6))
>>> idx2crd(5, (2, 3))
(1, 2)
>>> idx2crd((1, 5), (3, (2, 3)))
(1, (1, 2))
>>> crd2idx((1, (1, 2)), (3, (2, 3)))
16
"""

from __future__ import annotations

import re
from fractions import Fraction
from numbers import Integral
from typing import Any

from .dynamic import DynamicInt, _dynamic_leaf
from .errors import CutepyError
from .limits import show_int

IntTuple = int | tuple

#: Deepest nesting cutepy accepts; real layouts rarely pass 4.
MAX_DEPTH = 64


def is_tuple(x: Any) -> bool:
    """True for a (nested) tuple, False for a leaf."""
    return isinstance(x, tuple)


def is_int(x: Any) -> bool:
    """True for a plain (non-bool) Python integer."""
    return type(x) is int


def product(t: IntTuple) -> Any:
    """Product of all leaves; ``1`` for an empty tuple.

    Pre:  ``t`` is an IntTuple.
    Post: the product of ``flatten_tuple(t)``: ``size`` of the shape ``t``.

    >>> product(((2, 3), 4))
    24
    """
    if type(t) is tuple:
        r = 1
        for x in t:
            r = r * (product(x) if type(x) is tuple else x)
        return r
    return t if type(t) is int else _leaf(t, "product")


size = product


def _leaf(x: Any, fn: str) -> Any:
    """``x`` if it is an integer leaf (numpy and symbolic integers too), else a CutepyError."""
    if is_integer(x):
        return x
    raise CutepyError(f"{fn}: {short_repr(x)} is not an integer or a tuple of integers")


def short_repr(x: Any) -> str:
    """``repr(x)`` cut short (and safe for integers past Python's 4300-digit print limit)."""
    if type(x) is int and x.bit_length() > 256:
        return show_int(x)
    try:
        text = repr(x)
    except ValueError:  # a tuple holding an integer past Python's print limit
        return "a value with an integer too large to print"
    return text if len(text) <= 80 else text[:77] + "..."


def product_each_tuple(t: IntTuple) -> IntTuple:
    """Product of each top-level mode: ``((2,3),4) -> (6,4)``; an integer stays itself
    (:func:`cutepy.core.tuples.product_each` wraps it, as C++).

    >>> product_each_tuple(((2, 3), 4))
    (6, 4)
    """
    if type(t) is tuple:
        return tuple(product(x) for x in t)
    return t


def rank_tuple(t: IntTuple) -> int:
    """Number of top-level modes (1 for a leaf).

    >>> rank_tuple(((2, 3), 4)), rank_tuple(7)
    (2, 1)
    """
    return len(t) if type(t) is tuple else (1 if type(t) is int or _leaf(t, "rank") is not None else 1)


def depth_tuple(t: IntTuple) -> int:
    """Nesting depth: 0 for a leaf, 1 for a flat tuple.

    >>> depth_tuple(3), depth_tuple((3, 4)), depth_tuple(((2, 2), 3))
    (0, 1, 2)
    """
    if type(t) is tuple:
        return 1 + max((depth_tuple(x) for x in t), default=0)
    if type(t) is not int:
        _leaf(t, "depth")
    return 0


def check_depth(t: Any, what: str = "tuple") -> None:
    """Raise a :class:`CutepyError` if ``t`` nests deeper than :data:`MAX_DEPTH` (no recursion)."""
    stack = [(t, 0)]
    while stack:
        x, d = stack.pop()
        if isinstance(x, tuple):
            if d >= MAX_DEPTH:
                raise CutepyError(f"{what} nests deeper than {MAX_DEPTH} levels")
            stack.extend((y, d + 1) for y in x)


def flatten_tuple(t: IntTuple) -> tuple:
    """All leaves in order, as a flat tuple (a leaf gives a 1-tuple).

    >>> flatten_tuple(((2, (3,)), 4))
    (2, 3, 4)
    """
    if type(t) is not tuple:
        return (t,)
    for x in t:
        if type(x) is tuple:
            break
    else:
        return t
    out: list = []
    _flatten_into(t, out)
    return tuple(out)


def flatten_dyn(t: IntTuple) -> tuple[tuple, bool]:
    """:func:`flatten_tuple` and whether a leaf is a run-time integer (:func:`cutepy.dynamic`),
    found in the same walk: the static fast path pays one type test per leaf, no second pass.

    >>> from cutepy import dynamic
    >>> flatten_dyn(((2, 3), 4)), flatten_dyn((2, (dynamic(3), 4)))
    (((2, 3, 4), False), ((2, 3, 4), True))
    """
    if type(t) is not tuple:
        return (t,), type(t) is not int and _dynamic_leaf(t)
    for x in t:
        if type(x) is not int:
            break
    else:
        return t, False
    out: list = []
    dyn = _flatten_dyn_into(t, out)
    return tuple(out), dyn


def _flatten_dyn_into(t: tuple, out: list) -> bool:
    dyn = False
    for x in t:
        if type(x) is tuple:
            dyn = _flatten_dyn_into(x, out) or dyn
        else:
            out.append(x)
            if type(x) is not int and _dynamic_leaf(x):
                dyn = True
    return dyn


def _flatten_into(t: tuple, out: list) -> None:
    for x in t:
        if type(x) is tuple:
            _flatten_into(x, out)
        else:
            out.append(x)


def unflatten_tuple(flat: tuple | list, profile: IntTuple) -> IntTuple:
    """Give the leaves of ``flat`` the nesting of ``profile`` (inverse of :func:`flatten`).

    >>> unflatten_tuple((1, 2, 3), ((0, 0), 0))
    ((1, 2), 3)
    """
    it = iter(flat)
    result = _unflatten(it, profile)
    if next(it, None) is not None:
        raise CutepyError(f"unflatten: more leaves than the profile {profile} holds")
    return result


def _unflatten(it, profile):
    if type(profile) is tuple:
        return tuple(_unflatten(it, p) for p in profile)
    try:
        return next(it)
    except StopIteration:
        raise CutepyError("unflatten: fewer leaves than the profile needs") from None


def transform_leaf(fn, *ts):
    """Apply ``fn`` leafwise to congruent tuples."""
    if type(ts[0]) is tuple:
        return tuple(transform_leaf(fn, *xs) for xs in zip(*ts))
    return fn(*ts)


def prefix_product(t: IntTuple, init: Any = 1) -> IntTuple:
    """Exclusive prefix product, with the nesting of ``t`` (compact column-major strides).

    Pre:  ``t`` is an IntTuple.
    Post: congruent with ``t``; leaf ``k`` (colexicographic) is ``init`` times the product of
          the leaves before it: the compact column-major strides of the shape ``t``.

    >>> prefix_product(((2, 3), 4))
    ((1, 2), 6)
    """
    if type(t) is tuple:
        out = []
        for x in t:
            out.append(prefix_product(x, init))
            init = init * product(x)
        return tuple(out)
    return init


def suffix_product(t: IntTuple, init: Any = 1) -> IntTuple:
    """Exclusive suffix product (compact row-major strides).

    Pre:  ``t`` is an IntTuple.
    Post: congruent with ``t``; leaf ``k`` is ``init`` times the product of the leaves after
          it: the compact row-major strides of the shape ``t``.

    >>> suffix_product((2, (3, 4)))
    (12, (4, 1))
    """
    if type(t) is tuple:
        out = []
        for x in reversed(t):
            out.append(suffix_product(x, init))
            init = init * product(x)
        return tuple(reversed(out))
    return init


def inner_product(a: IntTuple, b: IntTuple) -> Any:
    """Sum of leafwise products of two congruent tuples.

    Pre:  ``a`` and ``b`` are congruent (else ``CutepyError``).
    Post: ``sum(x * y for x, y in zip(flatten_tuple(a), flatten_tuple(b)))``.

    >>> inner_product((1, (2, 3)), (4, (5, 6)))
    32
    """
    if type(a) is tuple:
        if type(b) is not tuple or len(a) != len(b):
            raise CutepyError(f"inner_product: {a} and {b} are not congruent")
        r = 0
        for x, y in zip(a, b):
            r = r + inner_product(x, y)
        return r
    if type(b) is tuple:
        raise CutepyError(f"inner_product: {a} and {b} are not congruent")
    return a * b


def ceil_div_tuple(a: IntTuple, b: IntTuple) -> IntTuple:
    """Ceiling division; a tuple ``a`` is divided mode by mode, carrying the rest of ``b``.

    Pre:  ``a`` and ``b`` are IntTuples; a tuple ``b`` has at most as many modes as ``a``
          (else ``CutepyError``).
    Post: ``product(result) >= product(a) / product(b)``; ``result == ceil(a / b)`` for integers.

    >>> ceil_div_tuple(7, 2), ceil_div_tuple((4, 6), 8), ceil_div_tuple((3, 5), (2, 2))
    (4, (1, 3), (2, 3))
    """
    if type(a) is tuple:
        if type(b) is tuple:
            if len(b) > len(a):
                raise CutepyError(f"ceil_div: {b} has more modes than {a}")
            return tuple(ceil_div_tuple(x, y) for x, y in zip(a, b)) + a[len(b):]
        out = []
        for x in a:
            out.append(ceil_div_tuple(x, b))
            b = ceil_div_tuple(b, product(x))
        return tuple(out)
    if type(b) is tuple:
        return ceil_div_tuple(a, product(b))
    if b == 0:
        raise CutepyError(f"ceil_div: division of {short_repr(a)} by 0")
    return -(-a // b)


def round_up_tuple(a: IntTuple, b: IntTuple) -> IntTuple:
    """``a`` rounded up to a multiple of ``b``, mode by mode (C++'s ``round_up_tuple``).

    Pre:  ``a`` and ``b`` are both integers (``b`` non-zero) or both tuples, ``b`` with at most
          as many modes as ``a`` (its missing modes are 1); else ``CutepyError``.
    Post: each leaf of the result is the smallest multiple of the matching leaf of ``b`` that
          is at least ``a``'s (for positive leaves).

    >>> round_up_tuple(10, 4), round_up_tuple((10, 7, 3), (4, 8))
    (12, (12, 8, 3))
    """
    if type(a) is tuple and type(b) is tuple:
        if len(b) > len(a):
            raise CutepyError(f"round_up: {short_repr(b)} has more modes than {short_repr(a)}")
        return tuple(round_up_tuple(x, y) for x, y in zip(a, b + (1,) * (len(a) - len(b))))
    if type(a) is tuple or type(b) is tuple:
        raise CutepyError(f"round_up: {short_repr(a)} and {short_repr(b)} are not both integers "
                          "or both tuples")
    if b == 0:
        raise CutepyError(f"round_up: {short_repr(a)} rounded to a multiple of 0")
    return tdivmod(a + b - 1, b)[0] * b


def _check_comparable(a: Any, b: Any, fn: str) -> None:
    """C++ instantiates the comparison of every pair of modes up to the shorter tuple's rank: an
    integer against a tuple anywhere there does not compile."""
    if type(a) is tuple and type(b) is tuple:
        for x, y in zip(a, b):
            _check_comparable(x, y, fn)
    elif type(a) is tuple or type(b) is tuple:
        raise CutepyError(f"{fn}: {short_repr(a)} and {short_repr(b)} are not both integers or both "
                          "tuples (C++ compares a tuple only with a tuple)")


def _compare_leaves(a: Any, b: Any, fn: str) -> bool:
    _check_comparable(a, b, fn)
    return bool(a < b)


def _forward(t: Any) -> Any:
    return t


def _backward(t: Any) -> Any:
    return tuple(reversed(t)) if type(t) is tuple else t


def _ordered_less(a: Any, b: Any, fn: str, view: Any) -> bool:
    """The lexicographic order of ``view(a)`` and ``view(b)`` at every level (``view`` reverses
    the modes for colex); a tuple that runs out first is the lesser."""
    _check_comparable(view(a), view(b), fn)
    if type(a) is tuple and type(b) is tuple:
        for x, y in zip(view(a), view(b)):
            if _ordered_less(x, y, fn, view):
                return True
            if x != y:
                return False
        return len(a) < len(b)
    return _compare_leaves(a, b, fn)


def lex_less(a: IntTuple, b: IntTuple) -> bool:
    """C++'s ``lex_less``: lexicographic order, mode 0 first; a prefix is less than a longer tuple.

    >>> lex_less((1, 5), (2, 0)), lex_less((1, 2), (1, 2, 0)), lex_less(((1, 2), 3), ((1, 2), 3))
    (True, True, False)
    """
    return _ordered_less(a, b, "lex_less", _forward)


def colex_less(a: IntTuple, b: IntTuple) -> bool:
    """C++'s ``colex_less``: colexicographic order, the last mode first (each tuple from its end).

    >>> colex_less((5, 1), (0, 2)), colex_less((1, 2), (2, 2))
    (True, True)
    """
    return _ordered_less(a, b, "colex_less", _backward)


def elem_less(a: IntTuple, b: IntTuple) -> bool:
    """C++'s ``elem_less``: every mode of ``a`` less than ``b``'s (``b`` may have more modes; a
    longer ``a`` is never less). A coordinate ``c`` is inside a shape ``s`` when ``elem_less(c, s)``.

    >>> elem_less((1, 2), (2, 3)), elem_less((1, 3), (2, 3)), elem_less((1,), (2, 0))
    (True, False, True)
    """
    _check_comparable(a, b, "elem_less")
    if type(a) is tuple and type(b) is tuple:
        if len(a) > len(b):
            return False
        return all(elem_less(x, y) for x, y in zip(a, b))
    return _compare_leaves(a, b, "elem_less")


def _shape_div_int(a: int, b: int) -> int:
    if a == 0 or b == 0:
        raise CutepyError(f"shape_div: {short_repr(a)} and {short_repr(b)}: a shape has no size-0 modes")
    if a % b != 0 and b % a != 0:
        raise CutepyError(f"shape_div: neither of {a} and {b} divides the other")
    q = a // b
    if q != 0:
        return q
    return 1 if (a > 0) == (b > 0) else -1


def shape_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's ``shape_div``: ``a / b`` when ``b`` divides ``a``, else ``1`` when ``a`` divides ``b``.

    A tuple ``a`` is divided mode by mode, the rest of ``b`` carried to later modes.

    Pre:  at each step one of the two divides the other (else ``CutepyError``); tuples
          divided by tuples have the same rank.
    Post: congruent with ``a``; ``product(result) == product(a) / product(b)`` when
          ``product(b)`` divides ``product(a)``, and ``1`` when ``product(a)`` divides ``product(b)``.

    >>> shape_div(12, 4), shape_div(4, 12), shape_div((4, 6), 8)
    (3, 1, (1, 3))
    """
    if type(a) is tuple:
        if type(b) is tuple:
            if len(a) != len(b):
                raise CutepyError(f"shape_div: {a} and {b} differ in rank")
            return tuple(shape_div(x, y) for x, y in zip(a, b))
        out = []
        for x in a:
            out.append(shape_div(x, b))
            b = shape_div(b, product(x))
        return tuple(out)
    if type(b) is tuple:
        return shape_div(a, product(b))
    return _shape_div_int(a, b)


def shape_min(a: IntTuple, b: int) -> IntTuple:
    """Leaf minimum, as used by composition's mod-out step."""
    if type(a) is tuple or type(b) is tuple:
        raise CutepyError("shape_min: only integers are supported")
    return a if a < b else b


def elem_scale(a: IntTuple, b: IntTuple) -> IntTuple:
    """C++'s ``elem_scale``: ``a * product(b)``, mode by mode where ``a`` is a tuple.

    Pre:  where ``a`` is a tuple, ``b`` is a tuple of the same rank (else ``CutepyError``,
          where C++ does not compile).
    Post: congruent with ``a``.

    >>> elem_scale((2, 3), (4, (2, 5))), elem_scale(3, (2, 2))
    ((8, 30), 12)
    """
    if type(a) is tuple:
        if type(b) is not tuple or len(a) != len(b):
            raise CutepyError(f"elem_scale: {short_repr(a)} and {short_repr(b)} differ in rank")
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    return a * product(b)


def safe_div(a: int, b: int) -> int:
    """C++'s ``safe_div``: ``a / b`` for integers that divide exactly.

    Pre:  ``b`` divides ``a`` and is not 0 (else ``CutepyError``; C++'s static_assert).
    Post: ``result * b == a``.

    >>> safe_div(12, 4), safe_div(0, 5), safe_div(-12, 4)
    (3, 0, -3)
    """
    if b == 0 or a % b != 0:
        raise CutepyError(f"safe_div: {short_repr(b)} does not divide {short_repr(a)}")
    return a // b


def congruent(a: IntTuple, b: IntTuple) -> bool:
    """Same nesting profile.

    Pre:  ``a`` and ``b`` are IntTuples (never raises).
    Post: ``True`` iff ``a`` and ``b`` are both leaves, or tuples of the same length whose
          modes are congruent.

    >>> congruent((1, (2, 3)), (4, (5, 6))), congruent((1, 2), (1, (2, 3)))
    (True, False)
    """
    if type(a) is tuple:
        return type(b) is tuple and len(a) == len(b) and all(map(congruent, a, b))
    return type(b) is not tuple


def weakly_congruent(a: IntTuple, b: IntTuple) -> bool:
    """``a``'s profile is a coarsening of ``b``'s (a leaf of ``a`` matches any subtree).

    Pre:  ``a`` and ``b`` are IntTuples (never raises).
    Post: ``True`` iff ``a`` is a leaf, or ``b`` is a tuple of the same length whose modes
          ``a``'s modes are weakly congruent with.

    >>> weakly_congruent((1, 2), (1, (2, 3))), weakly_congruent((1, (2, 3)), (1, 2))
    (True, False)
    """
    if type(a) is tuple:
        return type(b) is tuple and len(a) == len(b) and all(map(weakly_congruent, a, b))
    return True


def compatible(a: IntTuple, b: IntTuple) -> bool:
    """Every coordinate of shape ``a`` is a coordinate of shape ``b``: sizes agree at every leaf of a.

    Pre:  ``a`` and ``b`` are IntTuples (never raises).
    Post: ``True`` iff ``size(a) == size(b)`` and every leaf of ``a`` is an integer whose
          subtree in ``b`` has that size.

    >>> compatible(6, (2, 3)), compatible((2, 3), 6), compatible((6, 4), ((2, 3), (2, 2)))
    (True, False, True)
    """
    if type(a) is tuple:
        return type(b) is tuple and len(a) == len(b) and all(map(compatible, a, b))
    return a == product(b)


def idx2crd(idx: IntTuple, shape: IntTuple, stride: IntTuple | None = None) -> IntTuple:
    """Split an index into the natural coordinate of ``shape`` (colexicographic), as C++ does.

    ``idx`` may already be a coordinate of a coarser profile; each of its integer
    leaves is split within the matching mode. Without ``stride``, the last mode takes
    whatever is left (an index past the shape is not wrapped). With ``stride``, each leaf
    is ``(idx // d) % s`` (a size-1 leaf is 0): the coordinate of an offset in a compact
    layout, CuTe's ``Layout::get_hier_coord``.

    Pre:  ``idx`` is an integer or a coordinate weakly congruent with ``shape`` (else
          ``CutepyError``); with ``stride``, no stride-0 leaf of size > 1 (``CutepyError``).
    Post: ``congruent(result, shape)`` for ``0 <= idx < size(shape)`` and
          ``crd2idx(result, shape) == idx``.

    >>> idx2crd(7, ((2, 2), 3))
    ((1, 1), 1)
    >>> idx2crd((1, 5), (3, (2, 3)))
    (1, (1, 2))
    >>> idx2crd(14, (2, 3)), idx2crd(9, 4)
    ((0, 7), 9)
    >>> idx2crd(7, (2, 4), (4, 1))
    (1, 3)
    """
    if type(idx) is tuple:
        if type(shape) is not tuple or len(idx) != len(shape):
            raise CutepyError(f"idx2crd: coordinate {idx} does not match the shape {shape}")
        if stride is None:
            return tuple(idx2crd(i, s) for i, s in zip(idx, shape))
        return tuple(idx2crd(i, s, d) for i, s, d in zip(idx, shape, stride))
    if stride is None:
        if type(shape) is not tuple:
            return idx
        out = []
        last = len(shape) - 1
        for k, s in enumerate(shape):
            if k == last:
                out.append(idx2crd(idx, s))
            else:
                idx, m = tdivmod(idx, product(s))
                out.append(idx2crd(m, s))
        return tuple(out)
    if type(shape) is tuple:
        if type(stride) is not tuple:
            stride = compact_major(shape, "left", stride)
        return tuple(idx2crd(idx, s, d) for s, d in zip(shape, stride))
    if type(shape) is int and shape == 1:
        return 0
    if type(stride) is int and stride == 0:
        raise CutepyError(f"idx2crd: a stride-0 mode of shape {shape} has no coordinate for an offset "
                          "(C++ divides by zero here)")
    return tdivmod(tdivmod(idx, stride)[0], shape)[1]


def compact_major(shape: IntTuple, major: str = "left", current: Any = 1) -> IntTuple:
    """C++'s ``compact_major``: compact strides, column-major (``"left"``) or row-major (``"right"``).

    Size-1 leaves get stride 0, as C++ gives them.

    >>> compact_major((4, 1, 2)), compact_major((2, (1, 3)), "right")
    ((1, 0, 4), (3, (0, 1)))
    """
    return _compact(shape, major, current)[0]


def _compact(shape: IntTuple, major: str, current: Any) -> tuple[IntTuple, Any]:
    if type(shape) is tuple:
        out = [None] * len(shape)
        order = range(len(shape)) if major == "left" else reversed(range(len(shape)))
        for k in order:
            out[k], current = _compact(shape[k], major, current)
        return tuple(out), current
    if type(shape) is int and shape == 1:  # as C++: a static 1 gets stride 0, a run-time 1 does not
        return 0, current
    if is_symbolic_leaf(shape) and shape == 1:  # a symbol is a static integer not yet known: the
        return 0, current  # same rule, decided from its facts (Undecided when it may be 1 or not)
    return current, current * shape


def compact_order_tuple(shape: IntTuple, order: IntTuple) -> IntTuple:
    """C++'s ``compact_order_tuple``: compact strides that grow in the order given by ``order``.

    ``order`` is weakly congruent to ``shape``; a mode's strides start at the product of
    the shapes of every mode of smaller order (equal orders start at the same stride, as
    in C++), and within a mode they are compact column-major.

    >>> compact_order_tuple((2, 2, 2, 2), (0, 2, 3, 1))
    (1, 4, 8, 2)
    """
    flat_order = flatten_tuple(order) if type(order) is tuple else (order,)
    ref_shape = flatten_tuple(_product_like(shape, order)) if type(order) is tuple else (product(shape),)
    if any(type(o) is DynamicInt for o in flat_order):
        # as C++: a run-time order comes after every static one, in its place in the flat order
        top = max([o for o in flat_order if type(o) is not DynamicInt and 0 < o] + [0])
        flat_order = tuple(top + 1 + k if type(o) is DynamicInt else o for k, o in enumerate(flat_order))
        order = unflatten_tuple(flat_order, order) if type(order) is tuple else flat_order[0]
    if all(type(o) is int for o in flat_order):
        # one sort instead of a scan per leaf: near-linear in the rank
        starts: dict[int, Any] = {}
        acc: Any = 1
        for o, s in sorted(zip(flat_order, ref_shape), key=lambda p: p[0]):
            if o not in starts:
                starts[o] = acc  # the product of every leaf of smaller order
            acc = acc * s
        return _compact_from(shape, order, starts)
    return _compact_order(shape, order, ref_shape, flat_order)


def _compact_from(shape: IntTuple, order: IntTuple, starts: dict) -> IntTuple:
    if type(order) is tuple:
        return tuple(_compact_from(s, o, starts) for s, o in zip(shape, order))
    return compact_major(shape, "left", starts[order])


def _product_like(shape: IntTuple, order: IntTuple) -> IntTuple:
    if type(order) is tuple:
        if type(shape) is not tuple or len(shape) != len(order):
            raise CutepyError(f"compact_order: order {order} does not match the shape {shape}")
        return tuple(_product_like(s, o) for s, o in zip(shape, order))
    return product(shape)


def _compact_order(shape: IntTuple, order: IntTuple, ref_shape: tuple, ref_order: tuple) -> IntTuple:
    if type(order) is tuple:
        return tuple(_compact_order(s, o, ref_shape, ref_order) for s, o in zip(shape, order))
    start = 1
    for s, o in zip(ref_shape, ref_order):
        if o < order:
            start = start * s
    return compact_major(shape, "left", start)


def filter_zeros_tuple(a: IntTuple, b: IntTuple | None = None) -> IntTuple:
    """``b`` (default ``a``) with 1 wherever ``a`` has a 0 leaf (C++'s ``filter_zeros_tuple(a, b)``).

    >>> filter_zeros_tuple((0, 2, (4, 0)), (3, 4, (5, 6)))
    (1, 4, (5, 1))
    """
    b = a if b is None else b
    if type(a) is tuple:
        return tuple(filter_zeros_tuple(x, y) for x, y in zip(a, b))
    return 1 if type(a) is int and a == 0 else b


def lift_slice(c: Any, t: Any, keep_wild: bool) -> tuple:
    """The leaves of ``t`` where ``c`` is (``keep_wild``) or is not (dice) the wildcard
    ``None``, concatenated flat as C++'s ``detail::lift_slice`` does.

    Pre:  ``c`` and ``t`` have the same rank wherever ``c`` is a tuple (else ``CutepyError``).

    >>> lift_slice((None, (1, None)), (3, (4, 5)), True), lift_slice((None, 2), (3, 4), False)
    ((3, 5), (4,))
    """
    if isinstance(c, (tuple, list)):
        if type(t) is not tuple or len(c) != len(t):
            raise CutepyError(f"slice coordinate {short_repr(c)} does not match {format_tuple(t)}")
        out: tuple = ()
        for ci, ti in zip(c, t):
            out += lift_slice(ci, ti, keep_wild)
        return out
    if (c is None) == keep_wild:
        return (t,)
    return ()


def slice_tuple(crd: Any, t: IntTuple) -> IntTuple:
    """C++'s ``slice(crd, IntTuple)``: the modes of ``t`` where ``crd`` has the wildcard ``None``.

    A tuple ``crd`` keeps those leaves, flat, in a tuple; ``None`` keeps ``t``; an integer
    keeps nothing (``()``).

    Pre:  as :func:`lift_slice`.
    Post: ``product(result) * product(dice_tuple(crd, t)) == product(t)``.

    >>> slice_tuple((None, 0), (3, 4)), slice_tuple(None, (3, 4)), slice_tuple(2, (3, 4))
    ((3,), (3, 4), ())
    """
    if isinstance(crd, (tuple, list)):
        return lift_slice(crd, t, True)
    return t if crd is None else ()


def dice_tuple(crd: Any, t: IntTuple) -> IntTuple:
    """C++'s ``dice(crd, IntTuple)``: the modes of ``t`` that ``crd`` fixes (not ``None``).

    Pre:  as :func:`lift_slice`.
    Post: the leaves of ``t`` where ``crd`` is not the wildcard, flat, in order.

    >>> dice_tuple((None, 0), (3, 4)), dice_tuple(None, (3, 4)), dice_tuple(2, (3, 4))
    ((4,), (), (3, 4))
    """
    if isinstance(crd, (tuple, list)):
        return lift_slice(crd, t, False)
    return () if crd is None else t


def wrap(t: Any) -> tuple:
    """C++'s ``wrap``: a non-tuple becomes a rank-1 tuple; a tuple stays.

    Pre:  none (any value).
    Post: a tuple; ``result == t`` when ``t`` is a tuple, else ``(t,)``.

    >>> wrap(4), wrap((4, 2))
    ((4,), (4, 2))
    """
    return t if type(t) is tuple else (t,)


def unwrap(t: Any) -> Any:
    """C++'s ``unwrap``: rank-1 tuples are unwrapped until a wider tuple or a leaf is left.

    Pre:  none (any value).
    Post: a leaf, ``()`` or a tuple of rank at least 2.

    >>> unwrap(((4,),)), unwrap(((4, 2),)), unwrap(())
    (4, (4, 2), ())
    """
    while type(t) is tuple and len(t) == 1:
        t = t[0]
    return t


def repeat_like_tuple(t: Any, x: Any) -> Any:
    """C++'s ``repeat_like_tuple``: ``x`` at every leaf of ``t``'s profile.

    Pre:  ``t`` is an IntTuple.
    Post: congruent with ``t``; every leaf is ``x``.

    >>> repeat_like_tuple((2, (3, 4)), 0)
    (0, (0, 0))
    """
    if type(t) is tuple:
        return tuple(repeat_like_tuple(a, x) for a in t)
    return x


def tuple_max(t: IntTuple) -> Any:
    """C++'s ``max`` of an IntTuple: its greatest leaf.

    Pre:  ``t`` has a leaf (C++ does not compile the max of ``()``; else ``CutepyError``).

    >>> tuple_max((2, (7, 4))), tuple_max(3)
    (7, 3)
    """
    leaves = flatten_tuple(t) if type(t) is tuple else (t,)
    if leaves == ():
        raise CutepyError("max of an empty tuple is undefined (C++ does not compile it)")
    return max(leaves)


def tuple_min(t: IntTuple) -> Any:
    """C++'s ``min`` of an IntTuple: its least leaf.

    Pre:  ``t`` has a leaf (else ``CutepyError``).

    >>> tuple_min((2, (7, 4)))
    2
    """
    leaves = flatten_tuple(t) if type(t) is tuple else (t,)
    if leaves == ():
        raise CutepyError("min of an empty tuple is undefined (C++ does not compile it)")
    return min(leaves)


def crd2crd(crd: IntTuple, src_shape: IntTuple, dst_shape: IntTuple) -> IntTuple:
    """A coordinate of ``src_shape`` re-expressed in ``dst_shape`` (C++'s ``crd2crd``).

    Where ``crd`` and both shapes are tuples the modes convert one by one; otherwise the
    coordinate becomes its index in ``src_shape`` and the index is split in ``dst_shape``
    (the last mode takes what is left, as :func:`idx2crd`).

    Pre:  where ``crd``, ``src_shape`` and ``dst_shape`` are all tuples they have the same rank
          (else ``CutepyError``, where C++ fails a static_assert); ``crd`` is a coordinate of
          ``src_shape``.
    Post: ``result == idx2crd(crd2idx(crd, src_shape), dst_shape)`` mode by mode; so
          ``crd2idx(result, dst_shape) == crd2idx(crd, src_shape)`` when the sizes agree.

    >>> crd2crd((1, 2), (4, 8), (4, (2, 4)))
    (1, (0, 1))
    >>> crd2crd(9, (4, 8), (8, 4)), crd2crd((1, 2), (4, 8), 32)
    ((1, 1), 9)
    """
    if type(crd) is tuple and type(src_shape) is tuple and type(dst_shape) is tuple:
        if not len(crd) == len(src_shape) == len(dst_shape):
            raise CutepyError(f"crd2crd: coordinate {short_repr(crd)}, source shape {short_repr(src_shape)} "
                              f"and destination shape {short_repr(dst_shape)} differ in rank")
        return tuple(crd2crd(c, s, d) for c, s, d in zip(crd, src_shape, dst_shape))
    return idx2crd(crd2idx(crd, src_shape), dst_shape)


def crd2idx(crd: IntTuple, shape: IntTuple, stride: IntTuple | None = None) -> Any:
    """Inner product of a coordinate (of any coarser profile) with ``stride``.

    The default stride is compact column-major, so ``crd2idx`` inverts :func:`idx2crd`.
    An integer coordinate into a tuple mode is split colexicographically; the last
    mode takes what is left, unwrapped, as in C++.

    Pre:  ``crd`` is weakly congruent with ``shape`` (else ``CutepyError``); ``stride`` is
          congruent with ``shape``.
    Post: ``result == inner_product(idx2crd(crd, shape), stride)``; with the default stride,
          ``crd2idx(idx2crd(i, shape), shape) == i``.

    >>> crd2idx((1, 2), (2, 3))
    5
    >>> crd2idx(5, (2, 3), (3, 1))
    5
    """
    if stride is None:
        stride = prefix_product(shape)
    if type(crd) is tuple:
        if type(shape) is not tuple or len(crd) != len(shape):
            raise CutepyError(f"coordinate {crd} does not match the shape {shape}")
        r = 0
        for c, s, d in zip(crd, shape, stride):
            r = r + crd2idx(c, s, d)
        return r
    if type(shape) is tuple:
        r = 0
        last = len(shape) - 1
        for k, (s, d) in enumerate(zip(shape, stride)):
            if k == last:
                r = r + crd2idx(crd, s, d)
            else:
                q, m = tdivmod(crd, product(s))
                r = r + crd2idx(m, s, d)
                crd = q
        return r
    if type(crd) is not int and not is_integer(crd):
        raise CutepyError(f"crd2idx: the coordinate {short_repr(crd)} is not an integer")
    if type(shape) is not int and not is_integer(shape):
        raise CutepyError(f"crd2idx: the shape {short_repr(shape)} is not an integer or a tuple of them")
    if type(stride) in (str, bytes, float, bool, list, dict):
        raise CutepyError(f"crd2idx: the stride {short_repr(stride)} is not an integer or a basis element")
    return crd * stride


def format_tuple(t: IntTuple, cxx: bool = False) -> str:
    """CuTe's text for an IntTuple: ``(a,(b,c))``, no spaces; the one tuple formatter.

    With ``cxx``, C++'s exact print: ``_N`` for a static integer, ``N`` for a dynamic one.

    >>> format_tuple((2, (3, 4))), format_tuple(5), format_tuple(())
    ('(2,(3,4))', '5', '()')
    >>> format_tuple((2, (3, -4)), cxx=True)
    '(_2,(_3,_-4))'
    """
    if type(t) is tuple:
        return "(" + ",".join([format_tuple(x, cxx) for x in t]) + ")"
    if cxx:
        return format_leaf_cxx(t)
    return str(t)


def static_text(text: str) -> str:
    """C++'s print of a value all of whose integers are static (a TiledMMA, a TiledCopy, an atom:
    C++ builds their layouts from types): ``_`` before every integer of ``text`` that stands alone
    (not a basis mode ``@0``, not part of a name or of ``32b``).

    >>> static_text("TiledLayout_TV: (256,4):(4,-1) ValueType: 32b E: 1@0")
    'TiledLayout_TV: (_256,_4):(_4,_-1) ValueType: 32b E: _1@0'
    """
    return re.sub(_STANDALONE_INT, r"_\1", text)


def format_value(value: Any, spec: str, cxx: Any) -> str:
    """``format(value, spec)`` for cutepy's values, the one ``__format__``: ``"cxx"`` gives
    ``cxx()`` (C++'s exact print), any other spec formats ``str(value)`` as a string; a spec
    that is neither raises ``CutepyError``.

    >>> format_value((2, 3), ">8", lambda: "(_2,_3)"), format_value((2, 3), "cxx", lambda: "(_2,_3)")
    ('  (2, 3)', '(_2,_3)')
    """
    if spec == "cxx":
        return cxx()
    try:
        return format(str(value), spec)
    except ValueError:
        raise CutepyError(f"format spec {spec!r}: cutepy's values take 'cxx' (C++'s exact print) "
                          "or a string format spec such as '>20'") from None


class StaticCxxFormat:
    """``format(x, "cxx")`` for objects whose integers are all static in C++ (atoms, TiledMMA,
    TiledCopy): ``static_text(str(x))``."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return format_value(self, spec, lambda: static_text(str(self)))


_STANDALONE_INT = r"(?<![\w@\[.])(-?\d+)(?![\w\]])"  # compiled (and cached) by re on first use


def format_leaf_cxx(x: Any) -> str:
    """One leaf as C++ prints it: ``_N`` for a static integer, ``N`` for a dynamic one, a basis
    element as ``value@mode``, ``_`` for the wildcard ``None``."""
    if type(x) is int:
        return f"_{x}"
    if x is None:
        return "_"
    if type(x) is Fraction:  # C++'s static ratio R<a,b> (a TMA coordinate): _a/_b
        return f"_{x.numerator}/_{x.denominator}"
    fmt = getattr(x, "format_cxx", None)
    if fmt is not None:
        return fmt()
    return str(x)


def is_integer(x: Any) -> bool:
    """Whether ``x`` is an integer leaf: an ``int``, a numpy integer or a symbolic integer.

    The one integer predicate of the core: symbolic integers (:class:`cutepy.symbolic.Sym`)
    register as :class:`numbers.Integral`, so the algebra needs no symbolic branch.

    >>> is_integer(3), is_integer(True), is_integer(2.0), is_integer((1, 2))
    (True, False, False, False)
    """
    return type(x) is int or (isinstance(x, Integral) and type(x) is not bool)


def tdivmod(a: Any, b: Any) -> tuple[Any, Any]:
    """C++'s ``divmod`` on integers: the quotient truncated toward zero, the rest with a's sign.

    A negative index splits into negated coordinates, so ``L(-i) == -L(i)`` as in C++.

    >>> tdivmod(7, 2), tdivmod(-7, 2)
    ((3, 1), (-3, -1))
    """
    if b == 0:
        raise CutepyError(f"division of {short_repr(a)} by a size-0 mode (a shape's sizes are positive)")
    if isinstance(a, int) and isinstance(b, int) and (a < 0) != (b < 0) and a % b:
        q = -(abs(a) // abs(b))
        return q, a - q * b
    return a // b, a % b


def is_symbolic_leaf(x: Any) -> bool:
    """Whether ``x`` is a symbolic integer: an ``Integral`` (not ``bool``) without ``__index__``
    (:class:`cutepy.symbolic.Sym`); the one test for it, so no layer asks about sympy.

    Pre:  none (any object).
    Post: ``True`` iff ``x`` is an ``Integral`` that is neither ``bool`` nor has ``__index__``.

    >>> is_symbolic_leaf(3), is_symbolic_leaf(True), is_symbolic_leaf(2.5)
    (False, False, False)
    """
    t = type(x)
    return t is not int and t is not bool and isinstance(x, Integral) and not hasattr(t, "__index__")


def format_tiler(t: Any) -> str:
    """A tiler as CuTe prints it: a tuple of layouts or sizes as ``<a, b>``, else the value.

    >>> format_tiler((4, (2, 3))), format_tiler(8)
    ('<4, <2, 3>>', '8')
    """
    if isinstance(t, tuple):
        return "<" + ", ".join([format_tiler(x) for x in t]) + ">"
    return str(t)
