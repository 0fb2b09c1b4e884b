"""Record what NumPy's ``default_rng`` draws and how it sums, for
tests/test_pcg64.py and tests/test_float32.py, which check bleukit's
NumPy-free reproduction (bleukit.core.pcg64, bleukit.core.float32) against
these numbers in every environment (and against NumPy itself where it is
installed: tox -e oracle). Run with NumPy installed:

    python tests/golden/make_numpy_golden.py > tests/golden/numpy_draws.json
"""

import json
import sys

import numpy as np

SEEDS = [0, 1, 12345, 2**32 + 5, 2**70 + 3]
#: population sizes: one (no draw), small, WMT-sized, past 2**31, past 2**32 (64-bit draws)
SIZES = [1, 2, 1002, 2**31 + 7, 2**40 + 3]


def main() -> None:
    draws = []
    for seed in SEEDS:
        state = np.random.default_rng(seed).bit_generator.state["state"]
        choices = {
            str(n): np.random.default_rng(seed).choice(n, size=(2, 16)).ravel().tolist()
            for n in SIZES
        }
        rng = np.random.default_rng(seed)
        bools = rng.integers(2, size=(3, 23), dtype=bool).ravel().tolist()
        after = rng.choice(1002, size=(1, 12)).ravel().tolist()
        sequence = np.random.SeedSequence(seed).generate_state(4, np.uint64)
        draws.append({
            "seed": seed,
            "seed_sequence": [int(x) for x in sequence],
            "pcg64": [state["state"], state["inc"]],
            "choice": choices, "bools": [int(b) for b in bools], "choice_after_bools": after,
        })  # fmt: skip
    gen = np.random.default_rng(7)
    sums = []
    for n, single in ((5, True), (100, True), (1000, True), (3000, True), (1000, False)):
        values = (gen.random(n) * 100).astype(np.float32 if single else np.float64)
        sums.append({"values": values.tolist(), "float32": single,
                     "sum": float(values.sum()), "mean": float(values.mean())})  # fmt: skip
    meta = {"numpy": np.__version__}
    json.dump({"meta": meta, "draws": draws, "sums": sums}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
