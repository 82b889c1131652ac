"""Blackwell tensor-memory loads that also reduce or compress: the CuTe DSL's
``tcgen05.LdRed32x32bOp``, ``LdRed16x32bx2Op`` (PTX ``tcgen05.ld.red``: each thread also gets the min
or max, optionally of absolute values, of what it loaded), ``LdSPCompress32x32bOp`` and
``LdRedSPCompress32x32bOp`` (``tcgen05.ld.spcompress``, SM107). C++ 4.7 has only the ``.max`` row
statistics of the 32x32b shape (``SM100_TMEM_LOAD_STAT_32dp32b{32,128}x``, in
:mod:`cutepy.kernels.tmem_copy`); the DSL (4.8) has these four ops. Part of layer 4 (kernel values).

Each moves its data as the plain TMEM load of the same shape and repetition (the DSL prints the same
thread and value layouts), so the atom is that load's under the DSL's name; what sets the ops apart
are the rules the DSL checks when it builds them: the repetitions (``x2``.. for ``.red``, ``x4``.. for
``.spcompress``) and the element types (32-bit ``u32``/``s32``/``f32`` for ``.red``, ``f32`` only for the
absolute-value reductions and for ``.spcompress``).

>>> a = tmem_load_red_atom("LdRed32x32bOp", 4, "MIN", "float")
>>> a.name, a.layout_src_tv, a.layout_dst_tv
('LdRed32x32bOp(Repetition.x4, redOp=TmemLoadRedOp.MIN)', (32,128):(0,1), (32,4):(4,1))
"""

from __future__ import annotations

from dataclasses import replace

from ..core.errors import CutepyError
from .tmem_copy import TMEM_REPS, TmemCopyAtom, tmem_copy_atom

#: the DSL's reducing / compressing TMEM loads: op -> (C++ shape of the plain load, repetitions the
#: DSL accepts, element types it accepts; the absolute-value reductions take ``float`` only)
TMEM_LOAD_RED_OPS: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "LdRed32x32bOp": ("32dp32b", TMEM_REPS[1:], ("uint32_t", "int32_t", "float")),
    "LdRed16x32bx2Op": ("16dp32b", TMEM_REPS[1:], ("uint32_t", "int32_t", "float")),
    "LdSPCompress32x32bOp": ("32dp32b", TMEM_REPS[2:], ("float",)),
    "LdRedSPCompress32x32bOp": ("32dp32b", TMEM_REPS[2:], ("float",)),
}
#: the DSL's ``tcgen05.TmemLoadRedOp`` kinds
TMEM_LOAD_RED_KINDS = ("MAX", "MAXABS", "MIN", "MINABS")


def tmem_load_red_atom(op: str, repeat: int, red_op: str = "MAX",
                       element_type: str = "float") -> TmemCopyAtom:
    """The CuTe DSL's ``cute.make_copy_atom(tcgen05.<op>(Repetition.x<repeat>, redOp=TmemLoadRedOp.<red_op>),
    <element_type>)``: a TMEM load that reduces (``LdRed*``) or compresses (``*SPCompress*``).

    Pre:  ``op`` one of :data:`TMEM_LOAD_RED_OPS`; ``repeat`` one of its repetitions (``.red``: 2..128,
          ``.spcompress``: 4..128, powers of two); ``red_op`` one of :data:`TMEM_LOAD_RED_KINDS`;
          ``element_type`` one the op accepts (``uint32_t``, ``int32_t``, ``float``; ``float`` only for
          ``MAXABS``/``MINABS`` and the ``SPCompress`` ops), as the DSL checks; else ``CutepyError``
          naming the argument.
    Post: the thread and value layouts of the plain load of the same shape and repetition
          (``SM100_TMEM_LOAD_32dp32b<repeat>x`` or ``_16dp32b<repeat>x``); ``name`` the DSL's spelling;
          ``cpp_type`` empty (C++ 4.7 has no such atom but the ``.max`` row statistics).

    >>> tmem_load_red_atom("LdRed16x32bx2Op", 2, "MAXABS").layout_dst_tv
    ((16,2),2):((4,2),1)
    >>> tmem_load_red_atom("LdSPCompress32x32bOp", 2)
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: tmem_load_red_atom: repeat must be one of 4, 8, 16, 32, 64, 128 for \
LdSPCompress32x32bOp (the DSL's rule), not 2
    """
    if not isinstance(op, str) or op not in TMEM_LOAD_RED_OPS:
        raise CutepyError(f"tmem_load_red_atom: op must be one of {', '.join(TMEM_LOAD_RED_OPS)}, not {op!r}")
    shape, reps, types = TMEM_LOAD_RED_OPS[op]
    if type(repeat) is not int or repeat not in reps:
        raise CutepyError(f"tmem_load_red_atom: repeat must be one of {', '.join(map(str, reps))} for {op} "
                          f"(the DSL's rule), not {repeat!r}")
    if red_op not in TMEM_LOAD_RED_KINDS:
        raise CutepyError(f"tmem_load_red_atom: red_op must be one of {', '.join(TMEM_LOAD_RED_KINDS)}, "
                          f"not {red_op!r}")
    if red_op.endswith("ABS") and element_type != "float":
        raise CutepyError(f"tmem_load_red_atom: element_type must be float for red_op {red_op} (the DSL: "
                          f"'expect val_type to be f32 when red_op is minabs or maxabs'), "
                          f"not {element_type!r}")
    if element_type not in types:
        raise CutepyError(f"tmem_load_red_atom: element_type must be one of {', '.join(types)} for {op} "
                          f"(the DSL's rule), not {element_type!r}")
    plain = tmem_copy_atom(f"SM100_TMEM_LOAD_{shape}{repeat}x", 32)
    name = f"{op}(Repetition.x{repeat}, redOp=TmemLoadRedOp.{red_op})"
    return replace(plain, name=name, cpp_type="")


__all__ = ["tmem_load_red_atom"]
