"""Pure domain core throughput: decide() + plan_fabric() per second (issue 2)."""

import itertools
import time

from selector.domain import (
    DEFAULT_CATALOGUE,
    Answers,
    Budget,
    Determinism,
    Workload,
    decide,
    lossless_tuning,
    plan_fabric,
    size_fabric,
)

GPU_COUNTS = (8, 16, 64, 256, 512, 1024, 4096, 16384)


def _inputs():
    for gpus, workload, budget, determinism, limited, nic in itertools.product(
        GPU_COUNTS, Workload, Budget, Determinism, (False, True), (None, 400, 800)
    ):
        yield Answers(gpus=gpus, workload=workload, budget=budget, determinism=determinism,
                      throughput_limited=limited, nic_speed=nic)


def _rate(fn, items, seconds=1.0) -> float:
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for item in items:
            fn(item)
        done += len(items)
    return done / (time.perf_counter() - started)


def _recommend_and_size(answers: Answers) -> None:
    decision = decide(answers)
    plan_fabric(decision.recommendation, answers, DEFAULT_CATALOGUE)
    plan_fabric(decision.runner_up, answers, DEFAULT_CATALOGUE)


def run():
    answers = list(_inputs())
    yield "core_recommend_and_size_per_s", _rate(_recommend_and_size, answers), "1/s"
    yield "core_decide_per_s", _rate(decide, answers), "1/s"
    sizes = [(g, 8, 64) for g in (16, 512, 1024, 2048, 4096, 16384, 65536)]
    yield "core_size_fabric_per_s", _rate(lambda a: size_fabric(*a), sizes), "1/s"
    yield "core_tuning_per_s", _rate(lambda s: lossless_tuning(s, 100), [400, 800]), "1/s"
