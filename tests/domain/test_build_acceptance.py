"""The acceptance test plan over a sweep: every switch role of the plan has its link check,
the port ranges cover the ports the plan uses, perftest runs per link class the tiers have,
the nccl-tests threshold is the estimate less the stated tolerance, and the counters are
the switch family's own."""

from __future__ import annotations

import itertools

import pytest

from selector.domain import DEFAULT_CATALOGUE, Answers, FabricTooLarge, plan_fabric
from selector.domain.build.acceptance import PASS_TOLERANCE, acceptance_plan
from selector.domain.build.performance import estimate

GPUS = (8, 64, 1024, 8192, 100_000)
NICS = (200, 400, 800)
FABRICS = ("roce-v2-400g", "roce-v2-800g", "infiniband")
VENDORS = ("any", "arista")


def _plans():
    for gpus, nic, fabric, vendor in itertools.product(GPUS, NICS, FABRICS, VENDORS):
        try:
            yield plan_fabric(fabric, Answers(gpus, nic_speed=nic, vendor=vendor),
                              DEFAULT_CATALOGUE)
        except (FabricTooLarge, LookupError):
            continue


def test_the_plan_covers_every_role_tier_and_threshold():
    seen = 0
    for plan in _plans():
        seen += 1
        est = estimate(plan)
        steps = acceptance_plan(plan, est)
        links = [s for s in steps if s.section == "links"]
        roles = {s.params["role"] for s in links}
        assert roles == {"leaf"} | ({"spine"} if plan.spine else set()) | (
            {"core"} if plan.core else set())
        size = plan.largest_plane
        gpu = next(s for s in links if s.params["group"] == "gpu")
        assert gpu.params["links"] == max(d for _n, d, _u in size.leaf_groups)
        assert gpu.params["switches"] == plan.leaf
        classes = {s.key for s in steps if s.section == "perftest"}
        assert ("perftest_via_spine" in classes) == (plan.tiers >= 2)
        assert ("perftest_via_core" in classes) == (plan.tiers >= 3)
        nccl = next(s for s in steps if s.key == "nccl_all_reduce")
        assert nccl.params["threshold_gbytes"] == pytest.approx(
            est.allreduce_busbw_gbytes * (1 - PASS_TOLERANCE), abs=0.06)
        assert f"-np {plan.gpus} " in nccl.commands[0]
        commands = " ".join(c for s in steps for c in s.commands)
        if plan.switch.technology == "infiniband":
            assert "iblinkinfo" in commands and "-x " not in commands
        elif plan.switch.family == "nvidia-spectrum":
            assert "pfc-stats" in commands and "-x <GID" in commands
        else:
            assert "show pfc counters" in commands and "-x <GID" in commands
        assert all(s.source is not None for s in steps)
    assert seen >= 40
