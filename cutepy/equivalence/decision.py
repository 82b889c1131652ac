"""``equivalent(A, B)``: are two layouts the same function on the same domain?

Decided by normal forms (see :mod:`cutepy.equivalence.normal_form`), in time that
depends on the rank and not on the size. The answer is truthy or falsy and carries a
proof (the normal forms and the steps that made them) or a counterexample (an
index, its coordinates, and both offsets).

>>> from cutepy import Layout
>>> r = equivalent(Layout(((2, 2), 3), ((1, 2), 4)), Layout(12, 1))
>>> bool(r), r.check()
(True, True)
>>> r = equivalent(Layout((4, 3), (3, 1)), Layout(12, 1))
>>> bool(r), r.counterexample.index, r.counterexample.offset_a, r.counterexample.offset_b
(False, 1, 3, 1)
>>> print(r.counterexample.text())
at index 1 (coordinate (1,0) in A, 1 in B): A gives 3, B gives 1

Options: ``by="modes"`` compares as functions of the top-level mode coordinates (the
modes must have the same sizes); ``domain=(3, 5)`` compares only on those leading
extents of each mode (the logical region of a padded XLA layout); ``by="coordinate"``
compares as functions of natural coordinates, which needs the same shape leaves in
any nesting. Swizzled layouts are compared exactly; symbolic layouts are proved for
every assignment that satisfies the declared facts (see :mod:`.symbolic`).

>>> A = Layout(((2, 2), (2, 3)), ((2, 12), (1, 4)))
>>> B = Layout(((2, 2), (2, 3)), ((2, 12), (1, 5)))
>>> bool(equivalent(A, B, domain=(3, 2))), bool(equivalent(A, B, domain=(3, 3)))
(True, False)
"""

from __future__ import annotations

from typing import Any

from ..algebra.composed import is_layout
from ..core.layout import as_layout
from ..core.lazy import load
from ..symbolic import is_symbolic
from .concrete import decide_concrete
from .verdict import Equivalence

#: the symbolic prover (it loads sympy), on first use
_symbolic = load("cutepy.equivalence.symbolic")


def _prepare(x: Any) -> Any:
    if is_layout(x) or callable(x) and not isinstance(x, str):
        return x
    return as_layout(x)  # a shape stands for its compact layout; text is read by cutepy.parse


def equivalent(A: Any, B: Any, *, by: str = "index", domain: Any = None) -> Equivalence:
    """Whether ``A`` and ``B`` are the same function on the same domain (see the module doc).

    Pre:  ``A`` and ``B`` are layouts, composed (swizzled) layouts, shapes (compact
          layouts), or zero-argument functions that build a layout (for symbolic
          identities: the prover calls them again in each case it splits into);
          ``by`` is ``"index"``, ``"modes"`` or ``"coordinate"``.
    Post: an :class:`Equivalence`, truthy exactly when they are the same function on the
          compared domain; ``.check()`` re-checks its proof or counterexample.

    >>> from cutepy import Layout
    >>> bool(equivalent(Layout(((2, 2), 3), ((1, 2), 4)), Layout(12, 1)))
    True
    >>> equivalent(Layout((4, 3), (3, 1)), Layout(12, 1)).counterexample.text()
    'at index 1 (coordinate (1,0) in A, 1 in B): A gives 3, B gives 1'
    """
    A, B = _prepare(A), _prepare(B)
    if isinstance(domain, (tuple, list)):
        domain = tuple(domain)
        by = "modes" if by == "index" else by
    thunk = _is_thunk(A) or _is_thunk(B)
    if thunk or is_symbolic(A) or is_symbolic(B):
        return _symbolic.prove(A, B, by, domain)
    return decide_concrete(A, B, by, domain)


def _is_thunk(x: Any) -> bool:
    return not is_layout(x) and callable(x)
