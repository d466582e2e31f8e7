"""Pure domain core: decide() and the fabric planner per second, and the time to plan a
complete recommendation (decision, both fabrics with BOM, tuning) for 8, 1,024 and 100,000
GPUs (issue 12) and 1,000,000 GPUs (issue 22: at most 10 ms), median over repeated runs."""

import contextlib
import itertools
import statistics
import time

from selector.domain import (
    DEFAULT_CATALOGUE,
    Answers,
    Budget,
    Determinism,
    Workload,
    decide,
    plan_fabric,
    recommend,
    size_fabric,
    tuning_profile,
)

GPU_COUNTS = (8, 16, 64, 256, 512, 1024, 4096, 16384)
PLAN_SIZES = (8, 1_024, 100_000, 1_000_000)


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
    for fabric in (decision.recommendation, decision.runner_up):
        with contextlib.suppress(LookupError, ValueError):
            plan_fabric(fabric, answers, DEFAULT_CATALOGUE)


def _plan_ms(gpus: int, repeat: int = 25) -> float:
    answers = Answers(gpus=gpus, throughput_limited=True)
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        recommend(answers, DEFAULT_CATALOGUE)
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def run():
    for gpus in PLAN_SIZES:
        yield f"core_plan_{gpus}_gpus", _plan_ms(gpus), "ms"
    answers = list(_inputs())
    yield "core_recommend_and_size_per_s", _rate(_recommend_and_size, answers), "1/s"
    yield "core_decide_per_s", _rate(decide, answers), "1/s"
    sizes = [(g, 8, 64) for g in (16, 512, 1024, 2048, 4096, 16384, 65536)]
    yield "core_size_fabric_per_s", _rate(lambda a: size_fabric(*a), sizes), "1/s"
    yield "core_tuning_per_s", _rate(lambda s: tuning_profile("nvidia-spectrum", s),
                                     [400, 800]), "1/s"
