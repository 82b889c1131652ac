"""Explained derivations: every step an algebra operation takes, as text, LaTeX and pictures.

Layer 4 (analyses). The events and their words live beside the algorithms
(``cutepy/algebra/*.py``); this package records them while the real operation runs
(:mod:`.record`), says which events make each operation's steps (:mod:`.algebra`,
:mod:`.composing`, :mod:`.tiling`) and renders the result (:mod:`.steps`).

``explain(op, *args)`` runs the real ``op`` with a recorder (:mod:`cutepy.core.tracing`)
and words each event it emits: for ``composition`` each divide-out and
mod-out of B's leaves through ``coalesce_x(A)``; for ``complement`` the sorted modes
and the gaps it fills; for divides and products the complement and the composition
they are built from (as nested derivations). The result is checked against a plain
run of the operation before it is returned.

>>> from cutepy.core.layout import Layout
>>> d = explain("composition", Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))
>>> d.result
((2,2),3):((24,2),8)
>>> print(d.text())  # doctest: +ELLIPSIS
composition((6,2):(8,2), (4,3):(3,1))
  1. coalesce_x(A) = (6,2):(8,2) (flatten (6,2):(8,2); nothing merges)
  2. B's leaf 4:3 (B's mode 0)
     1. mode 0 of A (6:8): divide out stride 3 -> ceil(6/3) = 2 left, ... -> 2:3*8 = 2:24; 4/2 = 2 left
     2. last mode of A (2:2): the rest 2:1*2 = 2:2
     = (2,2):(24,2)
  3. B's leaf 3:1 (B's mode 1)
     1. mode 0 of A (6:8): divide out stride 1 -> ceil(6/1) = 6 left, ... -> 3:1*8 = 3:8; 3/3 = 1 left
     = 3:8
  4. carry check on coalesce_x(A), B's modes together reach digit 0: 5 < 6: no carry
  = ((2,2),3):((24,2),8)
"""

from .explanation import explain, run
from .steps import Derivation, DStep
from .words import explainable

__all__ = ["Derivation", "DStep", "explain", "explainable", "run"]
