"""Pictures of layouts: C++ CuTe's text table, SVG (written by cutepy itself), LaTeX/TikZ.

Layer 5 (the edge): every picture, table and TikZ is drawn here and nowhere else; the values
carry no drawing code (Jupyter's display is registered by ``cutepy/__init__.py``).

- :func:`print_layout` / :func:`layout_table`: the console table of C++ ``print_layout``.
- :func:`layout_svg`: a layout on a grid (offsets, colours, nested-mode borders);
  :func:`tv_layout_svg`: thread-value layouts; :func:`swizzle_bank_svg`: shared-memory
  banks before and after a swizzle; :func:`bank_view_svg`: the bank of every cell;
  :func:`tiled_mma_svg` / :func:`tiled_copy_svg`: a TiledMMA's or TiledCopy's threads;
  :func:`divide_svg` / :func:`product_svg`: tiling;
  :func:`xla_svg`: XLA tiled arrays and their memory; :func:`linear_layout_svg`: a Triton
  linear layout's bit matrix beside its CuTe picture.
- :func:`get_distributed_view` / :func:`get_shared_view`: Triton's two text views of a linear
  layout (which thread holds each element; which element each thread holds).
- :func:`to_latex` / :func:`to_latex_tv`: CuTe's ``print_latex`` / ``print_latex_tv``.
- :func:`mma_atom_svg` / :func:`copy_atom_svg`: one atom alone; :func:`draw_slice`: a slice
  highlighted; :func:`draw_gemm`: a GEMM's A, B and C owned by a TiledMMA's threads;
  :func:`draw_composite`: ``B``, ``A`` and ``A o B``.
- :func:`save_picture`: SVG, or PNG and PDF through cairosvg (the ``viz`` extra).
- :func:`show` wraps any of these in a :class:`Picture` for Jupyter; :func:`write_svg`
  saves one. :func:`cutepy.viz.display.mimebundle` is what notebooks show: the C++ table
  as text, the SVG, and an ``<img>`` of it that untrusted notebooks keep, elided to the
  cell.

>>> import cutepy
>>> print(layout_table(cutepy.Layout((2, 2), (2, 1))).splitlines()[3])
 0  | 0 | 1 |
"""

from . import tiled  # cutepy.viz.tiled without an explicit import
from .atoms import copy_atom_svg, draw_composite, draw_gemm, draw_slice, mma_atom_svg
from .banks import bank_view_svg, banks_of, conflict_ways, swizzle_bank_svg
from .latex import to_latex, to_latex_tv
from .layouts import divide_svg, layout_svg, product_svg, tv_layout_svg
from .linear import linear_layout_svg
from .linear_text import get_distributed_view, get_shared_view
from .picture import Picture, save_picture, show, svg_to, write_svg
from .program import lanes_svg
from .text import layout_table, print_layout, print_tensor, tensor_table
from .tiled import tiled_copy_svg, tiled_mma_svg
from .xla import xla_svg

__all__ = [
    "svg_to",
    "save_picture",
    "mma_atom_svg",
    "draw_slice",
    "draw_gemm",
    "draw_composite",
    "copy_atom_svg",
    "Picture",
    "bank_view_svg",
    "banks_of",
    "conflict_ways",
    "divide_svg",
    "get_distributed_view",
    "get_shared_view",
    "layout_svg",
    "lanes_svg",
    "layout_table",
    "linear_layout_svg",
    "print_layout",
    "print_tensor",
    "tensor_table",
    "tiled",
    "product_svg",
    "show",
    "swizzle_bank_svg",
    "tiled_copy_svg",
    "tiled_mma_svg",
    "to_latex",
    "to_latex_tv",
    "tv_layout_svg",
    "write_svg",
    "xla_svg",
]
