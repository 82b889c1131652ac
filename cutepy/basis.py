"""Basis strides ``E(i)`` and the coordinate tuples they add up to.

CuTe's identity layouts map a coordinate to itself by using unit basis vectors as
strides: ``(4,8):(1@0,1@1)`` sends ``(i, j)`` to the coordinate ``(i, j)``.

>>> E(1) * 3
3@1
>>> 2 * E(0) + 3 * E(1)
(2,3)
>>> E(1, 0)
1@0@1
"""

from __future__ import annotations

from typing import Any


class ArithTuple(tuple):
    """A coordinate tuple that adds leafwise (CuTe's ``ArithmeticTuple``)."""

    __slots__ = ()

    def __add__(self, other: Any) -> ArithTuple:  # type: ignore[override]
        if isinstance(other, ScaledBasis):
            other = other.as_tuple()
        elif not isinstance(other, tuple):
            if other == 0:
                return self
            return NotImplemented
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
    return x + y


def _mul(x: Any, k: Any) -> Any:
    if isinstance(x, tuple):
        return ArithTuple(_mul(v, k) for v in x)
    return x * k


class ScaledBasis:
    """``value @ mode``: the integer ``value`` times the unit vector of ``mode`` (a path).

    ``mode`` is a tuple path from the outermost index: ``E(1, 0)`` is the unit vector of
    sub-mode 0 of mode 1, printed innermost index first as in C++ (``1@0@1``).
    """

    __slots__ = ("value", "mode")

    def __init__(self, value: Any, mode: tuple[int, ...]):
        self.value = value
        self.mode = tuple(mode)

    def __mul__(self, k: Any) -> ScaledBasis:
        if isinstance(k, ScaledBasis):
            return NotImplemented
        return ScaledBasis(self.value * k, self.mode)

    __rmul__ = __mul__

    def __floordiv__(self, k: Any) -> ScaledBasis:
        return ScaledBasis(self.value // k, self.mode)

    def __neg__(self) -> ScaledBasis:
        return ScaledBasis(-self.value, self.mode)

    def __abs__(self) -> ScaledBasis:
        return ScaledBasis(abs(self.value), self.mode)

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


def E(*mode: int) -> ScaledBasis:
    """The unit basis stride of ``mode``: ``E(0)`` is ``1@0``, ``E(1, 0)`` is ``1@0@1``."""
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
