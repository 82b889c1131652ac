"""tcgen05.cp (``make_utccp_copy``, the DSL's ``make_s2t_copy``) against CUTLASS 4.7, compiled on the
host: for every UTCCP op, 32- and 16-bit elements and two TMEM tensors (128 lanes x a few columns,
and a 2-mode column block), C++ prints the TiledCopy, its ``TiledLayout_TV`` and ``Tiler_MN``.
Stored in tests/data/utccp_cxx47.txt; regenerate with::

    CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 python -m tests.kernels.utccp_cxx
"""

from __future__ import annotations

from cutepy.core.layout import Layout
from tests.kernels.atoms.atoms_cxx import read_table
from tests.paths import DATA

FILE = DATA / "utccp_cxx47.txt"
INCLUDES = ("cute/tensor.hpp", "cute/atom/copy_traits_sm100.hpp")
OPS = [f"SM100_UTCCP_{s}_{c}cta" for s in ("128dp256bit", "128dp128bit", "4x32dp128bit", "2x64dp128bitlw0213")
       for c in (1, 2)]
TYPES = {"float": 32, "half_t": 16}


def tmem_layouts(bits: int) -> list[Layout]:
    """TMEM tensors of ``bits``-bit values: (128 lanes, 8 or 16 columns of 32 bits), lane step ``DP``."""
    dp = 65536 << (32 // bits).bit_length() - 1 if bits < 32 else 65536
    per = 32 // bits
    return [Layout((128, 8 * per), (dp, 1)), Layout((128, (4 * per, 4)), (dp, (1, 4 * per)))]


def cases() -> list[tuple[str, str, Layout]]:
    return [(op, t, L) for op in OPS for t, bits in TYPES.items() for L in tmem_layouts(bits)]


def key(op: str, t: str, L: Layout) -> str:
    return f"{op}/{t}/{L}"


def _cxx_tuple(x) -> str:
    if isinstance(x, tuple):
        return "make_shape(" + ", ".join(_cxx_tuple(e) for e in x) + ")"
    return f"Int<{x}>{{}}"


def cxx_case(op: str, t: str, L: Layout) -> str:
    lay = f"make_layout({_cxx_tuple(L.shape)}, {_cxx_tuple(L.stride).replace('make_shape', 'make_stride')})"
    return (f"auto t = make_tensor(make_tmem_ptr<{t}>(0), {lay}); auto tc = make_utccp_copy({op}{{}}, t);"
            ' print(typename decltype(tc)::TiledLayout_TV{}); printf("|");'
            ' print(typename decltype(tc)::Tiler_MN{}); printf("|"); print(tc);')


def main() -> None:
    from tests.cxx import cxx_harness

    if cxx_harness.cutlass_version() != "4.7.0":
        raise SystemExit("set CUTEPY_CXX_CUTLASS to CUTLASS 4.7's include directory")
    cs = cases()
    res = cxx_harness.run_cases([cxx_case(*c) for c in cs], INCLUDES)
    rows = []
    for c, r in zip(cs, res):
        out = cxx_harness.normalise(r.output).replace("\n", "\\n") if r.ok else "rejected"
        rows.append(f"{key(*c)}\t{out}\n")
    head = ("# C++ CuTe (CUTLASS 4.7.0) make_utccp_copy prints, static-integer underscores dropped, "
            "newlines as \\n.\n"
            "# Regenerate: CUTEPY_CXX_CUTLASS=/work/cutlass47/include CUTEPY_CXX_JOBS=1 "
            "python -m tests.kernels.utccp_cxx\n")
    FILE.write_text(head + "".join(rows))


STORED = read_table(FILE) if FILE.exists() else {}

if __name__ == "__main__":
    main()
