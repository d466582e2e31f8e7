"""The cabling plan's invariants (issue 23), over the planner's sweep (the sizes that
stream quickly here; 100,000 GPUs is the benchmark's) and over Hypothesis answers:

* rows = links of the plan; no switch or NIC port is used twice;
* every port exists on its switch after breakout, and GPU links, uplinks and spine-core
  links never share a native port;
* every switch in the cabling plan is in the bill of materials and vice versa;
* the parts the rows use add up to the bill of materials, tier by tier.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter, defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from selector.domain import (
    DEFAULT_CATALOGUE,
    OVERSUBSCRIPTIONS,
    PLATFORMS,
    Answers,
    FabricTooLarge,
)
from selector.domain.answers import DISTANCES, Workload
from selector.domain.build import naming
from selector.domain.build.cabling import (
    CSV_HEADER,
    bom_part_totals,
    iter_links,
    iter_switch_ports,
    link_count,
    part_totals,
    switch_devices,
)
from selector.domain.decision import Fabric
from selector.domain.fabric import FabricPlan
from selector.domain.plan import plan_fabric
from selector.domain.recommend import leaf_ports

from .test_fabric_sweep import FULL_PRICES, NICS, NICS_PER_SERVER, VENDORS

GPUS = (8, 64, 760, 1000, 2048, 8192)
FABRICS = (Fabric.ROCE_400, Fabric.ROCE_800, Fabric.INFINIBAND)


@functools.cache
def _plan(gpus, nic, nps, distance, vendor, fabric) -> FabricPlan | None:
    answers = Answers(gpus, nic_speed=nic, nics_per_server=nps, distance=distance,
                      vendor=vendor)
    try:
        return plan_fabric(fabric, answers, DEFAULT_CATALOGUE, FULL_PRICES)
    except (FabricTooLarge, LookupError):
        return None


def _sweep() -> list[tuple[tuple, FabricPlan]]:
    out = []
    for combo in itertools.product(GPUS, NICS, NICS_PER_SERVER, DISTANCES, VENDORS, FABRICS):
        if combo[-1] == Fabric.INFINIBAND and combo[4] != "any":
            continue  # InfiniBand switches come from NVIDIA only: the same plans again
        plan = _plan(*combo)
        if plan is not None:
            out.append((combo, plan))
    return out


_NATIVE = {
    "nvidia-spectrum": re.compile(r"^swp(\d+)(?:s(\d+))?$"),
    "sonic": re.compile(r"^Ethernet(\d+)$"),
    "nvidia-quantum": re.compile(r"^1/(\d+)/(\d+)(?:/(\d+))?$"),
}


def _native(family: str, port: str, per_cage: int) -> int:
    match = _NATIVE[family].match(port)
    assert match, port
    if family == "sonic":
        return int(match.group(1)) // 8 + 1
    if family == "nvidia-quantum":
        return (int(match.group(1)) - 1) * per_cage + int(match.group(2))
    return int(match.group(1))


def check_plan(plan: FabricPlan) -> None:
    switch = plan.switch
    rows = list(iter_links(plan, DEFAULT_CATALOGUE))
    # rows = links
    assert len(rows) == link_count(plan) == sum(plan.links.values())
    by_tier = Counter(r.tier for r in rows)
    assert by_tier["gpu"] == plan.links["gpu_leaf"]
    assert by_tier["leaf_spine"] == plan.links["leaf_spine"]
    assert by_tier["spine_core"] == plan.links["spine_core"]
    # no port used twice
    ends = [(r.a_device, r.a_port) for r in rows] + [(r.b_device, r.b_port) for r in rows]
    assert len(ends) == len(set(ends))
    # every switch port exists after breakout; roles never share a native port
    gpu_split = switch.port_speed_gbps // plan.port_gbps
    up_split = switch.port_speed_gbps // plan.uplink_gbps
    namer = naming.port_namer(switch.family, switch.ports, switch.cage_count)
    valid = {split: {namer.name(n, s, split) for n in range(1, switch.ports + 1)
                     for s in range(split)} for split in {gpu_split, up_split}}
    natives: dict[str, dict[int, str]] = defaultdict(dict)
    for r in rows:
        ends_of = [(r.a_device, r.a_port, "down" if r.tier == "gpu" else "up")]
        if r.tier != "gpu":
            ends_of.append((r.b_device, r.b_port, "down" if r.tier == "leaf_spine"
                            else "core"))
        for device, port, role in ends_of:
            split = gpu_split if r.tier == "gpu" else up_split
            assert port in valid[split], (device, port)
            native = _native(switch.family, port, namer.per_cage)
            role_key = role if not (r.tier == "spine_core" and device == r.a_device) else "top"
            seen = natives[device].setdefault(native, role_key)
            assert seen == role_key, (device, port, seen, role_key)
    # GPU links stay on the fullest leaf's GPU ports (the tuning's port groups)
    limit = leaf_ports(plan).gpu_ports
    for r in rows:
        if r.tier == "gpu":
            assert _native(switch.family, r.a_port, namer.per_cage) <= limit
    # devices: the cabling plan's switches are the BOM's
    devices = {name for name, _role, _l in switch_devices(plan)}
    cabled = {r.a_device for r in rows} | {r.b_device for r in rows if r.tier != "gpu"}
    assert cabled == devices
    bom_switches = sum(line.count for line in plan.bom if line.kind == "switch")
    assert len(devices) == bom_switches == plan.switches
    # the per-switch view (the configurations read it) holds the same links
    by_switch: dict[str, set] = defaultdict(set)
    for r in rows:
        by_switch[r.a_device].add(r)
        if r.tier != "gpu":
            by_switch[r.b_device].add(r)
    seen_switches = []
    for name, _role, _plane, links in iter_switch_ports(plan, DEFAULT_CATALOGUE):
        seen_switches.append(name)
        assert set(links) == by_switch[name] and len(links) == len(by_switch[name]), name
    assert seen_switches == [name for name, _r, _l in switch_devices(plan)]
    # parts per reach add up to the BOM
    assert part_totals(rows) == bom_part_totals(plan)
    for r in rows:
        assert r.reach_m in (min(plan.reach_m, 50), plan.reach_m)
        assert len(r.csv_row()) == len(CSV_HEADER)
        assert r.label.startswith(r.a_device + ":") and r.label.endswith(r.b_port)


SWEEP = _sweep()


def test_the_sweep_covers_every_fabric_and_family():
    assert len(SWEEP) >= 500
    assert {p.switch.family for _c, p in SWEEP} == {"nvidia-spectrum", "sonic",
                                                    "nvidia-quantum"}
    assert {p.design for _c, p in SWEEP} >= {"two-tier", "three-tier", "switch-per-plane"}


@pytest.mark.parametrize("combo,plan", SWEEP, ids=[str(c) for c, _p in SWEEP])
def test_cabling_invariants_over_the_sweep(combo, plan):
    check_plan(plan)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gpus=st.integers(1, 6000), nic=st.sampled_from(NICS), nps=st.sampled_from((1, 2, 4, 8)),
       gps=st.sampled_from((4, 8)), distance=st.sampled_from(list(DISTANCES)),
       fabric=st.sampled_from(FABRICS), platform=st.sampled_from(PLATFORMS),
       oversubscription=st.sampled_from(OVERSUBSCRIPTIONS),
       workload=st.sampled_from(list(Workload)))
def test_cabling_invariants_for_any_answers(gpus, nic, nps, gps, distance, fabric, platform,
                                            oversubscription, workload):
    if nps > gps:
        nps = gps
    try:
        answers = Answers(gpus, gpus_per_server=gps, nic_speed=nic, nics_per_server=nps,
                          distance=distance, platform=platform,
                          oversubscription=int(oversubscription), workload=workload)
        plan = plan_fabric(fabric, answers, DEFAULT_CATALOGUE)
    except (FabricTooLarge, LookupError, ValueError):
        return
    if plan is not None:
        check_plan(plan)


def test_names_follow_the_documented_scheme():
    plan = _plan(1024, 400, 8, "row", "any", Fabric.ROCE_400)
    rows = list(iter_links(plan, DEFAULT_CATALOGUE))
    first = rows[0]
    assert first.a_device == "p1-leaf-r1-01" and first.a_port == "swp1s0"
    assert first.b_device == "p1-su01-node001-nic1" and first.b_port == "port1"
    assert naming.nic_name(1, 44, 5) == "p1-su02-node013-nic5"
    assert {r.b_device for r in rows if r.tier == "leaf_spine"} >= {"p1-spine-01",
                                                                   "p1-spine-08"}
    sonic = _plan(1024, 400, 8, "row", "arista", Fabric.ROCE_400)
    ports = [r.a_port for r in iter_links(sonic, DEFAULT_CATALOGUE)][:3]
    assert ports == ["Ethernet0", "Ethernet4", "Ethernet8"]
    ib = _plan(1024, 400, 8, "row", "any", Fabric.INFINIBAND)
    assert [r.a_port for r in iter_links(ib, DEFAULT_CATALOGUE)][:3] == ["1/1/1", "1/1/2",
                                                                        "1/2/1"]


def test_port_names_match_the_tuning_snippets_names():
    from selector.domain.tuning.sonic import ethernet_ports
    from selector.domain.tuning.spectrum import swp_ports

    namer = naming.port_namer("sonic", 64, 64)
    assert [namer.name(3, s, 2) for s in range(2)] == ethernet_ports(3, 1, 2)
    spectrum = naming.port_namer("nvidia-spectrum", 64, 64)
    assert swp_ports(5, 1, 2) == ["swp5s0-1"] and spectrum.name(5, 1, 2) == "swp5s1"
    with pytest.raises(ValueError):
        spectrum.name(65, 0, 1)


def test_the_planes_of_an_800g_nic_are_its_two_ports():
    plan = _plan(2048, 800, 8, "row", "any", Fabric.ROCE_800)
    ports = Counter((r.b_device, r.b_port, r.plane) for r in iter_links(plan, DEFAULT_CATALOGUE)
                    if r.tier == "gpu")
    nic = "p1-su01-node001-nic1"
    planes = {(port, plane) for (device, port, plane) in ports if device == nic}
    assert {port for port, _ in planes} == {"port1", "port2"}
    assert len({plane for _, plane in planes}) == 2


@pytest.mark.parametrize(("gpus", "fabric"), [(4096, Fabric.INFINIBAND),
                                             (10000, Fabric.ROCE_400)])
def test_inference_pods_are_the_same_plan_again_under_their_own_prefix(gpus, fabric):
    """A large inference cluster is planned as identical, independent two-tier pods
    (FabricPlan.pods): each pod is cabled under its own prefix and the invariants hold."""
    from selector.domain.build.configs import asn_plan, iter_configs, opensm_conf

    plan = plan_fabric(fabric, Answers(gpus, workload=Workload.INFERENCE), DEFAULT_CATALOGUE,
                       FULL_PRICES)
    assert plan.pods >= 2
    check_plan(plan)
    devices = [name for name, _r, _l in switch_devices(plan)]
    assert len(devices) == len(set(devices)) == plan.switches
    assert {d.split("-", 1)[0] for d in devices} == {f"p{n}" for n in range(1, plan.pods + 1)}
    configs = list(iter_configs(plan, DEFAULT_CATALOGUE))
    if plan.switch.technology == "ethernet":
        assert len(configs) == plan.switches
        assert len(set(asn_plan(plan).values())) > plan.leaf // plan.pods  # a leaf, an ASN
    else:  # one opensm.conf, the same settings for each pod's subnet manager
        assert configs == [] and opensm_conf(plan)
