"""Examples for the API reference, for public names whose docstrings have none yet.

``docs/docstrings.py`` appends ``EXAMPLES[name]`` to the docstring of ``name`` when the
site is built; ``tests/test_docs.py`` runs every example and checks that each public
function and class of the API pages has one (here or in its docstring). Move an example
into the docstring when you edit the function, and delete it here.

Each example runs with ``cutepy`` and ``P`` (``cutepy.program``) imported.
"""

EXAMPLES: dict[str, str] = {
    "cutepy.Layout": """\
>>> L = cutepy.Layout((4, 2), (2, 1))
>>> L, L(3, 1), L.size(), L.cosize()
((4,2):(2,1), 7, 8, 8)
""",
    "cutepy.ComposedLayout": """\
>>> C = cutepy.ComposedLayout(cutepy.Swizzle(1, 0, 1), 0, cutepy.Layout((2, 2), (2, 1)))
>>> C, [C(i) for i in range(4)]
(Sw<1,0,1> o 0 o (2,2):(2,1), [0, 3, 1, 2])
""",
    "cutepy.Swizzle": """\
>>> sw = cutepy.Swizzle(2, 0, 2)
>>> sw, [sw(i) for i in range(16)]
(Sw<2,0,2>, [0, 1, 2, 3, 5, 4, 7, 6, 10, 11, 8, 9, 15, 14, 13, 12])
""",
    "cutepy.E": """\
>>> cutepy.E(1), cutepy.make_identity_layout((2, 3))(1, 2)
(1@1, (1,2))
""",
    "cutepy.ScaledBasis": """\
>>> cutepy.ScaledBasis(3, (1,))
3@1
""",
    "cutepy.CutepyError": """\
>>> try:
...     cutepy.parse("(2,3")
... except cutepy.CutepyError as e:
...     print(type(e).__name__, isinstance(e, ValueError))
ParseError True
""",
    "cutepy.blocked_product": """\
>>> cutepy.blocked_product(cutepy.parse("(2,2):(2,1)"), cutepy.parse("(2,3):(3,1)"))
((2,2),(2,3)):((2,12),(1,4))
""",
    "cutepy.raked_product": """\
>>> cutepy.raked_product(cutepy.parse("(2,2):(2,1)"), cutepy.parse("(2,3):(3,1)"))
((2,2),(3,2)):((12,2),(4,1))
""",
    "cutepy.coalesce.coalesce": """\
>>> cutepy.coalesce(cutepy.parse("(2,(1,6)):(1,(6,2))"))
12:1
""",
    "cutepy.complement.complement": """\
>>> cutepy.complement(cutepy.parse("4:2"), 24)
(2,3):(1,8)
""",
    "cutepy.composition.composition": """\
>>> cutepy.composition(cutepy.parse("(6,2):(8,2)"), cutepy.parse("(4,3):(3,1)"))
((2,2),3):((24,2),8)
""",
    "cutepy.cosize": """\
>>> cutepy.cosize(cutepy.parse("(4,2):(1,8)"))
12
""",
    "cutepy.depth": """\
>>> cutepy.depth(cutepy.parse("(2,(2,2)):(4,(2,1))")), cutepy.depth(cutepy.parse("8:1"))
(2, 0)
""",
    "cutepy.downcast": """\
>>> cutepy.downcast(cutepy.parse("(2,8):(1,2)"), 2)
(4,8):(1,4)
""",
    "cutepy.filter": """\
>>> cutepy.filter(cutepy.parse("(2,4,3):(1,0,2)"))
6:1
""",
    "cutepy.flat_divide": """\
>>> cutepy.flat_divide(cutepy.Layout((8, 8), (8, 1)), (4, 2))
(4,2,2,4):(8,1,32,2)
""",
    "cutepy.flat_product": """\
>>> cutepy.flat_product(cutepy.parse("(2,2):(1,2)"), cutepy.parse("<3:1, 2:1>"))
(2,2,3,2):(1,2,2,1)
""",
    "cutepy.get": """\
>>> cutepy.get(cutepy.parse("(2,(3,4)):(1,(2,6))"), 1, 0)
3:2
""",
    "cutepy.is_admissible": """\
>>> cutepy.is_admissible(cutepy.parse("(4,6):(1,5)"), cutepy.parse("8:3"))
False
""",
    "cutepy.left_inverse": """\
>>> A = cutepy.parse("(4,2):(2,1)")
>>> R = cutepy.left_inverse(A)
>>> R, [R(A(i)) for i in range(8)]
((2,4):(4,1), [0, 1, 2, 3, 4, 5, 6, 7])
""",
    "cutepy.logical_divide": """\
>>> cutepy.logical_divide(cutepy.parse("(4,2,3):(2,1,8)"), cutepy.parse("4:2"))
((2,2),(2,3)):((4,1),(2,8))
""",
    "cutepy.logical_product": """\
>>> cutepy.logical_product(cutepy.parse("(2,2):(4,1)"), cutepy.parse("6:1"))
((2,2),(2,3)):((4,1),(2,8))
""",
    "cutepy.make_composed_layout": """\
>>> cutepy.make_composed_layout(cutepy.Swizzle(3, 3, 3), 0, cutepy.Layout((8, 64), (64, 1)))
Sw<3,3,3> o 0 o (8,64):(64,1)
""",
    "cutepy.max_common_layout": """\
>>> cutepy.max_common_layout(cutepy.parse("(4,8):(1,4)"), cutepy.parse("(4,8):(1,8)"))
4:1
""",
    "cutepy.max_common_vector": """\
>>> cutepy.max_common_vector(cutepy.parse("(4,8):(1,4)"), cutepy.parse("(4,8):(1,8)"))
4
""",
    "cutepy.nullspace": """\
>>> cutepy.nullspace(cutepy.parse("(2,4,3):(1,0,2)"))
4:2
""",
    "cutepy.parse": """\
>>> cutepy.parse("(2,(2,2)):(4,(2,1))"), cutepy.parse("<3:4, 8:2>")
((2,(2,2)):(4,(2,1)), (3:4, 8:2))
>>> cutepy.parse("Sw<3,4,3> o 0 o (8,8):(8,1)")
Sw<3,4,3> o 0 o (8,8):(8,1)
""",
    "cutepy.prepend": """\
>>> cutepy.prepend(cutepy.parse("3:4"), cutepy.parse("2:1"))
(2,3):(1,4)
""",
    "cutepy.rank": """\
>>> cutepy.rank(cutepy.parse("(2,(2,2)):(4,(2,1))"))
2
""",
    "cutepy.right_inverse": """\
>>> A = cutepy.parse("(4,2):(2,1)")
>>> R = cutepy.right_inverse(A)
>>> R, [A(R(i)) for i in range(8)]
((2,4):(4,1), [0, 1, 2, 3, 4, 5, 6, 7])
""",
    "cutepy.shape": """\
>>> cutepy.shape(cutepy.parse("(2,(2,2)):(4,(2,1))"))
(2, (2, 2))
""",
    "cutepy.size": """\
>>> cutepy.size(cutepy.parse("(2,(2,2)):(4,(2,1))"))
8
""",
    "cutepy.stride": """\
>>> cutepy.stride(cutepy.parse("(2,(2,2)):(4,(2,1))"))
(4, (2, 1))
""",
    "cutepy.tile_to_shape": """\
>>> cutepy.tile_to_shape(cutepy.parse("(2,2):(1,2)"), (4, 6))
((2,2),(2,3)):((1,4),(2,8))
""",
    "cutepy.tiled_divide": """\
>>> cutepy.tiled_divide(cutepy.Layout((8, 8), (8, 1)), (4, 2))
((4,2),2,4):((8,1),32,2)
""",
    "cutepy.tiled_product": """\
>>> cutepy.tiled_product(cutepy.parse("(2,2):(1,2)"), cutepy.parse("<3:1, 2:1>"))
((2,2),3,2):((1,2),2,1)
""",
    "cutepy.upcast": """\
>>> cutepy.upcast(cutepy.parse("(4,8):(1,4)"), 2)
(2,8):(1,2)
""",
    "cutepy.zipped_divide": """\
>>> cutepy.zipped_divide(cutepy.Layout((8, 8), (8, 1)), (4, 2))
((4,2),(2,4)):((8,1),(32,2))
""",
    "cutepy.zipped_product": """\
>>> cutepy.zipped_product(cutepy.parse("(2,2):(1,2)"), cutepy.parse("<3:1, 2:1>"))
((2,2),(3,2)):((1,2),(2,1))
""",
    "cutepy.assuming": """\
>>> M = cutepy.symbols("M", multiple_of=8)
>>> with cutepy.assuming({M: {"multiple_of": 16}}):
...     print(cutepy.symbolic.facts_of(M))
{'multiple_of': 16}
""",
    "cutepy.equivalent": """\
>>> bool(cutepy.equivalent(cutepy.parse("((2,2),3):((1,2),4)"), cutepy.parse("12:1")))
True
""",
    "cutepy.explain": """\
>>> print(cutepy.explain(cutepy.complement, cutepy.parse("4:2"), 24).text())
complement(4:2, 24)
  1. filter(A) = 4:2 (drop stride-0 and size-1 modes, coalesce)
  2. sorted by stride: 4:2
  3. gap below stride 2: 2/1 = 2 at stride 1; 4:2 then covers up to 8
  4. rest up to the cotarget: ceil(24/8) = 3 at stride 8
  5. coalesce (2,3):(1,8): nothing merges
  = (2,3):(1,8)
""",
    "cutepy.Equivalence": """\
>>> r = cutepy.equivalent(cutepy.parse("(4,3):(3,1)"), cutepy.parse("12:1"))
>>> bool(r), r.check()
(False, True)
""",
    "cutepy.Derivation": """\
>>> d = cutepy.explain(cutepy.coalesce, cutepy.parse("(2,(1,6)):(1,(6,2))"))
>>> d.result
12:1
""",
    "cutepy.program.buffer": """\
>>> a = P.trace((2, 3))
>>> P.buffer(P.resize(a, (2, 4)))
array([1, 2, 3, 0, 4, 5, 6, 0])
""",
    "cutepy.program.check": """\
>>> a = P.trace((2, 3))
>>> bool(P.check(a.transpose(1, 0)))
True
""",
    "cutepy.program.lanes_svg": """\
>>> c = P.to_layout(P.trace((4, 6)).reshape(4, 2, 3))
>>> P.lanes_svg(c, 2).startswith("<svg")
True
""",
    "cutepy.program.reshape": """\
>>> P.to_layout(P.reshape(P.trace((2, 6)), (2, 2, 3)).transpose(1, 0, 2)).layout
(2,(3,2)):(3,(1,6))
""",
    "cutepy.program.run": """\
>>> P.run(P.trace((2, 3)).transpose(1, 0))
array([[1, 4],
       [2, 5],
       [3, 6]])
""",
    "cutepy.program.transpose": """\
>>> P.to_layout(P.transpose(P.trace((2, 3)), (1, 0))).layout
(2,3):(1,2)
""",
    "cutepy.equivalence.normal_form": """\
>>> cutepy.equivalence.normal_form(cutepy.parse("(2,(1,6)):(1,(6,2))")).modes
((12, 1),)
""",
    "cutepy.symbolic.facts_of": """\
>>> N = cutepy.symbols("N", multiple_of=128)
>>> cutepy.symbolic.facts_of(N)
Facts(multiple=128, lo=1, hi=None)
""",
    "cutepy.symbolic.free_symbols": """\
>>> M = cutepy.symbols("M")
>>> cutepy.symbolic.free_symbols(cutepy.Layout((M, 4), (4, 1)))
{M}
""",
    "cutepy.viz.print_layout": """\
>>> cutepy.viz.print_layout(cutepy.parse("(2,3):(3,1)"))  # doctest: +NORMALIZE_WHITESPACE
(2,3):(3,1)
      0   1   2
    +---+---+---+
 0  | 0 | 1 | 2 |
    +---+---+---+
 1  | 3 | 4 | 5 |
    +---+---+---+
""",
    "cutepy.viz.show": """\
>>> pic = cutepy.viz.show(cutepy.parse("(4,8):(8,1)"))
>>> pic.svg.startswith("<svg"), sorted(pic._repr_mimebundle_())
(True, ['image/svg+xml', 'text/html', 'text/plain'])
""",
    "cutepy.viz.write_svg": """\
>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "l.svg")
>>> cutepy.viz.write_svg(cutepy.parse("(4,8):(8,1)"), path)
>>> open(path).read().startswith("<svg")
True
""",
    "cutepy.viz.Picture": """\
>>> pic = cutepy.viz.show(cutepy.Swizzle(3, 0, 3))
>>> pic.svg.startswith("<svg"), str(pic) == pic.svg
(True, True)
""",
    "cutepy.banks.find_swizzle": """\
>>> from cutepy import banks
>>> smem = cutepy.Layout((32, 64), (64, 1))
>>> print(banks.find_swizzle(smem, [(cutepy.parse("(32,8):(1,32)"), "ld", 8)], element_bytes=2).summary())
Sw<3,3,3>: every access at its ideal (4 wavefronts; ... swizzles of 11 address bits searched)
""",
    "cutepy.program.tpu_mlir_lmem_data": """\
>>> data = P.tpu_mlir_lmem_data()
>>> sorted(data), data["a"].shape
(['a', 'd'], (2, 5, 2, 3))
""",
    "cutepy.derivation.explainable": """\
>>> register = cutepy.derivation.explainable("my_op")   # a decorator for fn(D, items)
>>> callable(register)
True
""",
    "cutepy.LayoutError": """\
>>> cutepy.Layout((2, 3), (1,))
Traceback (most recent call last):
...
cutepy.errors.LayoutError: shape (2,3) and stride (1) are not congruent (they must nest the same way)
""",
    "cutepy.ParseError": """\
>>> try:
...     cutepy.parse("(2,3")
... except cutepy.ParseError as e:
...     print(e.text, e.pos)
(2,3 4
""",
    "cutepy.AdmissibilityError": """\
>>> cutepy.composition(cutepy.parse("(4,6):(1,5)"), cutepy.parse("8:3"))
Traceback (most recent call last):
...
cutepy.errors.AdmissibilityError: composition (4,6):(1,5) o 8:3 is inadmissible: stride divisibility fails ...
""",
}
