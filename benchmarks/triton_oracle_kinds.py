"""Triton's own answers for the Gluon layout kinds ``triton_oracle.py`` does not cover, and for its views.

Run with a Python that has Triton (no GPU needed; Triton converts layouts on the CPU)::

    python -m venv /work/venvs/triton && /work/venvs/triton/bin/pip install 'triton==3.9.*'
    /work/venvs/triton/bin/python benchmarks/triton_oracle_kinds.py --seed 31 --per-family 40 \
        --out tests/data/triton_linear_layouts_kinds.json

For seeded random specs of the kinds Triton 3.9 added to Gluon (``TensorMemoryLayout``,
``TensorMemoryScalesLayout`` of Blackwell and Rubin, ``AMDWMMALayout`` v1-v3,
``PartitionedSharedLayout``, ``DistributedLinearLayout``, ``SharedLinearLayout``) and for the ones
it has no linear layout for (``PaddedSharedLayout``, ``CoalescedLayout``, ``AutoLayout``: Triton
refuses, and the file says how), it stores the spec, Triton's bases
(``GluonOpBuilder.to_linear_layout``; tensor memory as ``row``/``col`` inputs) or its refusal.
For small distributed and shared layouts of every family it stores Triton's two text views
(``LinearLayout.get_distributed_view`` / ``get_shared_view``, tensor and hardware points of view),
and for random pairs of layouts ``invert_and_compose``. Each batch runs in a child process, so a
fatal error in Triton loses only that case (stored as ``rejected``).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import triton_oracle as base  # noqa: E402  (the shared helpers of the first oracle)

KINDS = (
    "TensorMemoryLayout",
    "TensorMemoryScalesLayout",
    "AMDWMMALayout",
    "PartitionedSharedLayout",
    "DistributedLinearLayout",
    "SharedLinearLayout",
    "PaddedSharedLayout",
    "CoalescedLayout",
    "AutoLayout",
)


def _p2(rng: random.Random, lo: int, hi: int) -> int:
    return 2 ** rng.randint(lo, hi)


def _tmem(rng: random.Random) -> dict:
    bm = rng.choice([64, 128, 128])
    spec = {
        "kind": "TensorMemoryLayout",
        "block": [bm, _p2(rng, 0, 8)],
        "col_stride": rng.choice([1, 1, 2, 4]),
        "cga_layout": [],
        "two_ctas": rng.random() < 0.15,
        "fp4_padded": rng.random() < 0.1,
    }
    if spec["two_ctas"]:  # two-CTA mode splits M over a CTA pair: its first block basis is [1, 0]
        spec["cga_layout"] = [[1, 0]]
    elif rng.random() < 0.2:
        spec["cga_layout"] = [rng.choice([[1, 0], [0, 1]])]
    m = max(bm, _p2(rng, 6, 9)) if rng.random() < 0.9 else _p2(rng, 5, 9)
    n = max(spec["block"][1], _p2(rng, 0, 9)) if rng.random() < 0.9 else _p2(rng, 0, 9)
    if spec["cga_layout"]:
        d = spec["cga_layout"][0].index(1)
        if d == 0:
            m *= 2
        else:
            n *= 2
    return {"spec": spec, "shape": [m, n]}


def _scales(rng: random.Random) -> dict:
    spec = {"kind": "TensorMemoryScalesLayout", "cga_layout": []}
    if rng.random() < 0.4:
        spec["block_rep_order"] = rng.choice(["mnThenK", "kThenMn"])
    if rng.random() < 0.2:
        spec["cga_layout"] = [rng.choice([[1, 0], [0, 1]])]
    return {"spec": spec, "shape": [_p2(rng, 5, 9), _p2(rng, 0, 7)]}


def _tile_bases(rng: random.Random, n: int, rank: int) -> list[list[int]]:
    used = [0] * rank
    out = []
    for _ in range(n):
        if rng.random() < 0.1:
            out.append([0] * rank)
            continue
        d = rng.randrange(rank)
        b = [0] * rank
        b[d] = 1 << used[d]
        used[d] += 1
        out.append(b)
    return out


def _wmma(rng: random.Random) -> dict:
    version = rng.choice([1, 2, 3])
    rank = rng.choice([2, 2, 2, 3])
    instr = {1: [[16, 16, 16]], 2: [[16, 16, 16], [16, 16, 32]],
             3: [[16, 16, 32], [16, 16, 64], [16, 16, 128], [16, 16, 4]]}[version]
    spec = {
        "kind": "AMDWMMALayout",
        "version": version,
        "transposed": rng.random() < 0.5,
        "warp_bases": _tile_bases(rng, rng.randint(0, 3), rank),
        "reg_bases": _tile_bases(rng, rng.randint(0, 2), rank) if rng.random() < 0.5 else [],
        "instr_shape": rng.choice(instr) if rng.random() < 0.8 else [32, 16, 16],
        "cga_layout": [],
        "rank": rank,
    }
    shape = base._shape(rng, rank, lo=2, hi=7 if rank == 2 else 5)
    return {"spec": spec, "shape": shape}


def _swizzled_rank(rng: random.Random, rank: int) -> dict:
    s = base._swizzled(rng, rank)
    s["cga_layout"] = []
    return s


def _partitioned(rng: random.Random) -> dict:
    rank = rng.choice([2, 2, 3])
    inner = _swizzled_rank(rng, rank)
    spec = {
        "kind": "PartitionedSharedLayout",
        "num_partitions": rng.choice([2, 2, 4]),
        "num_groups": rng.choice([1, 1, 2]),
        "partition_dim": rng.randrange(rank),
        "partition_layout": inner,
    }
    return {"spec": spec, "shape": base._shape(rng, rank, lo=1, hi=7 if rank == 2 else 4)}


def _linear_bases(rng: random.Random, shape: list[int], n: int) -> list[list[int]]:
    return [[rng.randrange(s) if rng.random() < 0.7 else 0 for s in shape] for _ in range(n)]


def _dist_linear(rng: random.Random) -> dict:
    """Triton's generic distributed layouts: every dim's bits once (a permutation of the tensor's
    bits, surjective), spread over registers, lanes (5 bases: a 32-lane warp) and warps, with
    broadcast (zero) bases now and then; register and lane bases move along one dim each."""
    rank = rng.choice([1, 2, 2, 3])
    shape = base._shape(rng, rank, lo=0, hi=5)
    bits = [[1 << k if i == d else 0 for i in range(rank)] for d in range(rank)
            for k in range(shape[d].bit_length() - 1)]
    rng.shuffle(bits)
    lanes = [bits.pop() if bits and rng.random() < 0.8 else [0] * rank for _ in range(5)]
    warps = [bits.pop() if bits and rng.random() < 0.8 else [0] * rank for _ in range(rng.randint(0, 2))]
    regs = bits + [[0] * rank for _ in range(rng.randint(0, 1))]
    rng.shuffle(regs)
    spec = {"kind": "DistributedLinearLayout", "reg_bases": regs, "lane_bases": lanes, "warp_bases": warps,
            "block_bases": [], "shape": shape}
    return {"spec": spec, "shape": shape}


def _shared_linear(rng: random.Random) -> dict:
    rank = rng.choice([1, 2, 2, 3])
    shape = base._shape(rng, rank, lo=1, hi=5)
    bits = sum(s.bit_length() - 1 for s in shape)
    identity = [[1 << k if i == d else 0 for i in range(rank)] for d in range(rank)
                for k in range(shape[d].bit_length() - 1)]
    rng.shuffle(identity)
    offs = [list(b) for b in identity]
    for b in offs:  # an XOR swizzle now and then: add another basis's bits
        if rng.random() < 0.3 and offs:
            o = rng.choice(offs)
            for i in range(rank):
                b[i] ^= o[i] if o is not b else 0
    spec = {"kind": "SharedLinearLayout", "offset_bases": offs or [[0] * rank], "block_bases": [],
            "alignment": rng.choice([16, 16, 128])}
    del bits
    return {"spec": spec, "shape": shape}


def _padded(rng: random.Random) -> dict:
    rank = rng.choice([1, 2])
    shape = base._shape(rng, rank, lo=1, hi=5)
    offs = [[1 << k if i == d else 0 for i in range(rank)] for d in range(rank)
            for k in range(shape[d].bit_length() - 1)]
    rng.shuffle(offs)
    spec = {"kind": "PaddedSharedLayout", "interval_padding_pairs": [[_p2(rng, 1, 5), _p2(rng, 0, 3)]],
            "offset_bases": offs, "cga_layout": [], "shape": shape}
    return {"spec": spec, "shape": shape}


MAKERS = {
    "TensorMemoryLayout": _tmem,
    "TensorMemoryScalesLayout": _scales,
    "AMDWMMALayout": _wmma,
    "PartitionedSharedLayout": _partitioned,
    "DistributedLinearLayout": _dist_linear,
    "SharedLinearLayout": _shared_linear,
    "PaddedSharedLayout": _padded,
    "CoalescedLayout": lambda rng: {"spec": {"kind": "CoalescedLayout"}, "shape": [32, 32]},
    "AutoLayout": lambda rng: {"spec": {"kind": "AutoLayout"}, "shape": [32, 32]},
}


def make_specs(seed: int, per_family: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for kind in KINDS:
        n = per_family if kind not in ("CoalescedLayout", "AutoLayout") else 1
        for _ in range(n):
            case = MAKERS[kind](rng)
            out.append({"family": kind, **case})
    return out


def view_specs(seed: int, count: int) -> list[dict]:
    """Small layouts of the first oracle's families (and linear ones) whose views Triton prints."""
    rng = random.Random(seed + 7)
    out = []
    while len(out) < count:
        fam = rng.choice(["BlockedLayout", "NVMMADistributedLayout", "SwizzledSharedLayout", "SliceLayout",
                          "AMDMFMALayout", "NVMMASharedLayout"])
        rank = rng.choice([1, 2, 2, 3]) if fam in ("BlockedLayout", "SwizzledSharedLayout") else 2
        spec = base.MAKERS[fam](rng, rank)
        r = base._rank_of(spec)
        shape = base._shape(rng, r, lo=0 if fam != "NVMMASharedLayout" else 3, hi=5 if r < 3 else 3, total=9)
        out.append({"family": fam, "view": True, "spec": spec, "shape": shape})
    return out


