"""Sample reports for screenshots, benchmarks and tests (no personal data: invented names)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from selector.core.i18n import is_english
from selector.domain import Answers
from selector.leads.report.render import ReportData

SAMPLE_ANSWERS = {
    # R7: several servers on a budget -> RoCE v2 400G, runner-up InfiniBand.
    "roce": dict(gpus=256, gpus_per_server=8, workload="training", budget="sensitive",
                 determinism="standard", throughput_limited=True, nic_speed=400),
    # R6: thousand-GPU training -> RoCE 800G core, three tiers.
    "large": dict(gpus=4096, gpus_per_server=8, workload="training", budget="balanced",
                  determinism="standard", throughput_limited=True, nic_speed=800),
    # R2: strict determinism -> InfiniBand.
    "infiniband": dict(gpus=512, gpus_per_server=8, workload="training", budget="balanced",
                       determinism="strict", throughput_limited=True, nic_speed=400),
    # R3: a small cluster -> standard network.
    "small": dict(gpus=16, gpus_per_server=8, workload="training", budget="balanced",
                  determinism="standard", throughput_limited=False, nic_speed=None),
}


def sample_report(language: str = "zh-hans", kind: str = "roce", **overrides) -> ReportData:
    chinese = not is_english(language)
    values: dict[str, Any] = dict(
        report_number="NS-20261130-7KQ2XW",
        created=timezone.make_aware(datetime(2026, 11, 30, 10, 30)),
        language="zh-hans" if chinese else "en",
        customer_name="王建国" if chinese else "Jane Smith",
        customer_company="深圳星河智算科技有限公司" if chinese else "Galaxy Compute Ltd.",
        answers=Answers.from_dict(SAMPLE_ANSWERS[kind]),
    )
    values.update(overrides)
    return ReportData(**values)
