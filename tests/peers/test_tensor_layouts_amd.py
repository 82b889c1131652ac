"""tensor-layouts 0.3.2's AMD atoms against cutepy's (which equal AMD's Matrix Instruction Calculator
and Triton, tests/kernels/atoms/test_vendor_atoms.py): where the peer differs, and how.

Matched by mnemonic (underscores ignored, as the peer spells CDNA3's ``v_mfma_i32_32x32x16i8``):

- MFMA C: the peer's lanes hold the right sets of elements, on other lanes (every single-block
  MFMA); its 4x4 atom is equal.
- MFMA A and B: the peer's layouts reach only part of K (1/2 for 32x32, 1/4 for 16x16: the lane
  group index has stride 0).
- RDNA3 WMMA: A, B and C all differ (the peer does not hold A and B twice over the half-waves).
- Multi-block MFMAs (``32x32x4f16``, ``16x16x4f16``): the peer reads them as one block's shape;
  cutepy as one GEMM with the blocks along N, so the shapes differ.
- The peer's RDNA4 atoms are 16x16x32 instructions AMD's RDNA4 calculator does not list.
"""

from __future__ import annotations

from collections import Counter

import pytest

tl = pytest.importorskip("tensor_layouts")
tla = pytest.importorskip("tensor_layouts.atoms_amd")

from cutepy.kernels.atoms import amd_mma_atoms, mma_atom  # noqa: E402

_FAMILY = {"CDNA": ("cdna1", "cdna2"), "CDNA3": ("cdna3",), "CDNA3P": ("cdna4",), "RDNA3": ("rdna3",),
           "RDNA4": ("rdna4",)}


def _ours(peer_name: str, mnemonic: str):
    want = mnemonic.replace("_", "")
    for arch in _FAMILY[peer_name.split("_")[0]]:
        for name in amd_mma_atoms():
            a, m = name.split("::")
            if a == arch and m.replace("_", "") == want:
                return mma_atom(name)
    return None


def _table(L, lanes: int, vals: int) -> list[list[int]]:
    return [[L(t, v) for v in range(vals)] for t in range(lanes)]


def _verdicts() -> dict[str, dict[str, str]]:
    out = {}
    for peer_name in dir(tla):
        peer = getattr(tla, peer_name)
        if not hasattr(peer, "c_layout") or not hasattr(peer, "ptx"):
            continue
        ours = _ours(peer_name, peer.ptx)
        if ours is None:
            out[peer_name] = {"atom": "no counterpart"}
            continue
        if tuple(peer.shape_mnk) != ours.shape_mnk:
            out[peer_name] = {"atom": "other shape"}
            continue
        lanes = ours.thr_id.size()
        got = {}
        pairs = (("C", peer.c_layout, ours.tv_layout_C), ("A", peer.a_layout, ours.tv_layout_A),
                 ("B", peer.b_layout, ours.tv_layout_B))
        for role, theirs, mine in pairs:
            t, m = _table(theirs, lanes, tl.size(theirs) // lanes), _table(mine, lanes, mine.size() // lanes)
            reach_t, reach_m = len({x for r in t for x in r}), len({x for r in m for x in r})
            same_sets = sorted(map(sorted, t)) == sorted(map(sorted, m))
            got[role] = ("equal" if t == m else "other lanes" if same_sets
                         else f"reaches {reach_t} of {reach_m}" if reach_t < reach_m else "differs")
        out[peer_name] = got
    return out


VERDICTS = _verdicts()


def test_mfma_c_layouts_hold_the_right_elements_on_other_lanes() -> None:
    c = Counter(v["C"] for k, v in VERDICTS.items() if "MFMA" in k and "C" in v)
    assert c == Counter({"other lanes": 31, "equal": 1}), c  # the "31 of its 32"


def test_mfma_operands_reach_only_part_of_k() -> None:
    for k, v in VERDICTS.items():
        if "MFMA" in k and "A" in v and v["C"] != "equal":
            assert v["A"].startswith("reaches") and v["B"].startswith("reaches"), (k, v)


def test_rdna3_wmma_differs_and_rdna4_has_no_counterpart() -> None:
    rdna3 = [v for k, v in VERDICTS.items() if k.startswith("RDNA3")]
    assert rdna3 and all(v["C"] == "differs" and v["A"] == "differs" for v in rdna3)
    assert all(v == {"atom": "no counterpart"} for k, v in VERDICTS.items() if k.startswith("RDNA4"))


def test_multi_block_mfmas_have_other_shapes() -> None:
    assert {k for k, v in VERDICTS.items() if v == {"atom": "other shape"}} == {
        "CDNA_16x16x4_F32F16F16_MFMA", "CDNA_32x32x4_F32F16F16_MFMA"}