def compose_cases(seed: int, count: int) -> list[dict]:
    """Random pairs ``(this, outer)`` over the same outputs for ``this.invert_and_compose(outer)``."""
    rng = random.Random(seed + 3)
    cases = []
    for _ in range(count):
        outs = [(f"dim{i}", _p2(rng, 0, 3)) for i in range(rng.randint(1, 2))]
        bits = sum(s.bit_length() - 1 for _, s in outs)

        def rand(n, outs=outs):
            return [[rng.randrange(s) if rng.random() < 0.8 else 0 for _, s in outs] for _ in range(n)]

        ident = [[1 << k if i == j else 0 for i in range(len(outs))] for j, (_, s) in enumerate(outs)
                 for k in range(s.bit_length() - 1)]
        rng.shuffle(ident)
        outer_ins = ("lane", "register") if rng.random() < 0.5 else ("offset",)
        split = rng.randint(0, len(ident))
        if len(outer_ins) == 2:
            outer = [[n, b] for n, b in zip(outer_ins, (ident[:split], ident[split:]))]
        else:
            outer = [["offset", ident]]
        if rng.random() < 0.3:  # a non-injective outer now and then (Triton may refuse)
            outer[0][1] = outer[0][1] + rand(1)
        this = [["register", rand(rng.randint(0, bits + 1))], ["lane", rand(rng.randint(0, 2))]]
        cases.append({"invert_and_compose": {"this": (this, [list(o) for o in outs]),
                                             "outer": (outer, [list(o) for o in outs])}})
    return cases


