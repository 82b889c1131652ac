"""Expressions as text: ``//``, ``%`` and ``ceil`` spelled as in Python.

>>> import sympy
>>> M = sympy.Symbol("M", integer=True)
>>> to_str(sympy.floor(M / 8) + 1), to_str(sympy.Mod(M + 4, 8)), to_str(sympy.ceiling(M / 4))
('(M // 8) + 1', '(M + 4) % 8', 'ceil(M/4)')
"""

from __future__ import annotations

from typing import Any

import sympy
from sympy.printing.precedence import PRECEDENCE
from sympy.printing.str import StrPrinter


class _Printer(StrPrinter):
    """Python-style ``//`` and ``%`` for the floor and Mod atoms."""

    def _operand(self, x: Any) -> str:
        return self.parenthesize(x, PRECEDENCE["Mul"], strict=True)

    def _print_Mod(self, e: Any) -> str:
        a, b = e.args
        return f"({self._operand(a)} % {self._operand(b)})"

    def _print_ceiling(self, e: Any) -> str:
        return f"ceil({self._print(e.args[0])})"

    def _print_floor(self, e: Any) -> str:
        num, den = sympy.fraction(sympy.together(e.args[0]))
        if den == 1:
            return f"floor({self._print(num)})"
        return f"({self._operand(num)} // {self._operand(den)})"


_PRINTER = _Printer()


def to_str(expr: Any) -> str:
    """An expression as text, ``//`` and ``%`` in Python's spelling.

    >>> M = sympy.Symbol("M", integer=True)
    >>> to_str(sympy.floor(M / 8) + 1), to_str(sympy.Mod(M, 8))
    ('(M // 8) + 1', 'M % 8')
    """
    s = _PRINTER.doprint(expr)
    if s.startswith("(") and _matching(s) == len(s) - 1:
        s = s[1:-1]
    return s


def _matching(s: str) -> int:
    depth = 0
    for i, ch in enumerate(s):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return i
    return -1
