"""Basis strides ``E(i)`` and the coordinate tuples they add up to.

CuTe's identity layouts map a coordinate to itself by using unit basis vectors as
strides: ``(4,8):(1@0,1@1)`` sends ``(i, j)`` to the coordinate ``(i, j)``.

>>> E(1) * 3
3@1
>>> 2 * E(0) + 3 * E(1)
(2,3)
>>> E(1, 0)
1@0@1

Limits: a mode index is at most :data:`MAX_MODE` and a mode path at most
:data:`MAX_PATH` long (a basis element stands for a coordinate tuple of that many
entries); mixing an integer with a basis coordinate is a :class:`CutepyError`.

>>> E(1) + 3
Traceback (most recent call last):
...
cutepy.CutepyError: cannot add 3 to the coordinate (0,1): integer and basis strides do not mix
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .errors import CutepyError

#: The largest mode index of a basis element (``E(MAX_MODE)`` is a tuple of 1025 entries).
MAX_MODE = 1024
#: The longest mode path of a basis element (``E(1, 0)`` has a path of length 2).
MAX_PATH = 64


class ArithTuple(tuple):
    """A coordinate tuple that adds leafwise (CuTe's ``ArithmeticTuple``)."""

    __slots__ = ()

    def __add__(self, other: Any) -> ArithTuple:  # type: ignore[override]
        if isinstance(other, ScaledBasis):
            other = other.as_tuple()
        elif not isinstance(other, tuple):
            if type(other) is not bool and other == 0:
                return self
            raise CutepyError(
                f"cannot add {other!r} to the coordinate {self}: integer and basis strides do not mix"
            )
        n = max(len(self), len(other))
        a = tuple(self) + (0,) * (n - len(self))
        b = tuple(other) + (0,) * (n - len(other))
        return ArithTuple(_add(x, y) for x, y in zip(a, b))

    __radd__ = __add__

    def __mul__(self, k: Any) -> ArithTuple:  # type: ignore[override]
        return ArithTuple(_mul(x, k) for x in self)

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return "(" + ",".join(str(x) for x in self) + ")"

    __str__ = __repr__


def _add(x: Any, y: Any) -> Any:
    if isinstance(x, tuple) or isinstance(y, tuple):
        x = x if isinstance(x, tuple) else (x,)
        y = y if isinstance(y, tuple) else (y,)
        return ArithTuple(x) + ArithTuple(y)
    r = x + y
    return int(r) if type(r) is Fraction and r.denominator == 1 else r  # C++: a whole R<n,1> is C<n>


def _mul(x: Any, k: Any) -> Any:
    if isinstance(x, tuple):
        return ArithTuple(_mul(v, k) for v in x)
    return ratio_mul(x, k) if type(x) is Fraction else x * k


def ratio_mul(r: Fraction, k: Any) -> Any:
    """``r * k`` for a static ratio ``r`` (C++'s ``R<a,b>``: the TMA stride ``1/2@0`` of an internal
    type wider than the element) as C++ computes it: times a static integer a static ratio, a whole
    one the integer (``R<a*k,b>::type``); times a run-time ``int`` C++'s integer arithmetic
    ``k * a / b``, truncated, run-time.

    Pre:  ``r`` a ``Fraction``; ``k`` an integer (static ``int``, run-time ``DynamicInt``, symbol).
    Post: a ``Fraction`` only where the static product is not whole; else an integer of ``k``'s kind.

    >>> from cutepy.core.dynamic import dynamic
    >>> ratio_mul(Fraction(1, 2), 3), ratio_mul(Fraction(1, 2), 4), ratio_mul(Fraction(1, 2), dynamic(3))
    (Fraction(3, 2), 2, 1)
    """
    if type(k) is int or type(k) is Fraction:
        v = r * k
        return int(v) if v.denominator == 1 else v
    if isinstance(k, int) and type(k) is not bool:  # a run-time int (DynamicInt)
        n = int(k) * r.numerator
        q = abs(n) // r.denominator  # C++'s int division truncates toward zero
        return type(k)(q if n >= 0 else -q)
    return r * k


class ScaledBasis:
    """``value @ mode``: the integer ``value`` times the unit vector of ``mode`` (a path).

    ``mode`` is a tuple path from the outermost index: ``E(1, 0)`` is the unit vector of
    sub-mode 0 of mode 1, printed innermost index first as in C++ (``1@0@1``).

    >>> ScaledBasis(3, (1,)), ScaledBasis(2, (1, 0))
    (3@1, 2@0@1)
    """

    __slots__ = ("value", "mode")

    def __init__(self, value: Any, mode: tuple[int, ...]):
        """Pre: ``value`` an integer (or symbol); ``mode`` a path of at most :data:`MAX_PATH`
        integers in ``[0, MAX_MODE]``. Else a :class:`CutepyError` naming the part."""
        if isinstance(value, (bool, float, complex, str, bytes, tuple, list, ScaledBasis)):
            raise CutepyError(f"a basis element scales an integer, got {value!r}")
        try:
            mode = tuple(mode)
        except TypeError:
            raise CutepyError(f"a basis mode is a tuple of integers, got {mode!r}") from None
        if len(mode) > MAX_PATH:
            raise CutepyError(f"a basis mode path has {len(mode)} entries, above the limit {MAX_PATH}")
        for m in mode:
            if type(m) is not int or not 0 <= m <= MAX_MODE:
                raise CutepyError(
                    f"a basis mode index must be an integer in [0, {MAX_MODE}], got {m!r}"
                )
        self.value = value
        self.mode = mode

    @classmethod
    def _new(cls, value: Any, mode: tuple[int, ...]) -> ScaledBasis:
        """Trusted constructor for results of arithmetic on valid elements: no checks."""
        self = object.__new__(cls)
        self.value = value
        self.mode = mode
        return self

    def __mul__(self, k: Any) -> ScaledBasis:
        if isinstance(k, (ScaledBasis, tuple)):
            raise CutepyError(f"cannot multiply the basis element {self} by {k}")
        if isinstance(k, (bool, float, complex, str, bytes, list)):
            raise CutepyError(f"a basis element scales by an integer, got {k!r}")
        v = self.value
        return ScaledBasis._new(ratio_mul(v, k) if type(v) is Fraction else v * k, self.mode)

    __rmul__ = __mul__

    def __floordiv__(self, k: Any) -> ScaledBasis:
        if isinstance(k, ScaledBasis) or k == 0:
            raise CutepyError(f"cannot divide the basis element {self} by {k}")
        return ScaledBasis._new(self.value // k, self.mode)

    def __neg__(self) -> ScaledBasis:
        return ScaledBasis._new(-self.value, self.mode)

    def __abs__(self) -> ScaledBasis:
        return ScaledBasis._new(abs(self.value), self.mode)

    def as_tuple(self) -> ArithTuple:
        """The coordinate this basis element stands for, e.g. ``E(1)*3 -> (0,3)``."""
        v: Any = self.value
        for m in reversed(self.mode):
            v = ArithTuple((0,) * m + (v,))
        return v

    def __add__(self, other: Any) -> Any:
        return self.as_tuple() + other

    __radd__ = __add__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ScaledBasis):
            return self.mode == other.mode and self.value == other.value
        return False

    def __hash__(self) -> int:
        return hash((ScaledBasis, self.value, self.mode))

    def __repr__(self) -> str:
        return f"{self.value}" + "".join(f"@{m}" for m in reversed(self.mode))

    __str__ = __repr__

    def format_cxx(self) -> str:
        """C++'s print: the value as a static (``_1``) or dynamic integer, then ``@mode``."""
        v = self.value
        if type(v) is Fraction:  # C++'s static ratio R<a,b> prints _a/_b
            head = f"_{v.numerator}/_{v.denominator}"
        else:
            head = f"_{v}" if type(v) is int else format(v, "cxx") if isinstance(v, int) else str(v)
        return head + "".join(f"@{m}" for m in reversed(self.mode))


def E(*mode: int) -> ScaledBasis:
    """The unit basis stride of ``mode``: ``E(0)`` is ``1@0``, ``E(1, 0)`` is ``1@0@1``.

    Pre:  ``mode`` is a path of integers in ``[0, 1024]`` (else ``CutepyError``).
    Post: ``ScaledBasis(1, mode)``; ``k * E(i)`` is ``k@i``, the stride of coordinate mode ``i``.

    >>> E(0), E(1, 0), 3 * E(1)
    (1@0, 1@0@1, 3@1)
    """
    return ScaledBasis(1, mode)


def basis_like(shape: Any, path: tuple[int, ...] = ()) -> Any:
    """Strides of CuTe's ``make_basis_like``: one unit basis per leaf of ``shape``.

    >>> basis_like((4, (2, 3)))
    (1@0, (1@0@1, 1@1@1))
    >>> basis_like(8)
    1
    """
    if isinstance(shape, tuple):
        return tuple(basis_like(s, path + (i,)) for i, s in enumerate(shape))
    return ScaledBasis(1, path) if path else 1

#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "E", "ScaledBasis",
]
