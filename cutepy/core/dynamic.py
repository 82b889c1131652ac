"""Run-time integers: C++ CuTe's ``int`` beside its static ``Int<N>`` (the CuTe DSL's dynamic values).

A plain Python ``int`` is static, as in the CuTe DSL: C++'s ``Int<N>``. :func:`dynamic` marks an
integer as known only at run time, C++'s ``int``: a :class:`DynamicInt`, an ``int`` whose value
is the same, so every formula computes the same numbers. Arithmetic follows C++'s overloads
(cute/numeric/integral_constant.hpp): a result is dynamic when an operand is, except where C++
keeps a static zero (``_0 * x``, ``x * _0``, ``_0 / x``, ``_0 % x``, ``x % _1``, ``x % _-1``,
``_0 & x``, ``x & _0``). The algebra reads static-ness where C++ does (a dynamic ``1`` is not
dropped by ``coalesce``, modes merge only when their strides are statically equal), so results
keep the modes C++ keeps; ``format(L, "cxx")`` prints ``_N`` for static and ``N`` for dynamic.

>>> m = dynamic(5120)
>>> m, m * 2, type(m * 2).__name__, type(m * 0).__name__, type(m % 1).__name__
(5120, 10240, 'DynamicInt', 'int', 'int')
>>> is_static_int(m), is_static_int(5120)
(False, True)
"""

from __future__ import annotations

from typing import Any

from .basis import ScaledBasis
from .errors import CutepyError


def _int(x: Any) -> Any:
    """``x`` as the operand of an operation with a DynamicInt: an ``int`` (static or dynamic),
    else ``None`` (the operation then answers NotImplemented)."""
    return x if isinstance(x, int) and type(x) is not bool else None