# --- the child: Triton's answers for one batch --------------------------------------------------


def _gluon(spec: dict):
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon.language import amd as gla
    from triton.experimental.gluon.language.amd.cdna5 import PartitionedSharedLayout
    from triton.experimental.gluon.language.nvidia import blackwell as bw
    from triton.experimental.gluon.language.nvidia import rubin

    kw = {k: v for k, v in spec.items() if k != "kind"}
    kind = spec["kind"]
    if "parent" in kw:
        kw["parent"] = _gluon(kw["parent"])
    if "partition_layout" in kw:
        kw["partition_layout"] = _gluon(kw["partition_layout"])
    if kind == "TensorMemoryLayout":
        kw["block"] = tuple(kw["block"])
        return bw.TensorMemoryLayout(**kw)
    if kind == "TensorMemoryScalesLayout":
        return (rubin if "block_rep_order" in kw else bw).TensorMemoryScalesLayout(**kw)
    if kind == "PartitionedSharedLayout":
        return PartitionedSharedLayout(**kw)
    if kind.startswith("AMD"):
        return getattr(gla, kind)(**kw)
    return getattr(gl, kind)(**kw)


#: views longer than this (a broadcast MMA layout prints every register of every element) are
#: not stored: the file stays small, and the shorter ones exercise the same printer
MAX_VIEW_CHARS = 12000


