"""Lazy loading: the one helper every module uses to load a module on first use, or optionally.

Layer 0; of cutepy it imports only ``errors``. The one place in the package that calls
:mod:`importlib`. Its uses, each written the same way everywhere (JAX's ``lazy_loader.attach``
and ``deprecations.deprecation_getattr`` are the models):

- a heavy dependency used by a module's functions, bound once at the module's top::

      np = load("numpy")          # numpy is imported when np.<name> is first read

- the same where the module also runs without it (``cutepy.xla``'s numpy-free path, the
  docs' Pyodide playground)::

      np = load("numpy", optional=True)   # falsy where numpy is missing (``if not np:``);
                                          # reading np.<name> then raises CutepyError

- whether an extra is installed, without importing it (:func:`installed`: the proofs'
  islpy and z3)

- a package's submodules and names loaded on first access (``cutepy.xla``, ``cutepy.explain``)::

      __getattr__, __dir__ = attach(__name__, submodules=["xla"], names={"explain": "derivation"})

- an old name kept for a release with a ``DeprecationWarning`` (:func:`deprecation_getattr`).

Every target is a string literal in one of these calls, so ``tests/test_architecture.py``
reads them as import edges and checks their layers like any other import. No module imports
inside a function: a function that needs a module reads the name bound at the top.

>>> math = load("math")
>>> type(math).__name__, math.gcd(12, 18), type(math).__name__
('LazyModule', 6, 'LazyModule')
"""

from __future__ import annotations

import importlib
import importlib.util
import warnings
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

from .errors import CutepyError

#: what still runs where an optional module is missing (said by the error of a use that needs it)
WITHOUT: dict[str, str] = {
    "numpy": ("without numpy, cutepy.xla parses shapes, compiles them to CuTe (to_cute), "
              "reports and draws them"),
}


class LazyModule(ModuleType):
    """A module that is imported the first time one of its attributes is read.

    After that its attributes are copied here, so every later read is a plain attribute
    lookup (no slower than the module's own).
    """

    def __getattr__(self, attr: str) -> Any:
        module = importlib.import_module(self.__name__)
        self.__dict__.update(module.__dict__)
        return getattr(module, attr)

    def __dir__(self) -> list[str]:
        return dir(importlib.import_module(self.__name__))

    def __repr__(self) -> str:
        return f"<lazy module {self.__name__!r}>"


class OptionalModule(LazyModule):
    """A lazy module that may be missing: then it is falsy, and reading any attribute raises
    :class:`~cutepy.CutepyError` naming what needed it (not an ``ImportError``)."""

    def _module(self) -> ModuleType | None:
        found = self.__dict__.get("_found", False)  # asked once: the answer stays for the process
        if found is False:
            try:
                found = importlib.import_module(self.__name__)
            except ImportError:
                found = None
            self.__dict__["_found"] = found
        return found

    def __bool__(self) -> bool:
        return self._module() is not None

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") or self._module() is not None:
            return super().__getattr__(attr)
        name = self.__name__
        hint = f" ({WITHOUT[name]})" if name in WITHOUT else ""
        raise CutepyError(f"{name} is not installed, and this needs {name}.{attr}{hint}")

    def __repr__(self) -> str:
        return f"<optional lazy module {self.__name__!r}>"


def load(name: str, optional: bool = False) -> ModuleType:
    """The module ``name`` (absolute), imported on first attribute access, not now.

    Pre:  ``name`` is an absolute module name. Nothing is looked up yet: a missing module
          raises ``ImportError`` at its first use, so a dependency costs nothing where it is
          not used.
    Post: ``load(name).x is importlib.import_module(name).x`` for every attribute ``x``.
          With ``optional=True`` the module is falsy where ``name`` cannot be imported, and
          reading an attribute raises :class:`~cutepy.CutepyError` (saying what runs without
          it, :data:`WITHOUT`); where it can, the module is truthy and reads as above.

    >>> bool(load("math", optional=True)), bool(load("no_such_module_here", optional=True))
    (True, False)
    >>> load("no_such_module_here", optional=True).zeros
    Traceback (most recent call last):
    ...
    cutepy.CutepyError: no_such_module_here is not installed, and this needs no_such_module_here.zeros
    """
    return OptionalModule(name) if optional else LazyModule(name)


def installed(name: str) -> bool:
    """Whether the module ``name`` can be imported here, found without importing it.

    >>> installed("math"), installed("no_such_module_here")
    (True, False)
    """
    return importlib.util.find_spec(name) is not None


def attach(package: str, submodules: Iterable[str] = (),
           names: dict[str, str] | None = None) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` that load its submodules and names on first use.

    ``submodules`` are relative names (``"xla"``, ``"viz.text"``); ``names`` maps a public name
    to the relative module that defines it. A loaded value is cached in the package's
    namespace, so ``__getattr__`` runs once per name.

    Pre:  ``package`` is the calling package's ``__name__``.
    Post: ``getattr(package, s)`` is the submodule ``package.s``; ``getattr(package, n)`` is
          ``names[n]``'s attribute ``n``; any other name raises ``AttributeError`` as Python does.
    """
    subs = frozenset(submodules)
    where = dict(names or {})

    def __getattr__(name: str) -> Any:
        if name in subs:
            value: Any = importlib.import_module(f"{package}.{name}")
        elif name in where:
            value = getattr(importlib.import_module(f"{package}.{where[name]}"), name)
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(importlib.import_module(package), name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(importlib.import_module(package))) | subs | set(where))

    return __getattr__, __dir__


#: the deprecated names of each module: module -> name -> (message, get); written once, at import,
#: by the module that may reach the new home (the top package for an alias whose new home is
#: in a higher layer than its old one: ``cutepy.program.lanes_svg`` -> ``cutepy.viz``)
DEPRECATED: dict[str, dict[str, tuple[str, Callable[[], Any]]]] = {}


def deprecation_getattr(module: str) -> Callable[[str], Any]:
    """A module's ``__getattr__`` that serves its old names (:data:`DEPRECATED`) with a
    ``DeprecationWarning``.

    ``DEPRECATED[module][name] = (message, get)``: reading ``module.name`` warns with
    ``message`` and returns ``get()``.

    Post: any other name raises ``AttributeError``.

    >>> DEPRECATED["demo"] = {"old": ("demo.old is demo.new now", lambda: 42)}
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     deprecation_getattr("demo")("old"), str(w[0].message)
    (42, 'demo.old is demo.new now')
    >>> del DEPRECATED["demo"]
    """
    def __getattr__(name: str) -> Any:
        entry = DEPRECATED.get(module, {}).get(name)
        if entry is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        message, get = entry
        warnings.warn(message, DeprecationWarning, stacklevel=2)
        return get()

    return __getattr__
