"""Triton's linear layouts beside CuTe's: Gluon specs in, CuTe layouts out and back, swizzles over F2.

Layer 3 (engines): a formalism of its own, compiled to and from CuTe layouts.

**The idea.** A linear layout (Triton's ``LinearLayout.h``) is a map over F2 = {0, 1}: each
input (``register``, ``lane``, ``warp``, ``block`` for a distributed tensor; ``offset``,
``block`` for shared memory) is read as bits, each bit has a *basis* (an output coordinate),
and an input goes to the XOR of the bases of its set bits. Composition, inversion and
"which bits collide" are then linear algebra over F2:

>>> from cutepy.linear import LinearLayout, from_cute, to_cute
>>> L = LinearLayout({"register": [[0, 1], [1, 0]], "lane": [[2, 0]]}, [("dim0", 4), ("dim1", 2)])
>>> L(register=1), L(register=2), L(lane=1)       # the bases
((0, 1), (1, 0), (2, 0))
>>> L(register=3, lane=1)                          # (0,1) ^ (1,0) ^ (2,0)
(3, 1)

**Beside CuTe.** A CuTe layout whose modes have power-of-two sizes with disjoint bits is the
same kind of map (there ``+`` and XOR agree), and a swizzle ``Sw<B,M,S>`` is F2-linear, so
the two formalisms meet on exactly those layouts. ``to_cute`` writes the map above as a
thread-value layout ``(lane, register) -> dim0 + 4*dim1``; a swizzle read back sends bit 2 to
``4 ^ 1`` and bit 3 to ``8 ^ 2``:

>>> to_cute(L)
(2,(2,2)):(2,(4,1))
>>> from cutepy import Swizzle
>>> from_cute(Swizzle(2, 0, 2)).bases
{'offset': [[1], [2], [5], [10]]}

Outside the meet, each says so: CuTe's non-power-of-two shapes and strides that carry have
no F2 form (``from_cute`` refuses them with the reason), and a Triton map that no
``Sw o offset o layout`` expresses (a broadcast block holding one element at several
offsets, or XORs that are no swizzle) is refused by ``to_cute`` naming the basis.

**What is here.**
- :class:`LinearLayout`: Triton's F2-linear map from named inputs (``register, lane, warp,
  block`` or ``offset, block``) to named outputs (``dim0, dim1, ...``), with Triton's flags,
  ``invert``, ``pseudo_invert`` and ``compose``.
- :func:`from_gluon`: the LinearLayout Triton builds for a Gluon layout and a shape (every
  kind of Triton 3.9: tensor memory, AMD MFMA and WMMA, explicit and partitioned layouts);
  :func:`padded_shared`: a padded shared layout's linear map and its padding (a CuTe layout).
- :func:`to_cute` / :func:`from_cute`: the same function as a CuTe TV layout (distributed) or
  coordinate -> offset layout (shared), plain or swizzled, and back.
- :func:`solve_swizzle`: the CuTe swizzle (and offset) with ``Sw o off o A == B``, or the F2
  proof that none exists; :func:`solve_conflict_free`: the swizzle that gives every
  shared-memory phase distinct banks (a rank condition), judged by a bank model.
"""

from .convert import from_cute, to_cute
from .gluon import PaddedShared, from_gluon, padded_shared
from .layout import LinearLayout
from .solve import ConflictFreeSwizzle, SwizzleSolution, solve_conflict_free, solve_swizzle

__all__ = [
    "ConflictFreeSwizzle",
    "LinearLayout",
    "PaddedShared",
    "SwizzleSolution",
    "from_cute",
    "from_gluon",
    "padded_shared",
    "solve_conflict_free",
    "solve_swizzle",
    "to_cute",
]
