"""Triton's own answers for Gluon layouts as linear layouts: the oracle of ``tests/linear``.

Run with a Python that has Triton (no GPU needed; Triton converts layouts on the CPU)::

    python -m venv /work/venvs/triton && /work/venvs/triton/bin/pip install 'triton==3.9.*'
    /work/venvs/triton/bin/python benchmarks/triton_oracle.py --seed 23 --per-family 40 \
        --out tests/data/triton_linear_layouts.json

For seeded random Gluon specs of every family (BlockedLayout, NVMMADistributedLayout v2/v3,
DotOperandLayout of an NVIDIA or AMD mma parent, SliceLayout, SwizzledSharedLayout, NVMMASharedLayout,
AMDMFMALayout) on 1-D..3-D shapes (broadcast shapes included), it stores the spec as Gluon
prints it and as a dict, Triton's bases and out-dims (``GluonOpBuilder.to_linear_layout``),
its flags (is_injective/is_surjective/is_invertible), its ``invert()`` where invertible and
``pseudoinvert()`` where surjective (``triton._C.libtriton.linear_layout``). A spec Triton
rejects (a Python assertion, or a C++ fatal error that ends the process) is stored with
``"rejected"`` and the message. Random layout pairs record Triton's ``compose``.
Each spec is converted in a child process, so a fatal error in Triton loses only that case.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys

FAMILIES = (
    "BlockedLayout",
    "NVMMADistributedLayout",
    "DotOperandLayout",
    "SliceLayout",
    "SwizzledSharedLayout",
    "NVMMASharedLayout",
    "AMDMFMALayout",
)


def _split(rng: random.Random, total: int, rank: int) -> list[int]:
    """``total`` (a power of two) split into ``rank`` powers of two."""
    out = [1] * rank
    while total > 1:
        out[rng.randrange(rank)] *= 2
        total //= 2
    return out


def _shape(rng: random.Random, rank: int, lo: int = 0, hi: int = 8, total: int = 14) -> list[int]:
    while True:
        s = [2 ** rng.randint(lo, hi) for _ in range(rank)]
        prod = 1
        for x in s:
            prod *= x
        if prod <= 2**total:
            return s


def _cga(rng: random.Random, rank: int) -> list[list[int]]:
    if rng.random() < 0.7:
        return []
    bases = []
    used = [0] * rank
    for _ in range(rng.randint(1, 2)):
        if rng.random() < 0.2:
            bases.append([0] * rank)  # a broadcast block
            continue
        d = rng.randrange(rank)
        b = [0] * rank
        b[d] = 1 << used[d]
        used[d] += 1
        bases.append(b)
    return bases


def _blocked(rng: random.Random, rank: int) -> dict:
    order = list(range(rank))
    rng.shuffle(order)
    return {
        "kind": "BlockedLayout",
        "size_per_thread": [2 ** rng.randint(0, 3) for _ in range(rank)],
        "threads_per_warp": _split(rng, 32, rank),
        "warps_per_cta": _split(rng, 2 ** rng.randint(0, 3), rank),
        "order": order,
        "cga_layout": _cga(rng, rank),
    }


def _mma(rng: random.Random, rank: int, version: int | None = None) -> dict:
    version = version or rng.choice([2, 3])
    if version == 3:
        rank = 2
        warps = [4 * w for w in _split(rng, 2 ** rng.randint(0, 1), 1)] + [1]
        if rng.random() < 0.4:
            warps = [4, 2]
        return {
            "kind": "NVMMADistributedLayout",
            "version": [3, 0],
            "warps_per_cta": warps,
            "instr_shape": [16, 2 ** rng.randint(3, 8), 16],
            "cga_layout": _cga(rng, 2),
        }
    warps = _split(rng, 2 ** rng.randint(0, 3), rank)
    instr = [16, 8] if rank == 2 else [1, 16, 8]
    return {
        "kind": "NVMMADistributedLayout",
        "version": [2, 0],
        "warps_per_cta": warps,
        "instr_shape": instr,
        "cga_layout": _cga(rng, rank),
    }


def _mfma(rng: random.Random, rank: int) -> dict:
    m = rng.choice([16, 32])
    return {
        "kind": "AMDMFMALayout",
        "version": rng.choice([3, 4]),
        "instr_shape": [m, m, rng.choice([8, 16]) if m == 32 else rng.choice([16, 32])],
        "transposed": rng.random() < 0.5,
        "warps_per_cta": _split(rng, 2 ** rng.randint(0, 3), rank),
        "element_bitwidth": rng.choice([32, 32, 64]),
        "tiles_per_warp": [rng.choice([1, 2, 4]) for _ in range(rank)] if rng.random() < 0.3 else [1] * rank,
        "cga_layout": [],
    }


def _dot(rng: random.Random, rank: int) -> dict:
    if rng.random() < 0.3:  # an AMD MFMA parent
        parent = _mfma(rng, rank)
        op = rng.randint(0, 1)
        k_width = rng.choice([1, 2, 4, 8, 16])
    else:
        parent = _mma(rng, rank)
        op = 0 if parent["version"][0] == 3 else rng.randint(0, 1)
        k_width = rng.choice([1, 2, 4, 8])
    return {"kind": "DotOperandLayout", "operand_index": op, "parent": parent, "k_width": k_width}


def _slice(rng: random.Random, rank: int) -> dict:
    r = rank + 1
    if r > 3:
        r = 3
    parent = rng.choice([_blocked, _blocked, _mma, _dot, _mfma])(rng, r)
    prank = len(parent.get("warps_per_cta", parent.get("order", [])) or parent["parent"]["warps_per_cta"])
    return {"kind": "SliceLayout", "dim": rng.randrange(prank), "parent": parent}


def _swizzled(rng: random.Random, rank: int) -> dict:
    order = list(range(rank))
    rng.shuffle(order)
    return {
        "kind": "SwizzledSharedLayout",
        "vec": 2 ** rng.randint(0, 3),
        "per_phase": 2 ** rng.randint(0, 2),
        "max_phase": 2 ** rng.randint(0, 3),
        "order": order,
        "cga_layout": _cga(rng, rank),
    }


def _nvmma_shared(rng: random.Random, rank: int) -> dict:
    rank = max(rank, 2)
    bits = rng.choice([8, 16, 32])
    fp4 = bits == 8 and rng.random() < 0.2
    return {
        "kind": "NVMMASharedLayout",
        "swizzle_byte_width": 128 if fp4 else rng.choice([0, 32, 64, 128]),
        "element_bitwidth": bits,
        "rank": rank,
        "transposed": rng.random() < 0.4,
        "fp4_padded": fp4,
        "cga_layout": _cga(rng, rank),
    }


MAKERS = {
    "BlockedLayout": _blocked,
    "NVMMADistributedLayout": _mma,
    "DotOperandLayout": _dot,
    "SliceLayout": _slice,
    "SwizzledSharedLayout": _swizzled,
    "NVMMASharedLayout": _nvmma_shared,
    "AMDMFMALayout": _mfma,
}


def _rank_of(spec: dict) -> int:
    if spec["kind"] == "SliceLayout":
        return _rank_of(spec["parent"]) - 1
    if spec["kind"] == "DotOperandLayout":
        return _rank_of(spec["parent"])
    if spec["kind"] == "NVMMASharedLayout":
        return spec["rank"]
    for key in ("order", "warps_per_cta"):
        if key in spec:
            return len(spec[key])
    raise AssertionError(spec)


def make_specs(seed: int, per_family: int) -> list[dict]:
    rng = random.Random(seed)
    cases = []
    for fam in FAMILIES:
        for _ in range(per_family):
            rank = (
                rng.choice([1, 2, 2, 2, 3])
                if fam in ("BlockedLayout", "SwizzledSharedLayout")
                else rng.choice([2, 2, 3])
            )
            spec = MAKERS[fam](rng, rank)
            r = _rank_of(spec)
            lo = (
                (0 if rng.random() < 0.3 else 2) if fam != "NVMMASharedLayout" else 3
            )  # small (broadcast) shapes now and then
            shape = _shape(rng, r, lo=lo, hi=8 if r < 3 else 5)
            cases.append({"family": fam, "spec": spec, "shape": shape})
    return cases


#: NVMMA shared layouts on shapes past one TMA box (a dim > 256, rank 3, fp4 padding,
#: transposed), where the collapse/reshape of Triton's construction matters
LARGE_NVMMA = [
    (128, 16, [512, 64], False, False),
    (128, 16, [4, 512, 64], False, False),
    (64, 16, [2, 64, 256], True, False),
    (64, 16, [64, 512], True, False),
    (128, 8, [16, 512], False, True),
    (128, 8, [2, 16, 256], False, True),
    (32, 32, [1024, 16], False, False),
    (128, 16, [8, 8, 512], False, False),
    (128, 32, [512, 32, 8], True, False),
    (0, 16, [512, 64], False, False),
    (0, 8, [4, 512, 32], False, False),
    (128, 16, [2, 4, 64], False, False),
]


def large_cases() -> list[dict]:
    out = []
    for swizzle, bits, shape, transposed, fp4 in LARGE_NVMMA:
        spec = {
            "kind": "NVMMASharedLayout",
            "swizzle_byte_width": swizzle,
            "element_bitwidth": bits,
            "rank": len(shape),
            "transposed": transposed,
            "fp4_padded": fp4,
            "cga_layout": [],
        }
        out.append({"family": "NVMMASharedLayout", "spec": spec, "shape": shape})
    return out


#: the families the first random sample held thinly, each drawn on its own (``--focus``): the
#: corners of Triton's NVMMA shared construction (transposed without swizzle at rank > 2, fp4
#: padding, swizzled rank 3-4), slices of rank-3 parents, AMD MFMA layouts transposed (and their
#: dot operands)
FOCUS = (
    "nvmma_unswizzled_transposed",
    "nvmma_fp4_padded",
    "nvmma_swizzled_rank3",
    "slice_of_rank3",
    "mfma_transposed",
)


def _nvmma_spec(rng: random.Random, rank: int, swizzle: int, bits: int, transposed: bool, fp4: bool) -> dict:
    return {
        "kind": "NVMMASharedLayout",
        "swizzle_byte_width": swizzle,
        "element_bitwidth": bits,
        "rank": rank,
        "transposed": transposed,
        "fp4_padded": fp4,
        "cga_layout": _cga(rng, rank),
    }


def _focus_case(rng: random.Random, focus: str) -> dict:
    if focus == "nvmma_unswizzled_transposed":
        rank = rng.choice([3, 3, 4])
        spec = _nvmma_spec(rng, rank, 0, rng.choice([8, 16, 32, 64]), rng.random() < 0.85, False)
        shape = _shape(rng, rank, lo=0, hi=9, total=16)
    elif focus in ("nvmma_fp4_padded", "nvmma_swizzled_rank3"):
        fp4 = focus == "nvmma_fp4_padded"
        rank = rng.choice([2, 2, 3]) if fp4 else rng.choice([3, 3, 4])
        bits = 8 if fp4 else rng.choice([8, 16, 32])
        swizzle = 128 if fp4 else rng.choice([32, 64, 128])
        spec = _nvmma_spec(rng, rank, swizzle, bits, rng.random() < 0.5, fp4)
        shape = _shape(rng, rank, lo=1, hi=8, total=16)
        if rng.random() < 0.85:  # mostly tiles that hold one swizzle span (8 rows of it), so Triton accepts
            contig = 0 if spec["transposed"] else rank - 1
            shape[contig] = max(shape[contig], 8 * swizzle // bits // (2 if fp4 else 1))
            other = rng.choice([d for d in range(rank) if d != contig])
            shape[other] = max(shape[other], 8)
    elif focus == "slice_of_rank3":
        parent = rng.choice([_blocked, _mma, _dot, _mfma])(rng, 3)
        while _rank_of(parent) != 3:  # an MMA v3 parent is rank 2
            parent = rng.choice([_blocked, _dot])(rng, 3)
        spec = {"kind": "SliceLayout", "dim": rng.randrange(3), "parent": parent}
        shape = _shape(rng, 2, lo=0 if rng.random() < 0.3 else 2, hi=8)
    elif focus == "mfma_transposed":
        rank = rng.choice([2, 2, 3])
        spec = _mfma(rng, rank)
        spec["transposed"] = True
        if rng.random() < 0.4:
            spec = {
                "kind": "DotOperandLayout",
                "operand_index": rng.randint(0, 1),
                "parent": spec,
                "k_width": rng.choice([1, 2, 4, 8, 16]),
            }
        shape = _shape(rng, rank, lo=0 if rng.random() < 0.3 else 2, hi=8 if rank < 3 else 5)
    else:
        raise ValueError(focus)
    return {"family": spec["kind"], "focus": focus, "spec": spec, "shape": shape}


#: unswizzled NVMMA shared layouts past one TMA box in two dims (the order in which Triton grows
#: them), and one whose 2**32 offsets leave its inverses beyond Triton's int32 bases
LARGE_UNSWIZZLED = [
    (16, [512, 512, 2], False),
    (16, [512, 2, 512], False),
    (16, [1024, 512], True),
    (16, [512, 1024], True),
    (16, [512, 2, 1024], True),
    (64, [256, 1, 1, 256], True),
]


def focus_specs(seed: int, per_family: int) -> list[dict]:
    rng = random.Random(seed)
    cases = [_focus_case(rng, f) for f in FOCUS for _ in range(per_family)]
    for bits, shape, transposed in LARGE_UNSWIZZLED:
        spec = _nvmma_spec(rng, len(shape), 0, bits, transposed, False)
        spec["cga_layout"] = []
        large = {"family": spec["kind"], "focus": "nvmma_unswizzled_large", "spec": spec, "shape": shape}
        cases.append(large)
    return cases


# --- the child: Triton's answers for one batch --------------------------------------------------


def _gluon(spec: dict):
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon.language import amd as gla

    kw = {k: v for k, v in spec.items() if k != "kind"}
    if "parent" in kw:
        kw["parent"] = _gluon(kw["parent"])
    cls = getattr(gla, spec["kind"], None) if spec["kind"].startswith("AMD") else getattr(gl, spec["kind"])
    if cls is None:
        from triton.experimental.gluon.language.amd import _layouts as amd_layouts

        cls = getattr(amd_layouts, spec["kind"])
    return cls(**kw)


def _ll_dict(ll) -> dict:
    """bases as a list of [in_dim, bases] pairs and out_dims as [name, size] pairs."""
    return {
        "bases": [[name, [list(b) for b in bs]] for name, bs in ll.bases],
        "out_dims": [[name, size] for name, size in ll.out_dims],
    }


#: Triton's bases are int32: an inverse whose outputs (the layout's inputs) reach 2**31 would
#: overflow them, and Triton ends the process; such a layout's inverses are not asked for
MAX_INVERSE_BITS = 30


def _answers(ll, in_bits: int) -> dict:
    out = _ll_dict(ll)
    out["flags"] = {
        "injective": ll.is_injective(),
        "surjective": ll.is_surjective(),
        "invertible": ll.is_invertible(),
    }
    if in_bits > MAX_INVERSE_BITS:
        out["no_inverses"] = f"{in_bits} input bits: Triton's int32 bases cannot hold its inverses"
        return out
    if ll.is_invertible():
        out["invert"] = _ll_dict(ll.invert())
    if ll.is_surjective():
        out["pseudo_invert"] = _ll_dict(ll.pseudoinvert())
    return out


def _triton_ll(bases, out_dims):
    from triton._C.libtriton.linear_layout import LinearLayout

    return LinearLayout.from_bases(
        [(n, b) for n, b in bases],
        [n for n, _ in out_dims],
        [s for _, s in out_dims],
        require_surjective=False,
    )


def child(cases: list[dict]) -> list[dict]:
    from triton._C.libtriton import gluon_ir, ir

    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    out = []
    for case in cases:
        if "algebra" in case:
            a = _triton_ll(*case["algebra"]["a"])
            b = _triton_ll(*case["algebra"]["b"])
            out.append({"compose": _ll_dict(a.compose(b))})
            continue
        try:
            layout = _gluon(case["spec"])
            text = repr(layout)
            dll = builder.to_linear_layout(layout._to_ir(builder), case["shape"])
        except Exception as e:  # Triton rejected the spec in Python
            out.append({"rejected": f"{type(e).__name__}: {e}"})
            continue
        shared = "Shared" in case["spec"]["kind"]
        if shared:
            bases = [("offset", dll.offset_bases), ("block", dll.block_bases)]
        else:
            bases = [
                ("register", dll.reg_bases),
                ("lane", dll.lane_bases),
                ("warp", dll.warp_bases),
                ("block", dll.block_bases),
            ]
        rank = len(case["shape"])
        outs = [(f"dim{i}", case["shape"][i]) for i in range(rank)]
        ll = _triton_ll(bases, outs)
        got = _answers(ll, sum(len(b) for _, b in bases))
        got["text"] = text
        out.append(got)
    return out


def _run_child(cases: list[dict]) -> list[dict] | None:
    p = subprocess.run(
        [sys.executable, __file__, "--child"], input=json.dumps(cases), capture_output=True, text=True
    )
    if p.returncode != 0:
        return None
    return json.loads(p.stdout.strip().splitlines()[-1])


def _fatal(case: dict) -> dict:
    p = subprocess.run(
        [sys.executable, __file__, "--child"], input=json.dumps([case]), capture_output=True, text=True
    )
    if p.returncode == 0:
        return json.loads(p.stdout.strip().splitlines()[-1])[0]
    lines = [
        ln for ln in p.stderr.splitlines() if ln.strip() and "leaked" not in ln and not ln.startswith(" - ")
    ]
    return {"rejected": "fatal: " + " | ".join(lines[:3])}


def _algebra_cases(seed: int, count: int) -> list[dict]:
    rng = random.Random(seed + 1)
    cases = []
    for _ in range(count):
        ins = [(n, rng.randint(0, 3)) for n in ("register", "lane")[: rng.randint(1, 2)]]
        mids = [(f"dim{i}", 2 ** rng.randint(0, 3)) for i in range(rng.randint(1, 2))]
        bits = sum(s.bit_length() - 1 for _, s in mids)

        def rand_out(dims):
            return [rng.randrange(s) if rng.random() < 0.8 else 0 for _, s in dims]

        a = ([[n, [rand_out(mids) for _ in range(k)]] for n, k in ins], [list(m) for m in mids])
        outs = [(f"out{i}", 2 ** rng.randint(0, 3)) for i in range(rng.randint(1, 2))]
        b = (
            [[n, [rand_out(outs) for _ in range(s.bit_length() - 1)]] for n, s in mids],
            [list(o) for o in outs],
        )
        del bits
        cases.append({"algebra": {"a": a, "b": b}})
    return cases


def run(cases: list[dict]) -> list[dict]:
    """Triton's answers for ``cases`` (filled in place), a child process per batch of 25."""
    batch = 25
    for i in range(0, len(cases), batch):
        chunk = cases[i : i + batch]
        got = _run_child(chunk)
        if got is None:
            got = [_fatal(c) for c in chunk]
        for c, r in zip(chunk, got):
            c.update(r)
    return cases


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--per-family", type=int, default=40)
    ap.add_argument("--out", default="tests/data/triton_linear_layouts.json")
    ap.add_argument("--focus", action="store_true", help="the thinly sampled families (FOCUS) only")
    ap.add_argument("--child", action="store_true")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(json.loads(sys.stdin.read()))))
        return
    import triton

    if args.focus:
        cases, algebra = focus_specs(args.seed, args.per_family), []
    else:
        cases = make_specs(args.seed, args.per_family) + large_cases()
        algebra = _algebra_cases(args.seed, args.per_family)
    run(cases + algebra)
    data = {
        "provenance": {
            "source": "Triton's own conversions (GluonOpBuilder.to_linear_layout) and "
            "triton._C.libtriton.linear_layout.LinearLayout (is_*, invert, pseudoinvert, compose), "
            "run on the CPU",
            "triton_version": triton.__version__,
            "command": "/work/venvs/triton/bin/python benchmarks/triton_oracle.py "
            + ("--focus " if args.focus else "")
            + f"--seed {args.seed} --per-family {args.per_family} --out {args.out}",
        },
        "cases": cases,
        "algebra": algebra,
    }
    with open(args.out, "w") as f:
        json.dump(data, f, indent=None, separators=(",", ":"))
        f.write("\n")
    rej = sum(1 for c in cases if "rejected" in c)
    print(f"{len(cases)} specs ({rej} rejected), {len(algebra)} compositions -> {args.out}")


if __name__ == "__main__":
    main()
