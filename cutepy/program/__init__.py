"""numpy array programs as CuTe layouts (TPU-MLIR's local-memory layouts).

Trace a program over a logical array with numpy's own vocabulary, compile it into the
layout from logical coordinates to offsets in the final buffer, and check the layout
against numpy running the program:

>>> import cutepy.program as cp
>>> a = cp.trace((2, 5, 2, 3), "a")                       # n, c, h, w
>>> b = a.reshape(2, 5, 6)                                # merge h, w
>>> b = cp.resize(b, (2, 8, 8)).reshape(2, 2, 4, 2, 4).transpose(2, 0, 1, 3, 4)
>>> prog = cp.to_layout(b)
>>> prog.form, prog.layout
('layout', (2,(4,2),2,3):(16,(32,8),3,1))
>>> bool(cp.check(b))
True

- :mod:`.trace`: :func:`trace`, the steps (``reshape``, ``transpose``/``.T``,
  :func:`swapaxes`, :func:`moveaxis`, :func:`resize`, :func:`pad`,
  :func:`concatenate`, :func:`broadcast_to`) and :class:`ProgramError`.
- :mod:`.compiler`: :func:`to_layout` -> :class:`CompiledProgram` of :class:`Piece` s.
- :mod:`.run`: :func:`run` (numpy), :func:`materialize` (from the layouts),
  :func:`check` -> :class:`CheckReport`.
- :mod:`.lmem`: the TPU-MLIR article's programs and :func:`lmem_layout` for (n, c, h, w) data on
  NPU lanes with EU alignment.
- The picture of a buffer cut into lanes is :func:`cutepy.viz.lanes_svg` (drawing lives in
  :mod:`cutepy.viz`); ``cutepy.program.lanes_svg`` still works for this release, with a
  ``DeprecationWarning`` (the top package registers that alias: this layer imports no picture).

Layer 3 (engines): a whole formalism compiled into layouts.
"""

from ..core.lazy import deprecation_getattr
from .compiler import BroadcastView, CompiledProgram, Piece, to_layout
from .lmem import (
    LmemLayout,
    conv_bias_program,
    conv_weight_program,
    lmem_layout,
    lmem_program,
    tpu_mlir_lmem_data,
    tpu_mlir_lmem_programs,
    weight_bias_program,
)
from .run import CheckReport, Mismatch, buffer, check, default_data, materialize, run
from .trace import (
    ProgramError,
    TracedArray,
    broadcast_to,
    concatenate,
    moveaxis,
    pad,
    reshape,
    resize,
    swapaxes,
    trace,
    transpose,
)

__all__ = [
    "BroadcastView", "CheckReport", "CompiledProgram", "LmemLayout", "Mismatch", "Piece",
    "ProgramError", "TracedArray", "broadcast_to", "buffer", "check", "concatenate",
    "conv_bias_program", "conv_weight_program", "default_data", "lmem_layout",
    "lmem_program", "materialize", "moveaxis", "pad", "reshape", "resize", "run", "swapaxes",
    "to_layout", "tpu_mlir_lmem_data", "tpu_mlir_lmem_programs", "trace", "transpose",
    "weight_bias_program",
]


#: ``cutepy.program.lanes_svg``: moved to :func:`cutepy.viz.lanes_svg` (deprecated here)
__getattr__ = deprecation_getattr(__name__)
