"""The layout algebra: CuTe's operations on layouts, one module per family (layer 2).

A layout ``L = shape:stride`` is a function from coordinates to offsets,
``L(c) = sum(c_i * d_i)`` over the leaves, with a 1-D index split colexicographically
(leftmost mode fastest). The algebra builds new layouts from old ones, each operation a
short algorithm whose docstring states what the result satisfies (Pre/Post, as C++ CuTe's
``@post`` comments and C. Cecka's "CuTe Layout Representation and Algebra"):

>>> from cutepy import Layout, coalesce, complement, composition, logical_divide
>>> A = Layout((4, 2, 3), (2, 1, 8))          # 24 elements, strides interleaved
>>> T = Layout(4, 2)                          # a tile: every other element, 4 of them
>>> complement(T, 24)                         # what the tile leaves out, up to 24
(2,3):(1,8)
>>> logical_divide(A, T)                      # A o (T, complement(T)): (tile, rest)
((2,2),(2,3)):((4,1),(2,8))
>>> composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))
((2,2),3):((24,2),8)
>>> coalesce(Layout((2, (1, 6)), (1, (6, 2))))  # the same function, fewest modes
12:1

The families, bottom up (each imports only the ones before it):

- :mod:`.coalesce`: ``coalesce``, ``filter``: fewest modes, same function.
- :mod:`.composition`: ``A o B`` (``B`` a layout, a shape or a by-mode tiler): each leaf of
  ``B`` divides out and mods out the modes of ``coalesce_x(A)``; divisibility is checked
  where C++ would answer wrongly (``AdmissibilityError`` naming the mode).
- :mod:`.complement`: the layout filling the gaps of A's image up to a cotarget.
- :mod:`.inverse`: ``right_inverse``, ``left_inverse``, ``nullspace``, common vectors.
- :mod:`.divides`, :mod:`.products`: ``logical_divide(A, T) = A o (T, complement(T, |A|))``,
  ``logical_product(A, B) = (A, complement(A, |A| cosize(B)) o B)`` and their zipped,
  tiled, flat, blocked and raked forms.
- :mod:`.casting`: ``upcast``, ``downcast``, ``make_layout_like``, ``max_alignment``.
- :mod:`.composed`: the composed layout ``Sw o offset o L`` (the top of the algebra): C++'s
  overloads apply most operations to ``L`` and keep the swizzle; its variants are registered
  in each operation's table (:mod:`cutepy.core.kinds`).

How it relates to C++ CuTe and to Triton: the results equal CUTLASS 4.x's for static
integers, mode for mode (``tests/cxx`` compiles the C++ and compares); run-time integers
(:func:`cutepy.dynamic`) follow C++'s overloads. Where C++ returns a layout that breaks an
operation's post-condition, cutepy raises instead. Triton's linear layouts (``cutepy.linear``)
are the F2-linear subset of these functions (power-of-two shapes, XOR for addition), and a
swizzle ``Sw<B,M,S>`` is one of them.

Every operation also records its decisions while :func:`cutepy.explain` listens: each module
declares its steps (events and their words) beside its code.
"""