def _views(ll, shared: bool) -> dict:
    f = ll.get_shared_view if shared else ll.get_distributed_view
    return {"tensor_view": f(False), "hardware_view": f(True)}


def child(cases: list[dict]) -> list[dict]:
    from triton._C.libtriton import gluon_ir, ir

    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    out = []
    for case in cases:
        if "invert_and_compose" in case:
            a = base._triton_ll(*case["invert_and_compose"]["this"])
            b = base._triton_ll(*case["invert_and_compose"]["outer"])
            out.append({"result": base._ll_dict(a.invert_and_compose(b))})
            continue
        try:
            layout = _gluon(case["spec"])
            text = repr(layout)
            got = builder.to_linear_layout(layout._to_ir(builder), case["shape"])
        except Exception as e:  # Triton rejected the spec in Python
            out.append({"rejected": f"{type(e).__name__}: {e}"})
            continue
        rank = len(case["shape"])
        outs = [(f"dim{i}", case["shape"][i]) for i in range(rank)]
        name = type(got).__name__
        if name == "_TensorMemoryLinearLayout":
            bases = [("row", got.rows), ("col", got.cols)]
            shared = None
        elif name == "SharedLinearLayout":
            bases = [("offset", got.offset_bases), ("block", got.block_bases)]
            shared = True
        else:
            bases = [("register", got.reg_bases), ("lane", got.lane_bases), ("warp", got.warp_bases),
                     ("block", got.block_bases)]
            shared = False
        ll = base._triton_ll(bases, outs)
        res = base._ll_dict(ll)
        res["text"] = text
        if case.get("view") and shared is not None:
            views = _views(ll, shared)
            if sum(len(v) for v in views.values()) <= MAX_VIEW_CHARS:
                res.update(views)
        out.append(res)
    return out


def _run(cases: list[dict]) -> list[dict]:
    def once(chunk):
        p = subprocess.run([sys.executable, __file__, "--child"], input=json.dumps(chunk),
                           capture_output=True, text=True)
        if p.returncode == 0:
            return json.loads(p.stdout.strip().splitlines()[-1])
        if len(chunk) > 1:
            return None
        noise = ("leaked", "nanobind")
        lines = [ln for ln in p.stderr.splitlines() if ln.strip() and not any(n in ln for n in noise)
                 and not ln.startswith((" - ", "See "))]
        return [{"rejected": "fatal: " + " | ".join(lines[:3])}]

    for i in range(0, len(cases), 25):
        chunk = cases[i: i + 25]
        got = once(chunk)
        if got is None:
            got = [once([c])[0] for c in chunk]
        for c, r in zip(chunk, got):
            c.update(r)
    return cases


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--per-family", type=int, default=40)
    ap.add_argument("--out", default="tests/data/triton_linear_layouts_kinds.json")
    ap.add_argument("--child", action="store_true")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(json.loads(sys.stdin.read()))))
        return
    import triton

    cases = make_specs(args.seed, args.per_family) + view_specs(args.seed, 2 * args.per_family)
    algebra = compose_cases(args.seed, args.per_family)
    _run(cases + algebra)
    data = {
        "provenance": {
            "source": "Triton's own conversions (GluonOpBuilder.to_linear_layout), its text views "
            "(LinearLayout.get_distributed_view / get_shared_view) and invert_and_compose "
            "(triton._C.libtriton.linear_layout), run on the CPU",
            "triton_version": triton.__version__,
            "command": "/work/venvs/triton/bin/python benchmarks/triton_oracle_kinds.py "
            f"--seed {args.seed} --per-family {args.per_family} --out {args.out}",
        },
        "cases": cases,
        "invert_and_compose": algebra,
    }
    with open(args.out, "w") as f:
        json.dump(data, f, indent=None, separators=(",", ":"))
        f.write("\n")
    rej = sum(1 for c in cases if "rejected" in c)
    print(f"{len(cases)} specs ({rej} rejected), {len(algebra)} invert_and_compose -> {args.out}")


if __name__ == "__main__":
    main()
