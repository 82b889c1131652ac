"""The small values the builders share: copy operations named by their C++ type, the layout tags,
and the C++ struct layout rule (for ``sizeof(SharedStorage)``).

>>> struct_layout([(10, 2), (8, 8)])
(24, 8)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..xla.padding import round_up

__all__ = ["CopyOp"]

LAYOUT_TAGS = ("RowMajor", "ColumnMajor")


@dataclass(frozen=True)
class CopyOp:
    """A copy operation a collective takes as a bare type (``SM90_TMA_LOAD``,
    ``SM90_TMA_LOAD_MULTICAST``, ``SM90_U32x4_STSM_N``...): the atom is made from it later (a TMA
    atom from a gmem tensor at run time).

    >>> format(CopyOp("SM90_TMA_LOAD_MULTICAST"), "cxx")
    'cute::SM90_TMA_LOAD_MULTICAST'
    """

    name: str

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return f"cute::{self.name}" if spec == "cxx" else format(self.name, spec)


def cluster_tma(n: int) -> CopyOp:
    """``detail::sm90_cluster_shape_to_tma_atom``: a multicast TMA when the cluster extent that
    shares the operand is over 1."""
    return CopyOp("SM90_TMA_LOAD" if n == 1 else "SM90_TMA_LOAD_MULTICAST")


def struct_layout(fields: list[tuple[int, int]], align: int = 1) -> tuple[int, int]:
    """(sizeof, alignof) of a C++ struct of (size, align) fields (``align``: the struct's own
    ``alignas``)."""
    offset = 0
    for size, a in fields:
        offset = round_up(offset, a) + size
        align = max(align, a)
    return round_up(offset, align), align


#: the members every architecture's ``CollectiveOp`` has, in C++'s order (each collective's
#: ``members()`` lists these, then its own)
COLLECTIVE_MEMBERS = ("dispatch_policy", "stages", "tiled_mma", "smem_layout_atom_a", "smem_layout_atom_b",
                      "smem_layout_a", "smem_layout_b", "gmem_tiled_copy_a", "gmem_tiled_copy_b",
                      "smem_copy_atom_a", "smem_copy_atom_b", "shared_storage_bytes")


def collective_members(collective: Any, own: tuple = ()) -> dict[str, Any]:
    """A collective's members by their snake-case names: :data:`COLLECTIVE_MEMBERS`, then ``own``."""
    return {name: getattr(collective, name) for name in (*COLLECTIVE_MEMBERS, *own)}
