"""Code that builds cutepy's values in C++ CuTe (:func:`cpp`) and in the CuTe DSL (:func:`dsl`)."""

from .cpp import cpp, cpp_collective
from .dsl import dsl

__all__ = ["cpp", "cpp_collective", "dsl"]
