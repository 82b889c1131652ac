"""Slices of C++'s pointer-flag smem layouts (``Sw<B,M,S> o smem_ptr[b](unset) o L``, what
``tile_to_shape(GMMA::Layout_*_Atom<T>{}, ...)`` gives) at static (``Int<N>``) and run-time (``int``)
coordinates, as C++ prints them and the value at a few indices.

CUTLASS 4.7's ``slice_and_offset`` of a pointer-flag layout keeps the flag only when the slice's
offset is a static 0; any other offset, a run-time 0 included (hopper/wgmma_tma_sm90's
``sA(_,_,0)``), takes the flag's place: ``Sw o 0 o L``, the swizzle then on element offsets.

Stored in tests/data/flag_slice_cxx.txt. Regenerate (CUTLASS 4.7 headers)::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include PYTHONPATH=$PWD python -m tests.kernels.flag_slice_cxx
"""

from __future__ import annotations

from tests.paths import DATA

FILE = DATA / "flag_slice_cxx.txt"
INCLUDES = ("cute/tensor.hpp", "cute/atom/mma_traits_sm90_gmma.hpp")

#: (major, swizzle bytes, element type, tile (M, K, pipe))
LAYOUTS = (("MN", 128, "half_t", (128, 64, 3)), ("K", 128, "half_t", (128, 64, 2)),
           ("K", 64, "float", (64, 32, 4)), ("MN", 32, "uint8_t", (64, 64, 2)),
           ("K", 0, "half_t", (64, 64, 2)))
#: the pipe-stage slices: (kind, stage), kind 's' static Int<N>, 'd' run-time int
SLICES = (("s", 0), ("d", 0), ("s", 1), ("d", 2))
#: indices each slice is evaluated at
POINTS = (0, 1, 64, 577, 1000)

_SW = {0: "INTER", 32: "SW32", 64: "SW64", 128: "SW128"}


def name(case: tuple, sl: tuple) -> str:
    major, sw, dtype, tile = case
    return f"{major} {sw} {dtype} {'x'.join(map(str, tile))} {sl[0]}{sl[1]}"


def source(case: tuple, sl: tuple) -> str:
    major, sw, dtype, tile = case
    T = "cute::" + dtype if dtype.endswith("half_t") else dtype
    k = f"Int<{sl[1]}>{{}}" if sl[0] == "s" else f"int({sl[1]})"
    shape = ", ".join(f"Int<{t}>{{}}" for t in tile)
    lines = [f"auto L = tile_to_shape(GMMA::Layout_{major}_{_SW[sw]}_Atom<{T}>{{}}, make_shape({shape}));",
             f"auto S = L(_, _, {k});", "print(S);"]
    lines += [f'printf(" %d", int(S({p})));' for p in POINTS]
    return "\n".join(lines)


def cases() -> list[tuple[tuple, tuple]]:
    return [(c, s) for c in LAYOUTS for s in SLICES]


def read() -> dict[str, str]:
    out = {}
    for line in FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            k, v = line.split("\t")
            out[k] = v
    return out


def main() -> None:
    from tests.cxx import cxx_harness

    cs = cases()
    res = cxx_harness.run_cases([source(c, s) for c, s in cs], INCLUDES)
    head = "".join("# " + x + "\n" for x in (__doc__ or "").strip().splitlines())
    rows = []
    for (c, s), r in zip(cs, res):
        assert r.ok, r.error
        rows.append(f"{name(c, s)}\t{r.output.strip()}\n")
    FILE.write_text(head + "".join(rows))


if __name__ == "__main__":
    main()
