"""Every public function states its pre- and post-condition and shows an example (issue 12).

Public: the names in ``cutepy.__all__`` and in the ``__all__`` of the public subpackages
below. A function's docstring must hold ``Pre:``, ``Post:`` and a ``>>>`` example (the
suite's ``--doctest-modules`` run checks that the example is true); a class needs a ``>>>``
example in its own docstring or its ``__init__``'s.
"""

from __future__ import annotations

import importlib
import inspect

MODULES = ["cutepy", "cutepy.xla", "cutepy.program", "cutepy.banks", "cutepy.viz", "cutepy.emit",
           "cutepy.symbolic", "cutepy.equivalence", "cutepy.derivation"]


def _public() -> dict[str, object]:
    """``{"module.name": object}`` for each public function and class, each object once."""
    seen: set[int] = set()
    out: dict[str, object] = {}
    for module in MODULES:
        mod = importlib.import_module(module)
        for name in mod.__all__:
            obj = getattr(mod, name)
            # isroutine: a function of the compiled core (python -m cutepy.build) too
            if (inspect.isroutine(obj) or inspect.isclass(obj)) and id(obj) not in seen:
                seen.add(id(obj))
                out[f"{module}.{name}"] = obj
    return out


def _lacks(obj: object) -> list[str]:
    """What ``obj``'s docstring lacks of the house form."""
    doc = inspect.getdoc(obj) or ""
    if inspect.isclass(obj):
        init = obj.__dict__.get("__init__")
        has = ">>>" in doc or (init is not None and ">>>" in (inspect.getdoc(init) or ""))
        return [] if has else [">>>"]
    return [part for part in ("Pre:", "Post:", ">>>") if part not in doc]


def test_public_names_are_found() -> None:
    public = _public()
    assert "cutepy.complement" in public and "cutepy.Layout" in public
    assert any(name.startswith("cutepy.xla.") for name in public)


def test_every_public_docstring_states_pre_post_and_an_example() -> None:
    offenders = {name: lacks for name, obj in _public().items() if (lacks := _lacks(obj))}
    listing = "\n".join(f"  {name}: no {', '.join(lacks)}" for name, lacks in sorted(offenders.items()))
    assert not offenders, f"{len(offenders)} public docstring(s) lack the house form:\n{listing}"
