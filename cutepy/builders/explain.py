"""``explain`` for the builders: each choice CUTLASS's CollectiveBuilder makes, in order, with why
(the schedule ``KernelScheduleAuto`` resolves to, the GMMA majors, the MMA shape, the gmem copies,
the swizzle atom for the operand's major and width, the stage count from the shared-memory
capacity and the carveout), as a :class:`~cutepy.derivation.Derivation` like the algebra's.

Layered above :mod:`cutepy.builders.sm90` and :mod:`cutepy.builders.epilogue`; the builders record
their choices as they make them (``CollectiveMma.choices``), and this module words them.
``cutepy.explain(collective_builder, ...)`` comes here.

>>> d = explain_builder("Sm90", "OpClassTensorOp", "half_t", "RowMajor", 8, "half_t", "ColumnMajor", 8,
...                     "float", (128, 128, 64), (1, 2, 1), "auto", "KernelScheduleAuto")
>>> for step in d.steps[:3]:
...     print(step.text[:72])
kernel schedule: KernelTmaWarpSpecializedCooperative (A and B rows are 1
GMMA majors: A K, B K (shared-memory GMMA reads MN-major operands only f
MMA: SM90_64x128x16_F32F16F16_SS<K,K> (the widest GMMA N of 256, 192, 12
>>> print(d.steps[5].text)  # doctest: +NORMALIZE_WHITESPACE
stages: 7 (a stage holds a 128x64 A tile and a 128x64 B tile, 32784 bytes with its barriers (128-byte
rounded); (232448 - 0 carveout) // 32784 = 7)
"""

from __future__ import annotations

from typing import Any

from ..core.errors import CutepyError
from ..derivation.steps import Derivation
from .epilogue import epilogue_builder
from .sm90 import collective_builder

__all__ = ["explain_builder", "explain_epilogue_builder"]


class _Summary:
    """The derivation's result line: the builder and its dispatch policy."""

    def __init__(self, c: Any):
        self.collective = c

    def __str__(self) -> str:
        c = self.collective
        if hasattr(c, "builder"):  # a mainloop (SM90 or SM100)
            return f"{c.builder}: {c.dispatch_policy}"
        return f"{c.schedule}: {c.dispatch_policy}" if c.dispatch_policy is not None else c.schedule


class BuilderDerivation(Derivation):
    """A :class:`~cutepy.derivation.Derivation` whose ``collective`` is the built collective
    (``result`` is a one-line summary of it)."""

    collective: Any = None

    def check(self) -> bool:
        return True


def _derive(name: str, build: Any, args: tuple, kwargs: dict, layouts: tuple[str, ...]) -> BuilderDerivation:
    D = BuilderDerivation(name, tuple(args) + tuple(kwargs.values()))
    try:
        c = build(*args, **kwargs)
    except CutepyError as e:
        D.error = e
        D.add("CUTLASS rejects this configuration (a static_assert): " + str(e))
        return D
    D.collective = c
    for what, chosen, why in c.choices:
        layout = None
        if what == "smem atoms" and hasattr(c, "smem_layout_atom_a"):
            layout = c.smem_layout_atom_a
        D.add(f"{what}: {chosen} ({why})", layout=layout)
    for member in layouts:
        value = getattr(c, member, None)
        if value is not None:
            D.add(f"{member} = {value}", layout=value)
    D.result = _Summary(c)
    return D


def explain_builder(*args: Any, **kwargs: Any) -> BuilderDerivation:
    """The choices of :func:`~cutepy.builders.collective_builder` for these arguments, step by step.

    Pre:  the arguments of :func:`collective_builder`.
    Post: ``d.collective`` is ``collective_builder(*args)``; ``d.steps`` give each choice with its
          reason and the staged smem layouts; a rejected configuration gives ``d.error``.

    >>> d = explain_builder("Sm90", "OpClassTensorOp", "half_t", "RowMajor", 4, "half_t", "ColumnMajor", 8,
    ...                     "float", (128, 128, 64), (1, 1, 1), "auto", "KernelTmaWarpSpecialized")
    >>> d.error is not None, d.steps[0].text.startswith("CUTLASS rejects")
    (True, True)
    """
    return _derive("collective_builder", collective_builder, args, kwargs, ("smem_layout_a", "smem_layout_b"))


def explain_epilogue_builder(*args: Any, **kwargs: Any) -> BuilderDerivation:
    """The choices of :func:`~cutepy.builders.epilogue_builder` for these arguments, step by step.

    Pre:  the arguments of :func:`epilogue_builder`.
    Post: ``d.collective`` is ``epilogue_builder(*args)``; ``d.steps`` give each choice.

    >>> d = explain_epilogue_builder("Sm90", "OpClassTensorOp", (128, 128, 64), (1, 1, 1), "EpilogueTileAuto",
    ...                              "float", "float", "half_t", "RowMajor", 8, "half_t", "RowMajor", 8,
    ...                              "TmaWarpSpecialized")
    >>> d.steps[0].text
    'epilogue tile: (64, 32) (one warp group: up to 64 rows by up to 32 columns)'
    """
    return _derive("epilogue_builder", epilogue_builder, args, kwargs, ("smem_layout_c", "smem_layout_d"))


collective_builder.explain_steps = explain_builder  # type: ignore[attr-defined]
epilogue_builder.explain_steps = explain_epilogue_builder  # type: ignore[attr-defined]
