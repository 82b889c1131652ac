"""``explain(op, *args)``: run the real operation with a recorder and word what it reports.

>>> from cutepy.core.layout import Layout
>>> print(explain("coalesce", Layout((2, (1, 6)), (1, (6, 2)))).text())
coalesce((2,(1,6)):(1,(6,2)))
  1. flatten: (2,1,6):(1,6,2)
  2. start with 2:1
  3. drop 1:6 (size 1)
  4. merge 2:1 ++ 6:2 -> 12:1 (2*1 == 2)
  = 12:1
"""

from __future__ import annotations

from typing import Any

from ..core.errors import CutepyError
from ..core.lazy import load
from ..core.tracing import recording
from . import algebra, composing, tiling  # noqa: F401 - they register their explainers
from .operations import operation
from .record import Recorder
from .steps import Derivation
from .words import EXPLAINERS

#: the prover, beside the derivations (same layer), loaded when a proof is explained
_decision = load("cutepy.equivalence.decision")


def run(name: str, *args: Any) -> Derivation:
    """The derivation of ``name(*args)``, without the cross-check of :func:`explain`.

    Post: ``result`` (or ``error``, a :class:`~cutepy.CutepyError`) is what the real
    operation gives; only the current context records (other threads run plainly).

    Pre:  ``name`` names an explainable operation and ``args`` are its arguments.

    >>> from cutepy import Layout
    >>> d = run("complement", Layout(4, 2), 24)
    >>> d.result
    (2,3):(1,8)
    """
    fn = operation(name)
    D = Derivation(name, args)
    rec = Recorder(D) if name in EXPLAINERS else None
    try:
        with recording(rec):
            D.result = fn(*args)
    except CutepyError as e:
        D.error = e
    if rec is None:
        D.add("computed directly (this operation has no finer steps to show)")
    else:
        rec.finish(EXPLAINERS)
    return D


def _proof(A: Any, B: Any, by: str = "index", domain: Any = None) -> Derivation:
    """``explain(equivalent, A, B)``: the proof (normal forms, each case of a split, the
    certificate's check) as the steps of a derivation whose result is the verdict."""
    shown = tuple(getattr(x, "__name__", "function") + "()" if callable(x) and not hasattr(x, "shape")
                  else x for x in (A, B))
    D = Derivation("equivalent", shown)
    try:
        D.result = _decision.equivalent(A, B, by=by, domain=domain)
    except CutepyError as e:
        D.error = e
        return D
    for line in D.result.proof_lines():
        D.add(line)
    return D


def explain(op: Any, *args: Any) -> Derivation:
    """The step-by-step derivation of ``op(*args)``; ``op`` is a name or a cutepy function.

    Pre:  ``op`` names an explainable operation (else ``CutepyError``) and ``args`` are its
          arguments.
    Post: ``result.result == op(*args)`` (or ``result.error`` is the error ``op`` raises);
          checked against the real operation, a mismatch raises ``CutepyError``.

    >>> from cutepy import Layout, complement
    >>> print(explain(complement, Layout(4, 2), 24).text())
    complement(4:2, 24)
      1. filter(A) = 4:2 (drop stride-0 and size-1 modes, coalesce)
      2. sorted by stride: 4:2
      3. gap below stride 2: 2/1 = 2 at stride 1; 4:2 then covers up to 8
      4. rest up to the cotarget: ceil(24/8) = 3 at stride 8
      5. coalesce (2,3):(1,8): nothing merges
      = (2,3):(1,8)
    """
    own = getattr(op, "explain_steps", None)  # a function that words its own choices (the builders)
    if own is not None:
        return own(*args)
    name = op if isinstance(op, str) else getattr(op, "__name__", "")
    if name == "equivalent":  # a proof, not a computation: its steps come from the verdict
        return _proof(*args)
    operation(name)
    D = run(name, *args)
    if not D.check():
        raise CutepyError(f"internal error: the derivation of {D.head()} disagrees with {name}")
    return D
