"""Gluon layout specs: the constructor text as Gluon prints it, or a dict, read into one dict form.

Gluon prints a layout as a Python call with keyword arguments
(``BlockedLayout(size_per_thread=[4, 2], ..., cga_layout=[])``); it is read with Python's
own expression grammar (:mod:`ast`), literals only, nothing evaluated. A dict spec has
``"kind"`` and the keyword fields; a nested ``"parent"`` is a spec itself.

>>> gluon_spec("SliceLayout(dim=0, parent=BlockedLayout(size_per_thread=[1], threads_per_warp=[32], "
...            "warps_per_cta=[4], order=[0]))")["parent"]["kind"]
'BlockedLayout'
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from ..core.errors import CutepyError
from .layout import as_int

#: the Gluon layouts ``from_gluon`` converts, with their fields and defaults
FIELDS: dict[str, dict[str, Any]] = {
    "BlockedLayout": {
        "size_per_thread": None,
        "threads_per_warp": None,
        "warps_per_cta": None,
        "order": None,
        "cga_layout": [],
    },
    "NVMMADistributedLayout": {"version": None, "warps_per_cta": None, "instr_shape": None, "cga_layout": []},
    "DotOperandLayout": {"operand_index": None, "parent": None, "k_width": None},
    "SliceLayout": {"dim": None, "parent": None},
    "SwizzledSharedLayout": {
        "vec": None,
        "per_phase": None,
        "max_phase": None,
        "order": None,
        "cga_layout": [],
    },
    "NVMMASharedLayout": {
        "swizzle_byte_width": None,
        "element_bitwidth": None,
        "rank": 2,
        "transposed": False,
        "fp4_padded": False,
        "cga_layout": [],
    },
    "AMDMFMALayout": {
        "version": None,
        "instr_shape": None,
        "transposed": None,
        "warps_per_cta": None,
        "element_bitwidth": 32,
        "tiles_per_warp": None,
        "cga_layout": [],
    },
}
#: the kinds Triton 3.9 added (issue 34): tensor memory, AMD WMMA, explicit and partitioned layouts,
#: and the ones Triton gives no linear layout (padded shared, the compiler's placeholders)
FIELDS.update({
    "TensorMemoryLayout": {"block": None, "col_stride": None, "cga_layout": [], "two_ctas": False,
                           "fp4_padded": False},
    "TensorMemoryScalesLayout": {"cga_layout": [], "block_rep_order": "mnThenK"},
    "AMDWMMALayout": {"version": None, "transposed": None, "warp_bases": None, "reg_bases": [],
                      "instr_shape": [16, 16, 16], "cga_layout": [], "rank": 2},
    "DistributedLinearLayout": {"reg_bases": None, "lane_bases": None, "warp_bases": None,
                                "block_bases": None, "shape": None},
    "SharedLinearLayout": {"offset_bases": None, "block_bases": [], "alignment": 16},
    "PartitionedSharedLayout": {"num_partitions": None, "num_groups": None, "partition_dim": None,
                                "partition_layout": None},
    "PaddedSharedLayout": {"interval_padding_pairs": None, "offset_bases": None, "cga_layout": [],
                           "shape": None},
    "CoalescedLayout": {},
    "AutoLayout": {},
})
#: the kinds above that Triton 3.9 added to Gluon (tests/data/triton_linear_layouts_kinds.json)
ADDED_KINDS = ("TensorMemoryLayout", "TensorMemoryScalesLayout", "AMDWMMALayout", "DistributedLinearLayout",
               "SharedLinearLayout", "PartitionedSharedLayout", "PaddedSharedLayout", "CoalescedLayout",
               "AutoLayout")
#: fields that hold a nested layout spec
NESTED = ("parent", "partition_layout")


def _literal(node: ast.AST, where: str) -> Any:
    if isinstance(node, ast.Call):
        return _call(node)
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_literal(e, where) for e in node.elts]
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (bool, int, str))):
        return node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
    ):
        return -node.operand.value
    raise CutepyError(f"from_gluon: {where} is {ast.unparse(node)!r}: expected an int, bool, str, "
                      "list or layout")


def _call(node: ast.Call) -> dict:
    name = (
        node.func.id
        if isinstance(node.func, ast.Name)
        else (node.func.attr if isinstance(node.func, ast.Attribute) else None)
    )
    if name not in FIELDS:
        raise CutepyError(f"from_gluon: unknown layout {ast.unparse(node.func)!r}; known: {sorted(FIELDS)}")
    if node.args:
        raise CutepyError(f"from_gluon: write {name}'s fields as keywords (as Gluon prints them)")
    return {"kind": name, **{kw.arg: _literal(kw.value, f"{name}.{kw.arg}") for kw in node.keywords}}


def _plain(v: Any) -> Any:
    """Numpy integers (anything ``operator.index`` takes, bools aside) as ints, inside lists too."""
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    i = as_int(v)
    return v if i is None else i


def gluon_spec(spec: str | Mapping[str, Any]) -> dict:
    """The spec as a dict with every field of its kind (defaults filled in), checked.

    Pre: ``spec`` is Gluon's constructor text or a dict with ``"kind"``.
    Post: a fresh dict with ``"kind"`` and all fields of that kind; ``parent`` a spec dict.

    >>> s = gluon_spec({"kind": "SwizzledSharedLayout", "vec": 2, "per_phase": 1, "max_phase": 4,
    ...                 "order": [1, 0]})
    >>> s["cga_layout"], s["order"]
    ([], [1, 0])
    """
    if isinstance(spec, str):
        try:
            tree = ast.parse(spec.strip(), mode="eval")
        except SyntaxError as e:
            raise CutepyError(f"from_gluon: cannot read {spec!r} as a Gluon layout: {e.msg}") from None
        if not isinstance(tree.body, ast.Call):
            raise CutepyError(f"from_gluon: {spec!r} is not a layout constructor call")
        spec = _call(tree.body)
    if not isinstance(spec, Mapping) or "kind" not in spec:
        raise CutepyError(f"from_gluon: a spec is Gluon's text or a dict with 'kind', got {spec!r}")
    kind = spec["kind"]
    if not isinstance(kind, str) or kind not in FIELDS:
        raise CutepyError(f"from_gluon: unknown layout kind {kind!r}; known: {sorted(FIELDS)}")
    unknown = sorted(set(spec) - set(FIELDS[kind]) - {"kind"})
    if unknown:
        raise CutepyError(f"from_gluon: {kind} has no field(s) {unknown}; its fields: {list(FIELDS[kind])}")
    out: dict[str, Any] = {"kind": kind}
    spec = {k: (v if k == "kind" or k in NESTED else _plain(v)) for k, v in spec.items()}
    for field, default in FIELDS[kind].items():
        if field in spec:
            v = spec[field]
        elif default is not None or field in ("tiles_per_warp",):
            v = default
        else:
            raise CutepyError(f"from_gluon: {kind} needs {field!r}")
        if field in NESTED:
            v = gluon_spec(v)
        out[field] = v
    return out
