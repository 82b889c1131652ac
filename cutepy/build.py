"""``python -m cutepy.build``: compile the optional core (:mod:`cutepy.compiled`), ``--clean`` to go
back to pure Python, ``--info`` to say which core runs. One line on stderr and exit 2 on failure.

Layer 7 (with the command line): a client of :mod:`cutepy.compiled`, which ``import cutepy`` loads.
"""

from __future__ import annotations

import argparse
import json
import sys

from .compiled import build_info, clean, compile_core
from .core.errors import CutepyError


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cutepy.build", description=__doc__.split("\n\n")[0])
    ap.add_argument("--clean", action="store_true", help="remove the compiled core (back to pure Python)")
    ap.add_argument("--info", action="store_true", help="say which core is in use, build nothing")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    try:
        if a.clean:
            print(f"removed {len(clean())} files")
        elif not a.info:
            compile_core(jobs=a.jobs)
    except CutepyError as e:
        print(str(e).splitlines()[0], file=sys.stderr)
        return 2
    print(json.dumps(build_info(), indent=1))
    return 0



if __name__ == "__main__":
    sys.exit(main())
