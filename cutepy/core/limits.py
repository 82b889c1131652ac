"""The documented limits on work per call, and how to raise them.

Anything that allocates or draws per element checks its size against a limit first and
raises a :class:`~cutepy.CutepyError` naming it, before allocating. A limit is
raised per call (``offsets(..., max_elements=n)``) or for a block of code in this context
only (``with cutepy.limits(max_elements=n):``), never globally: it lives in a
:mod:`contextvars` variable, so other threads and tasks keep theirs. ``docs/limits.md``
lists every limit.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from .errors import CutepyError

#: Default bound on the number of elements a whole-domain table may hold (2 GiB of int64).
DEFAULT_MAX_ELEMENTS = 1 << 28

_max_elements: ContextVar[int] = ContextVar("cutepy_max_elements", default=DEFAULT_MAX_ELEMENTS)

def max_elements() -> int:
    """The element limit in force in this context (thread / task).

    >>> max_elements() == DEFAULT_MAX_ELEMENTS
    True
    """
    return _max_elements.get()


@contextmanager
def limits(*, max_elements: int | None = None) -> Iterator[None]:
    """Raise (or lower) the whole-domain element limit inside a ``with`` block.

    Pre:  ``max_elements`` is a positive integer (or ``None``: unchanged).
    Post: the limit is restored on exit; other threads and tasks never see the change
          (it lives in a :mod:`contextvars` variable).

    >>> from cutepy import Layout
    >>> with limits(max_elements=1 << 30):
    ...     max_elements()
    1073741824
    """
    if max_elements is None:
        yield
        return
    _check_limit(max_elements)
    token = _max_elements.set(max_elements)
    try:
        yield
    finally:
        _max_elements.reset(token)


def show_int(n: int) -> str:
    """``n`` as a message prints it: decimal up to 40 digits, else as a power of two
    (``2**15000``, or ``about 2**k`` when it is not one), so a message never meets Python's
    4300-digit limit on printing integers.

    >>> show_int(4096), show_int(2**15000), show_int(3 * 2**200)
    ('4096', '2**15000', 'about 2**201')
    """
    if type(n) is not int or n.bit_length() <= 128:
        return str(n)
    m = abs(n)
    sign = "-" if n < 0 else ""
    if m & (m - 1) == 0:
        return f"{sign}2**{m.bit_length() - 1}"
    k = m.bit_length() - 1
    return f"{sign}about 2**{k + (m - (1 << k) > (1 << k) // 2)}"


def _check_limit(limit: Any) -> None:
    if type(limit) is not int or limit < 1:
        raise CutepyError(f"max_elements must be a positive integer, got {limit!r}")

#: what cutepy exports from this module (cutepy.__all__ is made of these lists)
__all__ = [
    "limits",
]
