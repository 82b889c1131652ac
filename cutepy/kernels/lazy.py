"""C++'s ``cute::lazy`` namespace, spelled ``cutepy.lazy``: ``cutepy.lazy.transform(t, fn)`` is
:func:`cutepy.lazy_transform` (a view of a tensor through a function, computed when read).

>>> import cutepy
>>> cutepy.lazy.transform(cutepy.make_identity_tensor(4), lambda c: c * 10)(3)
30
"""

from __future__ import annotations

from .tensor import lazy_transform as transform

#: C++'s name inside its namespace; cutepy exports the function as ``lazy_transform``
__all__ = ["transform"]
