"""TPU-MLIR local-memory layouts as traced programs, and a helper for them.

A SOPHON BM1684X splits its local memory (LMEM) into 64 partitions, one per NPU
lane; an NPU cannot read another lane's partition, and the partitions' addresses run
on from one to the next. Each NPU has several execution units (EUs); how many
elements they take at once depends on the data type. A 4-D tensor ``(n, c, h, w)``
sits in LMEM with channel ``c`` on lane ``c % npus`` (``ceil(c / npus)`` channels per
lane) and, in the *aligned* layout, each channel's ``h*w`` block rounded up to a
multiple of the EU count. The TPU-MLIR article writes this as a numpy program:

>>> b = lmem_program(2, 5, 2, 3, npus=4, eus=4)
>>> b
TracedArray(resize(a.reshape(2, 5, 6), (2, 8, 8)).reshape(2, 2, 4, 2, 4).transpose(2, 0, 1, 3, 4))
>>> L = lmem_layout(2, 5, 2, 3, npus=4, eus=4)
>>> L.layout, L.lane_shape, L.lane_strides
((2,(4,2),2,3):(16,(32,8),3,1), (2, 2, 2, 3), (16, 8, 3, 1))
>>> L.used, L.allocated, L.lost_to_lanes, L.lost_to_eus
(60, 128, 48, 20)

Convolution weights ``(oc, ic, kh, kw)`` keep ``ic`` innermost, in groups of ``eus``,
and spread ``oc`` over the lanes; the bias is stored compact and merged in front of
the weights by ``concatenate`` so that one DMA loads both
(:func:`conv_weight_program`, :func:`conv_bias_program`, :func:`weight_bias_program`;
the article's literal programs are :func:`tpu_mlir_lmem_programs`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.layout import Layout
from ..core.lazy import load
from .compiler import CompiledProgram, to_layout
from .trace import ProgramError, TracedArray, concatenate, resize, trace

np = load("numpy")  # numpy loads on first use (the module's import needs none)


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _align(a: int, b: int) -> int:
    return _ceil_div(a, b) * b


def _positive(what: str, **vals: int) -> None:
    for k, v in vals.items():
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise ProgramError(f"{what}: {k}={v!r} is not an integer")
        if v < 1:
            raise ProgramError(f"{what}: {k}={v} must be positive")


def lmem_program(n: int, c: int, h: int, w: int, *, npus: int, eus: int, aligned: bool = True,
                 lane_stride: int | None = None, name: str = "a") -> TracedArray:
    """The article's program for ``(n, c, h, w)`` data in LMEM over ``npus`` lanes.

    The result has shape ``(npus, n, c', h', w')``: ``c' = ceil(c / npus)`` channels per
    lane and, aligned, ``h*w`` rounded up to ``h' * w'`` with ``w' = eus`` (compact:
    ``(npus, n, c', h*w)``). ``lane_stride`` (elements), when given, spaces the lanes
    that far apart (the partition size) instead of packing them.

    Pre:  positive sizes (as :func:`lmem_layout`).
    Post: ``to_layout(result)`` sends ``(n, c, h, w)`` where ``lmem_layout`` does.

    >>> lmem_program(1, 3, 2, 2, npus=2, eus=4, aligned=False).shape
    (2, 1, 2, 4)
    >>> lmem_program(1, 3, 2, 2, npus=2, eus=4, lane_stride=16).shape
    (2, 16)
    """
    _positive("lmem_program", n=n, c=c, h=h, w=w, npus=npus, eus=eus)
    cpn = _ceil_div(c, npus)
    hw = h * w
    a = trace((n, c, h, w), name)
    b = a.reshape(n, c, hw)
    if aligned:
        hwa = _align(hw, eus)
        b = resize(b, (n, cpn * npus, hwa)).reshape(n, cpn, npus, hwa // eus, eus)
        b = b.transpose(2, 0, 1, 3, 4)
    else:
        hwa = hw
        b = resize(b, (n, cpn * npus, hw)).reshape(n, cpn, npus, hw).transpose(2, 0, 1, 3)
    if lane_stride is not None:
        _positive("lmem_program", lane_stride=lane_stride)
        lane = n * cpn * hwa
        if lane_stride < lane:
            raise ProgramError(f"lmem_program: lane_stride={lane_stride} is smaller than the "
                               f"{lane} elements each lane holds")
        b = resize(b.reshape(npus, lane), (npus, lane_stride))
    return b


@dataclass(frozen=True)
class LmemLayout:
    """Where ``(n, c, h, w)`` data sits in LMEM: the layout and the memory it costs.

    ``layout`` sends a logical ``(n, c, h, w)`` to its offset in the lanes laid end to
    end (lane ``l`` starts at ``l * lane_stride``). Inside a lane, data has shape
    ``lane_shape = (n, c', h, w)`` with strides ``lane_strides``; ``lane_layout`` is that
    CuTe layout. Counts are in elements; ``lost = allocated - used`` splits into channel
    slots left empty on the last lanes (``lost_to_lanes``) and the EU round-up of each
    channel (``lost_to_eus``).

    >>> L = lmem_layout(1, 3, 4, 4, npus=2, eus=4)
    >>> L.layout, L.used, L.lost
    ((1,(2,2),4,4):(32,(32,16),4,1), 48, 16)
    """

    n: int
    c: int
    h: int
    w: int
    npus: int
    eus: int
    aligned: bool
    program: TracedArray
    compiled: CompiledProgram
    lane_stride: int

    @property
    def layout(self) -> Layout:
        return self.compiled.layout

    @property
    def c_per_npu(self) -> int:
        return _ceil_div(self.c, self.npus)

    @property
    def channel_stride(self) -> int:
        """Elements per channel in a lane: ``h*w``, rounded up to ``eus`` when aligned."""
        hw = self.h * self.w
        return _align(hw, self.eus) if self.aligned else hw

    @property
    def lane_shape(self) -> tuple[int, int, int, int]:
        return (self.n, self.c_per_npu, self.h, self.w)

    @property
    def lane_strides(self) -> tuple[int, int, int, int]:
        cs = self.channel_stride
        return (self.c_per_npu * cs, cs, self.w, 1)

    @property
    def lane_layout(self) -> Layout:
        return Layout(self.lane_shape, self.lane_strides)

    @property
    def lane_size(self) -> int:
        """Elements each lane holds (padding included)."""
        return self.n * self.c_per_npu * self.channel_stride

    @property
    def used(self) -> int:
        return self.n * self.c * self.h * self.w

    @property
    def allocated(self) -> int:
        return self.npus * self.lane_size

    @property
    def lost(self) -> int:
        return self.allocated - self.used

    @property
    def lost_to_lanes(self) -> int:
        return self.n * (self.npus * self.c_per_npu - self.c) * self.channel_stride

    @property
    def lost_to_eus(self) -> int:
        return self.n * self.c * (self.channel_stride - self.h * self.w)

    def lane_of(self, c: int) -> int:
        """The NPU lane that holds channel ``c``."""
        return c % self.npus

    def __str__(self) -> str:
        return (f"lmem (n,c,h,w)={(self.n, self.c, self.h, self.w)} on {self.npus} NPUs, "
                f"{self.eus} EUs{'' if self.aligned else ', compact'}: {self.layout}\n"
                f"  each lane: shape {self.lane_shape}, strides {self.lane_strides}, "
                f"{self.lane_size} elements\n"
                f"  used {self.used} of {self.allocated}: {self.lost} lost "
                f"({self.lost_to_lanes} to empty channel slots, {self.lost_to_eus} to EU alignment)")

    __repr__ = __str__


def lmem_layout(n: int, c: int, h: int, w: int, *, npus: int = 64, eus: int, aligned: bool = True,
                lane_stride: int | None = None) -> LmemLayout:
    """The LMEM layout of ``(n, c, h, w)`` data (the BM1684X has 64 NPUs; the EU count
    depends on the data type, so it has no default).

    Pre:  positive sizes; ``lane_stride`` (if given) at least the lane's footprint (else
          ``ProgramError``).
    Post: ``layout(n, c, h, w)`` is the offset; ``used == n*c*h*w`` and
          ``lost == allocated - used == lost_to_lanes + lost_to_eus``.

    >>> L = lmem_layout(1, 3, 224, 224, eus=16)
    >>> L.lane_shape, L.lane_strides, L.lost
    ((1, 1, 224, 224), (50176, 50176, 224, 1), 3060736)
    """
    prog = lmem_program(n, c, h, w, npus=npus, eus=eus, aligned=aligned, lane_stride=lane_stride)
    compiled = to_layout(prog)
    cpn = _ceil_div(c, npus)
    lane = n * cpn * (_align(h * w, eus) if aligned else h * w)
    return LmemLayout(n, c, h, w, npus, eus, aligned, prog, compiled,
                      lane if lane_stride is None else lane_stride)


def conv_weight_program(oc: int, ic: int, kh: int, kw: int, *, npus: int, eus: int,
                        name: str = "weight") -> TracedArray:
    """The article's weight reorder: ``(oc, ic, kh, kw)`` to ``(npus, oc', ic', kh*kw, eus)``,
    with ``oc`` on lane ``oc % npus`` and ``ic`` in EU-sized groups, innermost.

    Pre:  all sizes positive integers.
    Post: shape ``(npus, ceil(oc / npus), ceil(ic / eus), kh*kw, eus)``; channel ``oc`` on lane
          ``oc % npus``.

    >>> conv_weight_program(2, 5, 2, 3, npus=4, eus=4, name="a").describe()
    'resize(a.reshape(2, 5, 6), (4, 8, 6)).reshape(1, 4, 2, 4, 6).transpose(1, 0, 2, 4, 3)'
    """
    _positive("conv_weight_program", oc=oc, ic=ic, kh=kh, kw=kw, npus=npus, eus=eus)
    ocn, icn = _ceil_div(oc, npus), _ceil_div(ic, eus)
    c = trace((oc, ic, kh, kw), name).reshape(oc, ic, kh * kw)
    return resize(c, (ocn * npus, icn * eus, kh * kw)).reshape(ocn, npus, icn, eus, kh * kw) \
        .transpose(1, 0, 2, 4, 3)


def conv_bias_program(channels: int, *, npus: int, eus: int, name: str = "bias") -> TracedArray:
    """The article's bias layout: channel ``k`` on lane ``k % npus``, compact in the lane
    (``ceil(channels / npus)`` values), the lane's block rounded up to ``eus``.

    Pre:  ``channels``, ``npus`` and ``eus`` are positive integers.
    Post: shape ``(npus, 1, 1, 1, eus * ceil(ceil(channels / npus) / eus))``: channel ``k`` at
          lane ``k % npus``, position ``k // npus``.

    >>> conv_bias_program(5, npus=4, eus=4, name="d").shape
    (4, 1, 1, 1, 4)
    """
    _positive("conv_bias_program", channels=channels, npus=npus, eus=eus)
    cpn = _ceil_div(channels, npus)
    d = trace((channels,), name).reshape(1, channels, 1, 1)
    d = resize(d, (1, cpn * npus, 1, 1)).reshape(1, cpn, npus, 1, 1).transpose(2, 0, 3, 4, 1)
    return resize(d, (npus, 1, 1, 1, _align(cpn, eus)))


def weight_bias_program(oc: int, ic: int, kh: int, kw: int, *, npus: int, eus: int,
                        bias_channels: int | None = None,
                        names: tuple[str, str] = ("weight", "bias")) -> TracedArray:
    """Bias then weights in each lane, one buffer: the article's ``concatenate`` on axis 1
    of ``(npus, -1, eus)`` views. ``bias_channels`` defaults to ``oc``.

    Pre:  as :func:`conv_weight_program` and :func:`conv_bias_program`.
    Post: shape ``(npus, bias columns + weight columns, eus)``: each lane holds its bias, then
          its weights.

    >>> weight_bias_program(2, 5, 2, 3, npus=4, eus=4).shape
    (4, 13, 4)
    """
    wt = conv_weight_program(oc, ic, kh, kw, npus=npus, eus=eus, name=names[0])
    bias = conv_bias_program(oc if bias_channels is None else bias_channels, npus=npus, eus=eus,
                             name=names[1])
    return concatenate([bias.reshape(npus, -1, eus), wt.reshape(npus, -1, eus)], axis=1)


def tpu_mlir_lmem_programs() -> dict[str, TracedArray]:
    """The article's four programs, verbatim (4 NPUs, 4 EUs), over its inputs ``a`` (2, 5, 2, 3)
    and ``d`` (5,):

    - ``"lmem"``: ``b = resize(a.reshape(2,5,6), (2,8,8)).reshape(2,2,4,2,4).transpose(2,0,1,3,4)``
    - ``"weight"``: ``c = resize(a.reshape(2,5,6), (1*4,2*4,6)).reshape(1,4,2,4,6).transpose(1,0,2,4,3)``
    - ``"bias"``: ``d = resize(d.reshape(1,5,1,1), (1,2*4,1,1)).reshape(1,2,4,1,1).transpose(2,0,3,4,1)``
      then the EU round-up to ``<4x1x1x1x4>``. The article's text writes that last step
      ``.resize(4,1,2,1,4)``, which contradicts its own comment and the
      ``d.reshape(4,1,4)`` that follows (16 elements); cutepy follows the comment.
      The article's bias also has 5 entries (one per *input* channel of its example) where
      a convolution's bias has ``oc = 2``; the program is kept as written.
    - ``"merged"``: ``e = concatenate((d.reshape(4,1,4), c.reshape(4,12,4)), axis=1)``

    Pre:  none.
    Post: the four programs keyed as above; each passes :func:`~cutepy.program.check`.

    >>> {k: v.shape for k, v in tpu_mlir_lmem_programs().items()}
    {'lmem': (4, 2, 2, 2, 4), 'weight': (4, 1, 2, 6, 4), 'bias': (4, 1, 1, 1, 4), 'merged': (4, 13, 4)}
    """
    lm = lmem_program(2, 5, 2, 3, npus=4, eus=4, name="a")
    wt = conv_weight_program(2, 5, 2, 3, npus=4, eus=4, name="a")
    bias = conv_bias_program(5, npus=4, eus=4, name="d")
    merged = concatenate([bias.reshape(4, 1, 4), wt.reshape(4, 12, 4)], axis=1)
    return {"lmem": lm, "weight": wt, "bias": bias, "merged": merged}


def tpu_mlir_lmem_data() -> dict[str, np.ndarray]:
    """The article's data: ``a = arange(60).reshape(2,5,2,3)``, ``d = arange(60, 65)``.

    Pre:  none.
    Post: ``{"a": ..., "d": ...}``, fresh arrays on each call.

    >>> data = tpu_mlir_lmem_data()
    >>> sorted(data), data["a"].shape, data["d"].tolist()
    (['a', 'd'], (2, 5, 2, 3), [60, 61, 62, 63, 64])
    """
    return {"a": np.arange(60).reshape(2, 5, 2, 3), "d": np.arange(60, 65)}
