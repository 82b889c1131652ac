"""Symbolic leaves (sympy) in layouts: validation of the leaves themselves.

sympy is imported here only, and only when a symbolic leaf is met, so that plain
integer work never pays for it.
"""

from __future__ import annotations

from typing import Any

from .errors import LayoutError


def symbolic_leaf(x: Any, what: str, positive: bool) -> Any:
    """Check a sympy leaf: an integer expression (a positive one for shapes)."""
    if getattr(x, "is_Integer", False):
        v = int(x)
        if positive and v < 1:
            raise LayoutError(f"{what} has a leaf {v}; shape leaves must be positive integers")
        return v
    if getattr(x, "is_integer", None) is False:
        raise LayoutError(f"{what} has a leaf {x} that is not an integer expression")
    if positive and getattr(x, "is_positive", None) is False:
        raise LayoutError(f"{what} has a leaf {x} that is not positive")
    return x
