"""numpy where it is installed, and where it is not (Pyodide's npm package, the docs playground)
a stand-in whose every use raises :class:`~cutepy.CutepyError` naming what needs numpy.

The XLA path a shape takes to its CuTe layout, its report and its picture is integer arithmetic
and runs without numpy (``cutepy.xla``'s numpy-free path); whole-array tables (``linear_indices``,
``offsets``, ``pack``) need numpy.

>>> numpy_or_stub().__name__ in ("numpy", "numpy (not installed)")
True
"""

from __future__ import annotations

from typing import Any

from .errors import CutepyError


class _NoNumpy:
    """The stand-in for a missing numpy: any attribute raises CutepyError."""

    __name__ = "numpy (not installed)"

    def __getattr__(self, name: str) -> Any:
        raise CutepyError(f"numpy is not installed, and this needs numpy.{name} (without numpy, cutepy.xla "
                          "parses shapes, compiles them to CuTe (to_cute), reports and draws them)")

    def __bool__(self) -> bool:
        return False


def numpy_or_stub() -> Any:
    """The numpy module, or a falsy stand-in (``if not np:``) whose attributes raise CutepyError."""
    try:
        import numpy  # lazy: optional (Pyodide has none); the caller keeps the module
    except ImportError:
        return _NoNumpy()
    return numpy


#: what cutepy exports from this module (nothing: the modules that use numpy call numpy_or_stub)
__all__: list[str] = []
