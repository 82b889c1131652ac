"""A readable account of one XLA shape: what ``cutepy xla SHAPE`` prints.

For each array: the canonical string, the element type and memory space, the
physical and tiled dims, the engine program, the compiled CuTe form (for a chain,
its stages and the step that broke affinity), the three sizes with the padding
overhead, and a check of the compile against XLA's formula: every element when
there are at most :data:`EXHAUSTIVE` of them (and the numpy reference model too),
else (or when a table would pass numpy's 64 dims) a random sample of :data:`SAMPLE`,
whose count the report states.

>>> print(report("f32[3,5]{1,0:T(2,2)}"))
shape        f32[3,5]{1,0:T(2,2)}
element      f32, 32 bits; stored in 4 byte(s) each
memory       S(0): device memory (HBM), the default
physical     [3,5] (major to minor)
tiled        [2,3,2,2] = 24 slots
program      pad(4,6) reshape(2,2,3,2) transpose(0,2,1,3)
CuTe         layout ((2,2),(2,3)):((2,12),(1,4))
domain       (4,6), padded from the logical (3,5)
sizes        dense 60 B, array_size 96 B, nested 96 B: 60.0% padding
verified     all 15 elements agree with XLA's formula and the reference model
"""

from __future__ import annotations

import itertools

from ..core.errors import CutepyError
from ..core.lazy import load
from ..program.engine import MAX_ARRAY_DIMS
from .compile import PLAIN_CHECK, XlaCompiledLayout, check_compile, compile_details, offsets_at
from .padding import max_rank
from .parser import parse_shape
from .reference import reference_offsets
from .semantics import linear_indices_at, tiled_dims
from .shape import UNBOUNDED_DIM, ArrayShape, BufferShape, Shape, TupleShape
from .sizes import sizes

np = load("numpy", optional=True)  # falsy where numpy is missing, its uses then raise CutepyError

#: Arrays with at most this many elements are checked element by element.
EXHAUSTIVE = 1 << 18

#: The numpy reference model holds the whole padded buffer: beyond this many slots the
#: elements are checked against XLA's formula alone (a tile can pad one element to 2**62 slots).
REFERENCE_SLOTS = 1 << 24

#: How many random elements are checked in a bigger array.
SAMPLE = 4096

_SPACES = {
    0: "device memory (HBM), the default",
    1: "alternate memory (VMEM on TPU)",
    5: "host memory",
}


def _dims(xs: tuple[int, ...]) -> str:
    return "[" + ",".join(map(str, xs)) + "]"


def _tuple(xs: tuple[int, ...]) -> str:
    return "(" + ",".join(map(str, xs)) + ")"


def _steps(c: XlaCompiledLayout) -> str:
    if not c.steps:
        return "(none: the buffer is the logical array in C order)"
    return " ".join(f"{kind}{_tuple(tuple(arg))}" for kind, arg in c.steps)


def _array_lines(arr: ArrayShape, seed: int) -> list[str]:
    lay = arr.effective_layout
    lines = [f"shape        {arr}"]
    et = arr.type
    if not et.is_array_type:
        return lines + [f"element      {et.name}: no array data"]
    bits = lay.element_size_in_bits
    stored = f"E({bits}): {bits} bits each" if bits else f"{et.byte_width} byte(s) each"
    lines.append(f"element      {et.name}, {et.bits} bits; stored in {stored}")
    space = lay.memory_space
    lines.append(f"memory       S({space}): {_SPACES.get(space, 'a device-specific memory space')}")
    if UNBOUNDED_DIM in arr.dims:
        return lines + ["dims         an unbounded dynamic dim ('?'): no size, no layout to compile"]
    arr.concrete_bounds("report()")  # symbolic dims: the report checks every element
    if any(arr.dynamic or ()):
        lines.append("dynamic      dynamic dims count at their bound")
    lines.append(f"physical     {_dims(arr.physical_dims)} (major to minor)")
    tiled = tiled_dims(arr)
    lines.append(f"tiled        {_dims(tiled)} = {_count(_prod(tiled))} slots")
    c = compile_details(arr)
    lines.append(f"program      {_steps(c)}")
    if c.form == "layout":
        lines.append(f"CuTe         layout {c.layout}")
    else:
        lines.append(f"CuTe         chain of {len(c.stages)} layouts (not affine); each stage maps "
                     "the previous one's offset")
        for k, stage in enumerate(c.stages, start=1):
            lines.append(f"  stage {k}    {stage}")
        for b in c.breaks:
            lines.append(f"  broke at   {b}")
    if c.domain != arr.bounds:
        lines.append(f"domain       {_tuple(c.domain)}, padded from the logical {_tuple(arr.bounds)}")
    else:
        lines.append(f"domain       {_tuple(c.domain)}, the logical shape (no padding in it)")
    if c.buffer_size != _prod(tiled):
        align = lay.tail_padding_alignment_in_elements
        lines.append(f"buffer       {_count(c.buffer_size)} slots after L({align})")
    sz = sizes(arr)
    lines.append(
        f"sizes        dense {_count(sz.dense)} B, array_size {_count(sz.array_size)} B, "
        f"nested {_count(sz.nested)} B: {sz.padding_overhead:.1f}% padding"
    )
    lines.append("verified     " + _verify(c, arr, seed))
    return lines


