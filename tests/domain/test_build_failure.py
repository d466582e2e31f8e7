"""Failure domains: the counts add up over the planner's sweep (a leaf takes down exactly
its GPU links; GPUs per NIC and NICs per GPU counted right), and the worked examples."""

from __future__ import annotations

import itertools

import pytest

from selector.domain import DEFAULT_CATALOGUE, Answers, FabricTooLarge, plan_fabric
from selector.domain.build.failure import ELEMENTS, failure_domains, gpus_of_nics

GPUS = (8, 16, 64, 760, 1000, 2048, 8192, 100_000)
NICS = (200, 400, 800)
NICS_PER_SERVER = (1, 2, 4, 8, 16)
FABRICS = ("roce-v2-400g", "roce-v2-800g", "infiniband")


def plans(gpus_counts=GPUS, nics_per_server=NICS_PER_SERVER):
    """Every plan of the sweep (the cabling cross-check takes the sizes it can cable)."""
    for gpus, nic, nps, fabric in itertools.product(gpus_counts, NICS, nics_per_server,
                                                    FABRICS):
        try:
            yield plan_fabric(fabric, Answers(gpus, nic_speed=nic, nics_per_server=nps),
                              DEFAULT_CATALOGUE)
        except (FabricTooLarge, LookupError):
            continue


def _by(plan):
    return {row.element: row for row in failure_domains(plan)}


def test_gpus_of_nics_counts_shared_and_multiple_nics():
    assert gpus_of_nics({0}, 8, 8) == (1, 1)  # one NIC per GPU
    assert gpus_of_nics({0}, 4, 8) == (2, 2)  # two GPUs share NIC 0
    assert gpus_of_nics({0}, 16, 8) == (0, 1)  # GPU 0 keeps its second NIC
    assert gpus_of_nics({0, 1}, 16, 8) == (1, 1)
    assert gpus_of_nics({0}, 1, 8) == (8, 8)  # one NIC for the whole server
    assert gpus_of_nics(set(range(8)), 8, 8) == (8, 8)


def test_counts_add_up_over_the_sweep():
    seen = 0
    for plan in plans():
        seen += 1
        rows = _by(plan)
        assert set(rows) <= set(ELEMENTS)
        assert {"nic_link", "leaf"} <= set(rows)
        assert ("spine" in rows) == (plan.spine > 0)
        assert ("core" in rows) == (plan.core > 0)
        assert ("plane" in rows) == (plan.plane_count > 1)
        gps, rails, ppn = plan.gpus_per_server, plan.rails, plan.ports_per_nic
        gpus_per_link = -(-gps // rails)
        size = plan.largest_plane
        for row in rows.values():
            assert 0 <= row.gpus_disconnected <= row.gpus_affected <= plan.gpus
            assert 0 <= row.bandwidth_lost_pct <= 100
            if row.gpu_links_lost:
                # a lost link disconnects at most the GPUs that share its NIC
                assert row.gpus_affected <= row.gpu_links_lost * gpus_per_link
                if rails >= gps and ppn == 1:
                    assert row.gpus_disconnected * (rails // gps) <= row.gpu_links_lost
            if ppn == 2:  # the NIC's other port is in another plane
                assert row.gpus_disconnected == 0
        # losing a leaf takes down exactly the GPU links cabled to it
        leaf = rows["leaf"]
        assert leaf.gpu_links_lost == max(d for _n, d, _u in size.leaf_groups)
        assert leaf.bandwidth_lost_pct == pytest.approx(
            100 * leaf.gpu_links_lost / plan.links["gpu_leaf"])
        # and all leaves together carry every GPU link
        assert sum(c * n * d for c, s in plan.planes for n, d, _u in s.leaf_groups) \
            == plan.links["gpu_leaf"]
        if "spine" in rows:
            assert rows["spine"].gpus_disconnected == 0
            assert rows["spine"].uplinks_lost == max(d for d, _u in size.spine_ports())
        if "plane" in rows:
            assert rows["plane"].bandwidth_lost_pct == pytest.approx(
                100 * size.links["gpu_leaf"] / plan.links["gpu_leaf"])
    assert seen >= 300


def test_worked_example_two_hgx_servers_with_four_nics():
    plan = plan_fabric("infiniband", Answers(16, nic_speed=200, nics_per_server=4),
                       DEFAULT_CATALOGUE)
    rows = _by(plan)
    assert rows["nic_link"].gpus_disconnected == 2  # NIC 0 serves GPUs 0 and 1
    assert rows["leaf"].gpu_links_lost == 4 and rows["leaf"].gpus_disconnected == 8
    assert rows["leaf"].bandwidth_lost_pct == 50


def test_two_planes_keep_every_gpu_connected():
    plan = plan_fabric("roce-v2-800g", Answers(2048, nic_speed=800), DEFAULT_CATALOGUE)
    rows = _by(plan)
    assert rows["plane"].gpus_disconnected == 0 and rows["plane"].bandwidth_lost_pct == 50
    assert rows["leaf"].gpus_affected == rows["leaf"].gpu_links_lost
