#!/usr/bin/env python3
"""Rule experiments: a thin wrapper of ``python3 -m stpete.experiment`` (bindings/python/stpete/experiment.py) for
running from a source tree without installing the package, e.g.

    python3 examples/python/experiment.py --games 200 --jobs 2 --out pub.jsonl \\
        --arm per-pub:players=3:bots=greedy,ismcts:iterations=100 \\
        --arm per-player:players=3:pub_cap=per-player:bots=greedy,ismcts:iterations=100

Every option is stpete.experiment's (``--help``). The library is found as the binding describes (STPETE_LIBRARY,
the package, a build directory, the system).
"""
import os
import sys

try:
    import stpete.experiment
except ImportError:  # a source tree without PYTHONPATH: the binding next door, and for worker processes too
    binding = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bindings", "python")
    sys.path.insert(0, os.path.abspath(binding))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [os.path.abspath(binding),
                                                             os.environ.get("PYTHONPATH")]))
    import stpete.experiment

if __name__ == "__main__":
    sys.exit(stpete.experiment.main())
