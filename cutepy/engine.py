"""``cutepy.engine`` moved to :mod:`cutepy.program.engine` (the pad/reshape/transpose engine
sits with the array programs it compiles). This path keeps working for this release: each
name read from here is the new module's, with a ``DeprecationWarning``.

>>> import warnings
>>> from cutepy.program import engine
>>> with warnings.catch_warnings(record=True) as w:
...     warnings.simplefilter("always")
...     from cutepy.engine import compile_program
>>> compile_program is engine.compile_program, w[0].category.__name__
(True, 'DeprecationWarning')
>>> str(w[0].message)
'cutepy.engine moved to cutepy.program.engine: import compile_program from there'

Layer 3 (engines), as before; it holds no code of its own.
"""

from __future__ import annotations

from .core.lazy import DEPRECATED, deprecation_getattr
from .program import engine as _engine

#: every public name of the engine, served from its new home with a warning
DEPRECATED[__name__] = {
    name: (f"cutepy.engine moved to cutepy.program.engine: import {name} from there",
           lambda name=name: getattr(_engine, name))
    for name in vars(_engine) if not name.startswith("_")
}

__getattr__ = deprecation_getattr(__name__)

#: ``from cutepy.engine import *`` gives the engine's names as before (each with the warning)
__all__ = sorted(DEPRECATED[__name__])
