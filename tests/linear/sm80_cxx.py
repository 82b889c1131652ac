"""C++ side of solve_swizzle's SM80 check: CUTLASS's SM80 shared-memory layouts, tiled and
untiled, as C++ CuTe prints them (stored in tests/data/linear_sm80_cxx47.txt).

Each case is a swizzled smem atom as a CUTLASS 4.7 source writes it (the file and line are in
the case's name) tiled to a CTA tile with ``tile_to_shape``; C++ prints the tiled layout
without the swizzle and with it. The test hands both prints to ``solve_swizzle`` and expects
the swizzle C++ printed. Regenerate the stored prints with CUTLASS 4.7's headers::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include PYTHONPATH=$PWD python -m tests.linear.sm80_cxx

(needs g++ and the CUDA header wheels of the test extras; see tests/cxx/cxx_harness.py).
"""

from __future__ import annotations

from cutepy import Layout, Swizzle
from cutepy.emit import cpp
from tests.cxx import cxx_harness
from tests.paths import DATA

FILE = DATA / "linear_sm80_cxx47.txt"

#: (name, swizzle, atom, CTA tile): the atoms of examples/cute/tutorial/sgemm_sm80.cu:358 (the TN
#: half-precision sA/sB atom) and test/unit/cute/ampere/cooperative_copy.cu (fp16 K- and MN-major,
#: tf32, int8), named by file and line
CASES = [
    ("sgemm_sm80.cu:358 fp16", Swizzle(3, 3, 3), Layout((8, (8, 8)), (8, (1, 64))), (128, 64)),
    ("cooperative_copy.cu:443 fp16", Swizzle(3, 3, 3), Layout((8, 64), (64, 1)), (64, 64)),
    ("cooperative_copy.cu:456 tf32", Swizzle(3, 2, 3), Layout((8, 32), (32, 1)), (128, 32)),
    ("cooperative_copy.cu:473 int8", Swizzle(2, 4, 3), Layout((16, 64), (64, 1)), (128, 64)),
    ("cooperative_copy.cu:555 fp16 MN-major", Swizzle(3, 3, 3), Layout((64, 8), (1, 64)), (128, 64)),
]


def case_source(sw: Swizzle, atom: Layout, tile: tuple[int, ...]) -> str:
    """C++ printing ``tile_to_shape(atom, tile)``, then ``|``, then the swizzled atom so tiled."""
    shape = "Shape<" + ",".join(f"Int<{t}>" for t in tile) + ">{}"
    a = cpp(atom)
    return (
        f"print(tile_to_shape({a}, {shape})); printf(\"|\"); "
        f"print(tile_to_shape(composition({cpp(sw)}, {a}), {shape}));"
    )


def read() -> dict[str, list[str]]:
    out = {}
    for line in FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            key, rest = line.split("\t", 1)
            out[key] = rest.split("|")
    return out


def main() -> None:
    reason = cxx_harness.compiler_reason()
    if reason is not None:
        raise SystemExit(f"C++ unavailable: {reason}")
    res = cxx_harness.run_cases([case_source(sw, atom, tile) for _, sw, atom, tile in CASES])
    if not all(r.ok for r in res):
        raise SystemExit(f"C++ rejected {[r.error[:300] for r in res if not r.ok][:2]}")
    head = (
        f"# C++ CuTe prints (CUTLASS {cxx_harness.cutlass_version()}), static-integer underscores dropped:\n"
        "# name<TAB>tile_to_shape(atom, tile)|tile_to_shape(composition(Swizzle, atom), tile)\n"
        "# Regenerate: CUTEPY_CXX_CUTLASS=/work/cutlass47/include PYTHONPATH=$PWD "
        "python -m tests.linear.sm80_cxx\n"
    )
    rows = "".join(f"{name}\t{cxx_harness.normalise(r.output)}\n" for (name, *_), r in zip(CASES, res))
    FILE.write_text(head + rows)


if __name__ == "__main__":
    main()
