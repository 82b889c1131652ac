# Read by Cython only (python -m cutepy.build): Layout's kind must be a C-level class for Layout
# to be one (cutepy/core/layout.pxd). Pure Python never reads this file.
cdef class Kind:
    pass

cdef class LayoutKind(Kind):
    pass
