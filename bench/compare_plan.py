#!/usr/bin/env python
"""Same-run ratio of the plan time against another checkout (issue 22), without touching
either tree: each round runs one short subprocess per tree (``sys.path`` set to that tree,
no bytecode written), alternating the order, and compares the medians.

    .venv/bin/python bench/compare_plan.py /work/main [rounds]

Prints ``name baseline this ratio`` per GPU count (ratio = this / baseline, below 1 is
faster)."""

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = (8, 1_024, 100_000, 1_000_000)
CHILD = """
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
from selector.domain import DEFAULT_CATALOGUE, Answers, recommend
out = {}
for gpus in json.loads(sys.argv[2]):
    answers = Answers(gpus=gpus, throughput_limited=True)
    recommend(answers, DEFAULT_CATALOGUE)
    samples = []
    for _ in range(15):
        started = time.perf_counter()
        recommend(answers, DEFAULT_CATALOGUE)
        samples.append((time.perf_counter() - started) * 1000)
    out[gpus] = statistics.median(samples)
print(json.dumps(out))
"""


def _once(tree: Path) -> dict[int, float]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", CHILD, str(tree), json.dumps(SIZES)],
                          capture_output=True, text=True, check=True, env=env, cwd="/")
    return {int(k): v for k, v in json.loads(done.stdout).items()}


def main() -> int:
    base = Path(sys.argv[1]).resolve()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    runs: dict[str, list[dict[int, float]]] = {"base": [], "this": []}
    for i in range(rounds):
        order = (("base", base), ("this", ROOT)) if i % 2 == 0 else (("this", ROOT),
                                                                     ("base", base))
        for name, tree in order:
            runs[name].append(_once(tree))
    for gpus in SIZES:
        b = statistics.median(r[gpus] for r in runs["base"])
        t = statistics.median(r[gpus] for r in runs["this"])
        print(f"core_plan_{gpus}_gpus  base {b:.3f} ms  this {t:.3f} ms  ratio {t / b:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
