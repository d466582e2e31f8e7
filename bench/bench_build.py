"""The build downloads (issue 23): time and peak memory growth (tracemalloc) of the
cabling CSV and the configuration zip for 1,024 and 100,000 GPUs, as the views stream them
(selector.planner.downloads), and their ratio to planning the same fabric in the same run
(the machine is noisy; the ratio is the stable figure). The 100,000-GPU CSV must stream:
its peak growth stays under 50 MB. `.venv/bin/python bench/run.py build` runs this alone."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable, Iterable
from typing import Any

from selector.content.snapshot import current
from selector.domain import Answers, FabricPlan, plan_fabric
from selector.domain.decision import Fabric
from selector.planner import downloads

SIZES = (1_024, 100_000)


def _plan(gpus: int) -> FabricPlan:
    content = current()
    plan = plan_fabric(Fabric.ROCE_400, Answers(gpus, nic_speed=400, nics_per_server=8),
                       content.catalogue, content.prices)
    assert plan is not None
    return plan


def _drain(response: Any) -> int:
    size = 0
    for chunk in response.streaming_content:
        size += len(chunk)
    return size


def _timed(fn: Callable[[], int]) -> tuple[float, int]:
    started = time.perf_counter()
    size = fn()
    return time.perf_counter() - started, size


def _peak_mb(fn: Callable[[], int]) -> float:
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return (peak - base) / 1e6


def run() -> Iterable[tuple[str, float | int, str]]:
    for gpus in SIZES:
        plan = _plan(gpus)
        def plan_once(gpus: int = gpus) -> int:
            return _plan(gpus).switches

        plan_s, _ = _timed(plan_once)
        yield f"build_{gpus}_links", sum(plan.links.values()), "links"
        for kind, respond in (("cabling_csv", downloads.cabling_csv),
                              ("configs_zip", downloads.configs_zip)):
            def once(respond=respond, plan=plan) -> int:
                return _drain(respond(plan))

            seconds, size = _timed(once)
            yield f"build_{gpus}_{kind}_s", seconds, "s"
            yield f"build_{gpus}_{kind}_bytes", size, "B"
            yield f"build_{gpus}_{kind}_peak_growth_mb", _peak_mb(once), "MB"
            yield f"build_{gpus}_{kind}_vs_plan_ratio", seconds / max(plan_s, 1e-9), "x"
