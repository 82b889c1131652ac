"""TiledMMA and TiledCopy: atoms tiled over threads, and each thread's partition of a tensor."""

from .copy import (
    ThrCopy,
    TiledCopy,
    make_cotiled_copy,
    make_tiled_copy,
    make_tiled_copy_A,
    make_tiled_copy_B,
    make_tiled_copy_C,
    make_tiled_copy_C_atom,
    make_tiled_copy_D,
    make_tiled_copy_impl,
    make_tiled_copy_S,
)
from .mma import (
    ThrMMA,
    TiledMMA,
    make_tiled_mma,
    partition_fragment_A,
    partition_fragment_B,
    partition_fragment_C,
    partition_shape_A,
    partition_shape_B,
    partition_shape_C,
)
from .partitions import ThreadPartitions as ThreadPartitions  # a sweep's tool: not in cutepy.__all__
from .partitions import partition_all as partition_all

__all__ = [
    "ThrCopy",
    "ThrMMA",
    "TiledCopy",
    "TiledMMA",
    "make_tiled_copy",
    "make_tiled_copy_A",
    "make_tiled_copy_B",
    "make_tiled_copy_C",
    "make_tiled_copy_C_atom",
    "make_tiled_copy_D",
    "make_tiled_copy_S",
    "make_tiled_copy_impl",
    "make_cotiled_copy",
    "make_tiled_mma",
    "partition_fragment_A",
    "partition_fragment_B",
    "partition_fragment_C",
    "partition_shape_A",
    "partition_shape_B",
    "partition_shape_C",
]
