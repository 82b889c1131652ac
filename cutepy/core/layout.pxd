# Read by Cython only (python -m cutepy.build, the optional compiled core): the layout value as
# a C-level class, so that its attributes are C fields (None until set) and its construction is
# cheap. Pure Python never reads this file; cutepy/core/layout.py is the value's definition.
from cutepy.core.kinds cimport LayoutKind

cdef class Layout(LayoutKind):
    cdef public object _shape, _stride, _hash, _memo, _flat, _size, _cosize
