"""Code that builds cutepy's values in C++ CuTe (:func:`cpp`) and in the CuTe DSL (:func:`dsl`).

Layer 5 (the edge): text out. :mod:`.tma` writes ``make_tma_copy`` / ``make_tma_atom`` calls.
"""

from .cpp import cpp, cpp_collective
from .dsl import dsl

__all__ = ["cpp", "cpp_collective", "dsl"]
