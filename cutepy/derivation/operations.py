"""The operations ``explain`` can run, by name: the algebra's functions, imported directly.

>>> operation("complement").__module__
'cutepy.algebra.complement'
>>> operation("no_such_op")
Traceback (most recent call last):
...
cutepy.CutepyError: explain: cutepy has no operation 'no_such_op'
"""

from __future__ import annotations

from collections.abc import Callable

from ..algebra import casting, coalesce, complement, composition, divides, inverse, products
from ..core import layout
from ..core.errors import CutepyError

#: every operation ``explain`` knows, by its name: the functions the layout and the algebra
#: export (their modules' ``__all__``); those without an explainer are "computed directly"
OPERATIONS: dict[str, Callable] = {
    name: fn
    for module in (coalesce, complement, composition, divides, products, inverse, casting, layout)
    for name in module.__all__
    # a function, compiled (python -m cutepy.build) or not: what has a __name__ and a __call__
    if callable(fn := getattr(module, name)) and not isinstance(fn, type) and hasattr(fn, "__name__")
}


def operation(name: str) -> Callable:
    """The operation called ``name`` (else :class:`~cutepy.CutepyError`)."""
    fn = OPERATIONS.get(name)
    if fn is None:
        raise CutepyError(f"explain: cutepy has no operation {name!r}")
    return fn
