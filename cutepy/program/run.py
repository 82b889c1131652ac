"""Running a traced program with numpy, and checking its compiled layouts against the run.

:func:`run` executes the program on real arrays (``np.reshape``, ``np.transpose``,
``np.pad``, ``np.concatenate``, ``np.broadcast_to``). :func:`check` compiles it, runs
it on data where every input element has its own nonzero value, and compares element
by element: each piece must put every element where numpy put it, and every slot of
the buffer that no piece fills must hold numpy's zero padding.

>>> from cutepy.program import trace, resize
>>> a = trace((2, 5, 2, 3), "a")
>>> prog = resize(a.reshape(2, 5, 6), (2, 8, 8)).reshape(2, 2, 4, 2, 4).transpose(2, 0, 1, 3, 4)
>>> run(prog, {"a": np.arange(60).reshape(2, 5, 2, 3)})[1, 0, 0]   # NPU 1, n=0, c'=0
array([[ 6,  7,  8,  9],
       [10, 11,  0,  0]])
>>> report = check(prog)
>>> bool(report), report.checked
(True, 60)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.lazy import load
from ..core.limits import max_elements
from .compiler import CompiledProgram, Piece, to_layout
from .engine import logical_offsets
from .trace import ProgramError, TracedArray

np = load("numpy")  # numpy loads on first use (the module's import needs none)

Data = Mapping[Any, Any]


def _program(x: Any, what: str) -> TracedArray:
    if not isinstance(x, TracedArray):
        raise ProgramError(f"{what}: {type(x).__name__} is not a traced array (start with trace(shape))")
    return x


def _compiled(x: Any, what: str) -> CompiledProgram:
    if not isinstance(x, CompiledProgram):
        raise ProgramError(f"{what}: {type(x).__name__} is not a compiled program (use to_layout)")
    return x


def _mapping(data: Any, what: str) -> Data:
    if not isinstance(data, Mapping):
        raise ProgramError(f"{what}: data must map input names (or traced inputs) to arrays, "
                           f"got {type(data).__name__}")
    return data


def default_data(program: TracedArray) -> dict[Any, np.ndarray]:
    """Distinct nonzero values for every element of every input: ``1, 2, ...`` in order,
    keyed by the traced input and, when no other input shares it, by its name.

    Pre:  ``program`` is a TracedArray.
    Post: every input element gets a distinct value in ``1 .. total``, inputs in trace order.

    >>> from cutepy.program import trace, concatenate
    >>> d = default_data(concatenate([trace((2,), "x"), trace((3,), "y")]))
    >>> d["x"].tolist(), d["y"].tolist()
    ([1, 2], [3, 4, 5])
    """
    inputs = _program(program, "default_data").inputs()
    _check_elements(sum(x.size for x in inputs), "default data for the inputs")
    names = [x.name for x in inputs]
    out: dict[Any, np.ndarray] = {}
    start = 1
    for x in inputs:
        v = np.arange(start, start + x.size, dtype=np.int64).reshape(x.shape)
        out[x] = v
        if names.count(x.name) == 1:
            out[x.name] = v
        start += x.size
    return out


def _lookup(data: Data, x: TracedArray) -> np.ndarray:
    for key in (x, x.name):
        try:
            v = data[key]
        except (KeyError, TypeError):
            continue
        arr = np.asarray(v)
        if arr.shape != x.shape:
            raise ProgramError(f"data for input {x.name!r} has shape {arr.shape}, the program "
                               f"traced {x.shape}")
        return arr
    raise ProgramError(f"no data for input {x.name!r} (give it by name or by the traced array)")


def run(program: TracedArray, data: Data | None = None) -> np.ndarray:
    """Execute the program with numpy on ``data`` (``{name or input: array}``; default:
    :func:`default_data`) and return the result array.

    Pre:  ``data`` holds an array of each input's shape, keyed by the input or its name
          (else ``ProgramError``).
    Post: ``result.shape == program.shape``: what numpy computes step by step.

    >>> from cutepy.program import trace
    >>> run(trace((2, 3)).transpose(1, 0))
    array([[1, 4],
           [2, 5],
           [3, 6]])
    """
    data = default_data(program) if data is None else _mapping(data, "run")
    _program(program, "run")
    memo: dict[int, np.ndarray] = {}

    def ev(x: TracedArray) -> np.ndarray:
        if id(x) in memo:
            return memo[id(x)]
        if x.op == "input":
            r = _lookup(data, x)
        elif x.op == "concatenate":
            r = np.concatenate([ev(p) for p in x.parents], axis=x.args[0])
        else:
            s = ev(x.parents[0])
            if x.op == "reshape":
                r = np.reshape(s, x.args[0])
            elif x.op == "transpose":
                r = np.transpose(s, x.args[0])
            elif x.op == "pad":
                new, low = x.args
                r = np.pad(s, [(lo, n - e - lo) for lo, n, e in zip(low, new, s.shape)])
            else:
                r = np.broadcast_to(s, x.args[0])
        memo[id(x)] = r
        return r

    return ev(program)


def buffer(program: TracedArray, data: Data | None = None) -> np.ndarray:
    """The program's final buffer: the result of :func:`run`, flattened in C order.

    Pre:  as :func:`run`.
    Post: ``result == run(program, data).reshape(-1)``.

    >>> from cutepy.program import resize, trace
    >>> buffer(resize(trace((2, 3)), (2, 4)))
    array([1, 2, 3, 0, 4, 5, 6, 0])
    """
    return np.ascontiguousarray(run(program, data)).reshape(-1)


def piece_values(piece: Piece, data: Data) -> np.ndarray:
    """The values a piece holds, as an array of its logical shape."""
    src = piece.source
    if src.op == "input":
        return _lookup(data, src)
    return np.broadcast_to(run(src.parents[0], data), src.shape)


def materialize(compiled: CompiledProgram, data: Data | None = None, fill: Any = 0) -> np.ndarray:
    """The final buffer built from the compiled pieces alone (what a DMA following the
    layouts writes): ``out[piece(x)] = value(x)``, ``fill`` elsewhere.

    Pre:  ``compiled`` is a ``to_layout`` result; ``data`` as for :func:`run`.
    Post: ``result[piece(x)] == value(x)`` for every element ``x`` of every piece; ``fill``
          elsewhere; equal to ``buffer(program, data)`` when :func:`check` passes.

    >>> from cutepy.program import to_layout, trace
    >>> p = trace((2, 3), "x").T
    >>> materialize(to_layout(p), {"x": np.arange(6).reshape(2, 3)}).tolist()
    [0, 3, 1, 4, 2, 5]
    """
    _compiled(compiled, "materialize")
    _check_elements(compiled.buffer_size, "materializing the buffer")
    data = default_data(compiled.program) if data is None else _mapping(data, "materialize")
    vals = [piece_values(p, data) for p in compiled.pieces]
    dtype = np.result_type(*[v.dtype for v in vals]) if vals else np.int64
    out = np.full(compiled.buffer_size, fill, dtype=dtype)
    for p, v in zip(compiled.pieces, vals):
        out[p.offsets().reshape(-1)] = np.asarray(v).reshape(-1)
    return out


@dataclass(frozen=True)
class Mismatch:
    """The first element where the compiled layouts and numpy disagree.

    >>> Mismatch("offset", 0, (1, 0), 3, 4, 5)
    Mismatch(what='offset', piece=0, index=(1, 0), offset=3, expected=4, found=5, numpy_offset=None)
    """

    what: str
    piece: int | None
    index: tuple[int, ...] | None
    offset: int
    expected: Any
    found: Any
    numpy_offset: int | None = None

    def __str__(self) -> str:
        if self.piece is None:
            return (f"{self.what}: buffer slot {self.offset} holds {self.found!r} in numpy's run, "
                    f"but no piece writes it (expected padding {self.expected!r})")
        where = f" (numpy put it at {self.numpy_offset})" if self.numpy_offset is not None else ""
        return (f"{self.what}: element {self.index} = {self.expected!r} compiles to offset "
                f"{self.offset}, where numpy's buffer holds {self.found!r}{where}")


@dataclass(frozen=True)
class CheckReport:
    """Outcome of :func:`check`: truthy when the compiled layouts match numpy everywhere.

    >>> from cutepy.program import trace
    >>> r = check(trace((2, 3), "x").T)
    >>> bool(r), str(r).split(";")[0]
    (True, 'ok: 6 elements in 1 piece(s) land where numpy puts them')
    """

    compiled: CompiledProgram
    checked: int
    mismatch: Mismatch | None

    @property
    def ok(self) -> bool:
        return self.mismatch is None

    @property
    def form(self) -> str:
        return self.compiled.form

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        if self.ok:
            return (f"ok: {self.checked} elements in {len(self.compiled.pieces)} piece(s) land where "
                    f"numpy puts them; the other {self.compiled.buffer_size - self.checked} of "
                    f"{self.compiled.buffer_size} slots are padding ({self.form})")
        return f"MISMATCH: {self.mismatch}"

    __repr__ = __str__


def _check_elements(n: int, what: str) -> None:
    """Refuse, before allocating, ``n`` elements above the element limit (cutepy.core.limits)."""
    if n > max_elements():
        raise ProgramError(f"{what} needs {n} elements, above the limit of {max_elements()}; raise it "
                           "with cutepy.limits(max_elements=...)")


def _check_size(program: TracedArray) -> None:
    """Refuse, before allocating, a check whose arrays pass the element limit (cutepy.core.limits)."""
    n = 1
    for e in program.shape:
        n *= e
    if n > max_elements():
        raise ProgramError(f"checking {program.shape} runs numpy on {n} elements, above the limit of "
                           f"{max_elements()}; raise it with cutepy.limits(max_elements=...)")


def check(program: TracedArray | CompiledProgram, data: Data | None = None) -> CheckReport:
    """Compile ``program`` (or take it compiled) and compare with numpy on every element.

    With ``data=None`` every input element gets a distinct nonzero value, so equality
    proves each element's offset; with your own data, equal values can hide a swap.
    Broadcast views are checked too: their stride-0 layout must read the right element
    of the viewed array, and the viewed program is checked recursively.

    Pre:  ``program`` is a TracedArray or its ``to_layout``; ``data`` (if given) holds an
          array of the right shape for every input (else ``ProgramError``).
    Post: truthy iff ``materialize(to_layout(program), data) == buffer(program, data)``
          elementwise; else ``result.mismatch`` is the first disagreement.

    >>> from cutepy.program import trace
    >>> bool(check(trace((2, 3)).transpose(1, 0)))
    True
    """
    compiled = program if isinstance(program, CompiledProgram) else to_layout(program)
    _check_size(compiled.program)
    data = default_data(compiled.program) if data is None else _mapping(data, "check")
    buf = buffer(compiled.program, data)
    covered = np.zeros(buf.size, dtype=bool)
    checked = 0
    for k, p in enumerate(compiled.pieces):
        vals = np.asarray(piece_values(p, data))
        offs = p.offsets()
        what = f"piece {k} ({p.name})"
        bad_range = (offs < 0) | (offs >= buf.size)
        if bad_range.any():
            idx = tuple(int(i) for i in np.argwhere(bad_range)[0])
            return CheckReport(compiled, checked, Mismatch(
                f"{what} out of the buffer", k, idx, int(offs[idx]), vals[idx].item(), None))
        got = buf[offs]
        wrong = got != vals
        if wrong.any():
            idx = tuple(int(i) for i in np.argwhere(wrong)[0])
            hits = np.nonzero(buf == vals[idx])[0]
            return CheckReport(compiled, checked, Mismatch(
                what, k, idx, int(offs[idx]), vals[idx].item(), got[idx].item(),
                int(hits[0]) if hits.size == 1 else None))
        if p.view is not None:
            sub = check(p.view.child, data)
            if not sub:
                return CheckReport(compiled, checked, Mismatch(
                    f"{what}: the viewed program: {sub.mismatch.what}", k, sub.mismatch.index,
                    sub.mismatch.offset, sub.mismatch.expected, sub.mismatch.found))
            src_buf = buffer(p.source.parents[0], data)
            read = src_buf[_view_offsets(p)]
            wrong = read != vals
            if wrong.any():
                idx = tuple(int(i) for i in np.argwhere(wrong)[0])
                return CheckReport(compiled, checked, Mismatch(
                    f"{what}: its stride-0 view", k, idx, int(_view_offsets(p)[idx]),
                    vals[idx].item(), read[idx].item()))
        covered[offs.reshape(-1)] = True
        checked += vals.size
    stray = np.nonzero(~covered & (buf != 0))[0]
    if stray.size:
        s = int(stray[0])
        return CheckReport(compiled, checked, Mismatch("padding", None, None, s, 0, buf[s].item()))
    return CheckReport(compiled, checked, None)


def _view_offsets(p: Piece) -> np.ndarray:

    assert p.view is not None
    return logical_offsets(p.view.layout, p.view.shape)
