"""The values and the layout (layers 0 and 1): everything the algebra computes with.

Layer 0 (values; they import nothing above them): :mod:`.inttuple` (the algorithms on
integer tuples) and :mod:`.tuples` (the same, arguments checked: what ``cutepy`` exports),
:mod:`.basis` (``E(i)``, arithmetic tuples), :mod:`.dynamic` (run-time integers),
:mod:`.errors`, :mod:`.limits`, :mod:`.kinds` (the kinds of value and one table of variants
per operation), :mod:`.tracing` and :mod:`.events` (what ``explain`` records),
:mod:`.lazy` (the one lazy loader), :mod:`.symbolic` (symbolic integers, a
``numbers.Integral``).

Layer 1 (the layout): :mod:`.layout` (``Layout``: construction, modes, slicing),
:mod:`.swizzle` (``Swizzle``: ``Sw<B,M,S>`` and its evaluation) and :mod:`.evaluate`
(whole-domain offsets with numpy).
"""