class DynamicInt(int):
    """An integer known only at run time (C++'s ``int`` in a CuTe shape or stride, the DSL's
    dynamic ``Int32``). Its value is an ordinary ``int``'s; arithmetic with it is dynamic except
    for C++'s static-zero rules. ``str`` is the plain number; ``format(x, "cxx")`` too.

    Pre:  built by :func:`dynamic` from an integer.
    Post: ``int(DynamicInt(n)) == n``; compares and hashes as ``n``.

    >>> DynamicInt(3) + 4, type(DynamicInt(3) + 4).__name__
    (7, 'DynamicInt')
    """

    __slots__ = ()

    def __reduce__(self):
        return (DynamicInt, (int(self),))

    def __repr__(self) -> str:
        return int.__repr__(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return int.__repr__(self) if spec == "cxx" else int.__format__(int(self), spec)

    # -- arithmetic: dynamic unless C++ keeps a static zero ---------------------------------------
    def __add__(self, o):
        return DynamicInt(int(self) + o) if _int(o) is not None else NotImplemented

    __radd__ = __add__

    def __sub__(self, o):
        return DynamicInt(int(self) - o) if _int(o) is not None else NotImplemented

    def __rsub__(self, o):
        return DynamicInt(o - int(self)) if _int(o) is not None else NotImplemented

    def __mul__(self, o):
        if _int(o) is None:
            return NotImplemented
        if type(o) is int and o == 0:  # C++: x * _0 is _0
            return 0
        return DynamicInt(int(self) * o)

    __rmul__ = __mul__

    def __floordiv__(self, o):
        return DynamicInt(int(self) // o) if _int(o) is not None else NotImplemented

    def __rfloordiv__(self, o):
        if _int(o) is None:
            return NotImplemented
        if type(o) is int and o == 0:  # C++: _0 / x is _0
            return 0
        return DynamicInt(o // int(self))

    def __mod__(self, o):
        if _int(o) is None:
            return NotImplemented
        if type(o) is int and o in (1, -1):  # C++: x % _1 is _0
            return 0
        return DynamicInt(int(self) % o)

    def __rmod__(self, o):
        if _int(o) is None:
            return NotImplemented
        if type(o) is int and o == 0:  # C++: _0 % x is _0
            return 0
        return DynamicInt(o % int(self))

    def __divmod__(self, o):
        return (self // o, self % o) if _int(o) is not None else NotImplemented

    def __rdivmod__(self, o):
        return (o // self, o % self) if _int(o) is not None else NotImplemented

    def __and__(self, o):
        if _int(o) is None:
            return NotImplemented
        if type(o) is int and o == 0:  # C++: x & _0 is _0
            return 0
        return DynamicInt(int(self) & o)

    __rand__ = __and__

    def __or__(self, o):
        return DynamicInt(int(self) | o) if _int(o) is not None else NotImplemented

    __ror__ = __or__

    def __xor__(self, o):
        return DynamicInt(int(self) ^ o) if _int(o) is not None else NotImplemented

    __rxor__ = __xor__

    def __lshift__(self, o):
        return DynamicInt(int(self) << o) if _int(o) is not None else NotImplemented

    def __rlshift__(self, o):
        return DynamicInt(o << int(self)) if _int(o) is not None else NotImplemented

    def __rshift__(self, o):
        return DynamicInt(int(self) >> o) if _int(o) is not None else NotImplemented

    def __rrshift__(self, o):
        return DynamicInt(o >> int(self)) if _int(o) is not None else NotImplemented

    def __pow__(self, o, mod=None):
        return DynamicInt(pow(int(self), o, mod)) if _int(o) is not None else NotImplemented

    def __neg__(self):
        return DynamicInt(-int(self))

    def __pos__(self):
        return self

    def __abs__(self):
        return DynamicInt(abs(int(self)))

    def __invert__(self):
        return DynamicInt(~int(self))


def dynamic(x: Any) -> Any:
    """``x`` marked as a run-time value (C++ ``int`` rather than ``Int<N>``; the DSL's dynamic
    integers): an integer becomes a :class:`DynamicInt`, a tuple is marked leaf by leaf.

    Pre:  ``x`` is an integer or a nested tuple (or list) of integers (else ``CutepyError``).
    Post: the same values; :func:`cutepy.is_static` of the result is ``False`` (``True`` for ``()``).

    >>> dynamic((4, (2, 8)))
    (4, (2, 8))
    >>> from cutepy import Layout
    >>> format(Layout((dynamic(4), 8)), "cxx")
    '(4,_8):(_1,4)'
    """
    if isinstance(x, (tuple, list)):
        return tuple(dynamic(y) for y in x)
    if isinstance(x, int) and type(x) is not bool:
        if not -(1 << 63) <= x < 1 << 63:  # C++'s run-time integers are 64 bits at most
            raise CutepyError(f"dynamic: an integer of {x.bit_length()} bits is not a 64-bit integer")
        return x if type(x) is DynamicInt else DynamicInt(x)
    index = getattr(type(x), "__index__", None)
    if index is not None and type(x) is not bool:
        try:
            return dynamic(index(x))
        except TypeError:  # a numpy array of several values, or a float array
            pass
    text = repr(x) if len(repr(x)) < 200 else repr(x)[:197] + "..."
    raise CutepyError(f"dynamic: {text} is not an integer or a tuple of integers")


def is_static_int(x: Any) -> bool:
    """Whether an integer leaf is static (a plain ``int``, C++'s ``Int<N>``); a
    :class:`DynamicInt` or a symbolic integer is not.

    >>> is_static_int(4), is_static_int(dynamic(4))
    (True, False)
    """
    t = type(x)
    if t is int:
        return True
    if t is DynamicInt:
        return False
    return hasattr(t, "__index__")  # numpy integers are values given in the program text


def static_eq(a: Any, b: Any) -> bool:
    """C++'s ``is_constant<true, decltype(a == b)>``: both static and equal (basis elements: the
    same mode and statically equal values).

    >>> static_eq(4, 4), static_eq(dynamic(4), 4)
    (True, False)
    """
    if type(a) is int and type(b) is int:
        return a == b
    ma, mb = getattr(a, "mode", None), getattr(b, "mode", None)
    if ma is not None and mb is not None:
        return ma == mb and static_eq(a.value, b.value)
    return False


def has_dynamic(fs: Any, fd: Any = ()) -> bool:
    """Whether the flat leaves ``fs`` (or ``fd``) hold a :class:`DynamicInt` (a basis element's
    value too): the one test that sends an algorithm off its static fast path."""
    for x in fs:
        if type(x) is not int and _dynamic_leaf(x):
            return True
    for x in fd:
        if type(x) is not int and _dynamic_leaf(x):
            return True
    return False


def _dynamic_leaf(x: Any) -> bool:
    t = type(x)
    return t is DynamicInt or (t is ScaledBasis and type(x.value) is DynamicInt)


#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = ["DynamicInt", "dynamic"]
