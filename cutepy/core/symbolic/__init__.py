"""Symbolic integers, layer 0: the values and the decisions (one of three places, each a layer).

cutepy's symbolic support lives where each part must sit in the layers:

* ``cutepy.core.symbolic`` (here, layer 0, beside the integer tuples): :mod:`.sym` (``Sym``, a
  sympy expression registered as a ``numbers.Integral``, so the algebra runs on it unchanged),
  :mod:`.facts` (what is known of each symbol: bounds, ``multiple_of``, ``divides``, and a
  context's :func:`~.facts.assuming` cases), :mod:`.decide` and :mod:`.relax` (deciding
  ``expr REL 0`` for every admissible assignment, or :class:`~cutepy.Undecided` naming the
  fact), :mod:`.subst` (values put in) and :mod:`.printing`. The algebra (layer 2) compares
  leaves, so these must sit below it.
* ``cutepy.symbolic`` (layer 4): the public front -- ``symbols``, ``subs``, ``free_symbols``,
  ``is_symbolic`` (:mod:`cutepy.symbolic.front`), the facts re-exported from here, and a
  symbolic layout at values (``instantiate``, ``pinned``: :mod:`cutepy.symbolic.values`) --
  without loading sympy until a symbol is made. Start reading there.
* ``cutepy.equivalence.symbolic`` (layer 4): the prover -- ``equivalent`` over symbols, its
  case splits, counterexamples replayed on concrete layouts -- and
  ``cutepy.equivalence.certificate``, its independent re-check (isl, z3).

Hypothesis strategies for symbolic layouts are :mod:`cutepy.strategies.symbolic`.
"""