def _verify(c: XlaCompiledLayout, arr: ArrayShape, seed: int) -> str:
    n = _prod(arr.bounds)
    if n == 0:
        return "nothing to check: the array is empty"
    if not np:  # the numpy-free path: XLA's formula one index at a time
        if n <= PLAIN_CHECK:
            check_compile(c, arr)
            return f"all {_count(n)} elements agree with XLA's formula (checked one by one, no numpy)"
        k = check_compile(c, arr, sample=SAMPLE, seed=seed)
        return (f"a random sample of {_count(k)} of the {_count(n)} elements agrees with XLA's formula "
                "(no numpy)")
    if n <= EXHAUSTIVE and max_rank(arr) <= MAX_ARRAY_DIMS and c.buffer_size <= REFERENCE_SLOTS:
        check_compile(c, arr)
        if not np.array_equal(c.offsets(), reference_offsets(arr)):
            raise CutepyError(f"the CuTe form of {arr} disagrees with the reference model")
        return f"all {_count(n)} elements agree with XLA's formula and the reference model"
    if n <= EXHAUSTIVE:  # a table would pass numpy's rank limit: check rows of indices instead
        rows = np.array(list(itertools.product(*(range(d) for d in arr.bounds))), dtype=np.int64)
        if not np.array_equal(offsets_at(c, rows), linear_indices_at(arr, rows)):
            raise CutepyError(f"the CuTe form {c} of {arr} disagrees with XLA's formula")
        why = (f"a table would need more than numpy's {MAX_ARRAY_DIMS} dims" if max_rank(arr) > MAX_ARRAY_DIMS
               else f"the reference model would hold all {_count(c.buffer_size)} slots")
        return f"all {_count(n)} elements agree with XLA's formula (as rows of indices: {why})"
    k = check_compile(c, arr, sample=SAMPLE, seed=seed)
    return f"a random sample of {_count(k)} of the {_count(n)} elements agrees with XLA's formula"


def _prod(xs: tuple[int, ...]) -> int:
    n = 1
    for x in xs:
        n *= x
    return n


def _count(n: int) -> str:
    return f"{n:,}"


def _lines(shape: Shape, seed: int) -> list[str]:
    if isinstance(shape, TupleShape):
        out = [f"tuple        {len(shape.elements)} element(s): {shape}"]
        for i, e in enumerate(shape.elements):
            out += ["", f"[{i}]"] + [("  " + line) if line else "" for line in _lines(e, seed)]
        return out
    if isinstance(shape, BufferShape):
        return ["buffer       b(...): one array"] + _array_lines(shape.array, seed)
    return _array_lines(shape, seed)


def report(text: str | Shape, seed: int = 0) -> str:
    """The report on an XLA shape (text or object); a tuple reports each element.

    Raises :class:`~cutepy.CutepyError` for text that does not parse, and if
    the compile ever disagreed with XLA's formula.

    Pre:  ``text`` parses as an XLA shape (else ``CutepyError``).
    Post: a text report whose ``verified`` line says every element agrees with XLA's formula.

    >>> print(report("(f32[2], token[])"))
    tuple        2 element(s): (f32[2]{0}, token[])
    <BLANKLINE>
    [0]
      shape        f32[2]{0}
      element      f32, 32 bits; stored in 4 byte(s) each
      memory       S(0): device memory (HBM), the default
      physical     [2] (major to minor)
      tiled        [2] = 2 slots
      program      (none: the buffer is the logical array in C order)
      CuTe         layout (2):(1)
      domain       (2), the logical shape (no padding in it)
      sizes        dense 8 B, array_size 8 B, nested 8 B: 0.0% padding
      verified     all 2 elements agree with XLA's formula and the reference model
    <BLANKLINE>
    [1]
      shape        token[]
      element      token: no array data
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise CutepyError(f"report: seed={seed!r} is not a non-negative integer")
    shape = parse_shape(text) if isinstance(text, str) else text
    if not isinstance(shape, (ArrayShape, TupleShape, BufferShape)):
        raise CutepyError(f"report takes XLA shape text or a shape, got {type(text).__name__}: {text!r}")
    return "\n".join(_lines(shape, seed))
