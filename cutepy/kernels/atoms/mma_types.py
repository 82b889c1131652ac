"""The MMA atom value and what every vendor's atom module shares: C++ element types' widths and
numpy stand-ins, the :class:`MMAAtom` value, and UMMA's element types and operand layout.

:mod:`cutepy.kernels.atoms.mma` (NVIDIA's atoms and the name parser) re-exports these; the other
vendors' modules (``amd``, ``intel``, ``amx``) and the block-scaled/sparse UMMA atoms
(``umma_ext``) build on them, so the parser can reach every module without an import cycle.

>>> TYPE_BITS["half_t"], umma_layout(64, 16)
(16, (1,(64,16)):(0,(1,64)))
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.inttuple import StaticCxxFormat
from ...core.layout import Layout

#: bits of the C++ element types the atoms use.
TYPE_BITS = {
    "half_t": 16,
    "bfloat16_t": 16,
    "tfloat32_t": 32,
    "float": 32,
    "double": 64,
    "int8_t": 8,
    "uint8_t": 8,
    "int32_t": 32,
    "float_e4m3_t": 8,
    "float_e5m2_t": 8,
    "complex<double>": 128,
    "int16_t": 16,
    "int4b_t": 4,
    "uint4b_t": 4,
    "uint1b_t": 1,
    "float_e2m1_t": 4,
    "float_e2m3_t": 6,
    "float_e3m2_t": 6,
    "SM80_8x8x4_GC64C64C64GC64_TN::GaussComplex": 192,  # three doubles (t0, t1, t2)
}
#: numpy dtypes that simulate the C++ element types (bfloat16, tf32 and narrow floats in float32)
NUMPY_TYPES = {
    "half_t": "float16", "bfloat16_t": "float32", "tfloat32_t": "float32", "float": "float32",
    "double": "float64", "int8_t": "int8", "uint8_t": "uint8", "int16_t": "int16", "int32_t": "int32",
    "int4b_t": "int8", "uint4b_t": "uint8", "uint1b_t": "uint8", "complex<double>": "complex128",
    "float_e4m3_t": "float32", "float_e5m2_t": "float32", "float_e2m1_t": "float32",
    "float_e2m3_t": "float32", "float_e3m2_t": "float32", "uint32_t": "uint32",
}


@dataclass(frozen=True)
class MMAAtom(StaticCxxFormat):
    """One MMA instruction: C++ ``MMA_Atom<Op>`` (``ThrID``, ``ALayout``, ``BLayout``, ``CLayout``).

    ``cpp_type`` is the C++ type that builds it (``MMA_Atom<cpp_type>``).

    >>> from cutepy import mma_atom
    >>> m = mma_atom("SM80_16x8x16_F32F16F16F32_TN")
    >>> m.shape_mnk, m.thr_id, m.tv_layout_C
    ((16, 8, 16), 32:1, ((4,8),(2,2)):((32,1),(16,8)))
    """

    name: str
    shape_mnk: tuple
    thr_id: Layout
    tv_layout_A: Layout
    tv_layout_B: Layout
    tv_layout_C: Layout
    element_types: tuple  # (D, A, B, C) C++ type names
    cpp_type: str

    @property
    def element_type_A(self) -> str:
        return self.element_types[1]

    @property
    def element_type_B(self) -> str:
        return self.element_types[2]

    @property
    def element_type_C(self) -> str:
        return self.element_types[3]

    def __str__(self) -> str:
        return (
            f"MMA_Atom\n  ThrID:      {self.thr_id}\n"
            f"  Shape_MNK:  ({','.join(map(str, self.shape_mnk))})\n"
            f"  LayoutA_TV: {self.tv_layout_A}\n  LayoutB_TV: {self.tv_layout_B}\n"
            f"  LayoutC_TV: {self.tv_layout_C}"
        )

    def __repr__(self) -> str:
        return f"mma_atom({self.name!r})"


#: the (A, B, C) element types cutepy accepts per UMMA kind (those PTX's tcgen05.mma defines)
UMMA_TYPES = {
    "TF32": (("tfloat32_t", "tfloat32_t", "float"),),
    "F16BF16": (
        ("half_t", "half_t", "float"),
        ("half_t", "half_t", "half_t"),
        ("bfloat16_t", "bfloat16_t", "float"),
    ),
    "S8": tuple((a, b, "int32_t") for a in ("int8_t", "uint8_t") for b in ("int8_t", "uint8_t")),
    "F8F6F4": tuple(
        (a, b, c)
        for c in ("float", "half_t")
        for a in ("float_e4m3_t", "float_e5m2_t", "float_e2m3_t", "float_e3m2_t", "float_e2m1_t")
        for b in ("float_e4m3_t", "float_e5m2_t", "float_e2m3_t", "float_e3m2_t", "float_e2m1_t")
    ),
}


def umma_layout(rows: int, cols: int, two_sm: bool = False) -> Layout:
    """C++'s UMMA operand layout ``(thread, (row, col)) -> row + rows*col`` of a rows x cols tile:
    ``(1,(rows,cols)):(0,(1,rows))`` for one CTA, ``(2,(rows/2,cols)):(rows/2,(1,rows))`` for the
    2x1SM (two-CTA) atoms, whose "thread" is the CTA.

    >>> umma_layout(64, 16), umma_layout(256, 32, two_sm=True)
    ((1,(64,16)):(0,(1,64)), (2,(128,32)):(128,(1,256)))
    """
    if two_sm:
        return Layout((2, (rows // 2, cols)), (rows // 2, (1, rows)))
    return Layout((1, (rows, cols)), (0, (1, rows)))
