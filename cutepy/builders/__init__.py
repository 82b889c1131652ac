"""CUTLASS's GEMM CollectiveBuilders in Python: the choices CUTLASS makes for a problem, as
cutepy values (:mod:`.sm90` and :mod:`.sm100` for the mainloop, :mod:`.epilogue` for the
epilogue), the selectors they are made of (:mod:`.selectors`), each choice explained
(:mod:`.explain`) and every legal design of a bounded space ranked by exact costs
(:mod:`.sweeps`).

Layer 4 (analyses): clients of the kernel-design values (:mod:`cutepy.kernels`)."""

from .epilogue import *  # noqa: F403
from .epilogue import __all__ as _epilogue_all
from .explain import *  # noqa: F403
from .explain import __all__ as _explain_all
from .selectors import *  # noqa: F403
from .selectors import __all__ as _selectors_all
from .sm90 import *  # noqa: F403
from .sm90 import __all__ as _sm90_all
from .sm100 import *  # noqa: F403
from .sm100 import __all__ as _sm100_all
from .sm120 import *  # noqa: F403
from .sm120 import __all__ as _sm120_all
from .sweeps import *  # noqa: F403
from .sweeps import __all__ as _sweep_all
from .values import *  # noqa: F403
from .values import __all__ as _values_all

__all__ = [*_values_all, *_selectors_all, *_sm90_all, *_sm100_all,
    *_sm120_all, *_epilogue_all, *_explain_all, *_sweep_all]
