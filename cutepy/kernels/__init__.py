"""Kernel design (layer 4, analyses): CuTe's tensors, atoms and tiled operations as values.

- :mod:`.tensor`: ``Tensor`` (an engine seen through a layout), ``make_tensor``,
  ``local_tile``, ``local_partition``; :mod:`.pointer`: gmem/smem/tmem pointers.
- :mod:`.atoms`: MMA and copy atoms (tables checked against C++ prints) and the GMMA
  shared-memory layout atoms; :mod:`.tiled`: ``TiledMMA``, ``TiledCopy``, each thread's
  partition, and the design checks (:mod:`.tiled.checks`).
- :mod:`.tma`: TMA copies (descriptors, boxes, multicast); :mod:`.gmma_desc`: GMMA
  shared-memory descriptors; :mod:`.tmem` and :mod:`.tmem_copy`: Blackwell tensor memory.
- :mod:`.simulate`: ``copy``, ``copy_if`` and ``gemm`` run thread by thread on numpy data.
"""
