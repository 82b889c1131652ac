"""Examples for the API reference, for public names whose docstrings have none yet.

``docs/docstrings.py`` appends ``EXAMPLES[name]`` to the docstring of ``name`` when the
site is built; ``tests/test_docs.py`` runs every example and checks that each public
function and class of the API pages has one (here or in its docstring). Move an example
into the docstring when you edit the function, and delete it here.

Each example runs with ``cutepy`` and ``P`` (``cutepy.program``) imported.
"""

EXAMPLES: dict[str, str] = {}
