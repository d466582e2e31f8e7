"""The fabric planner: NIC-speed-aware sizing on catalogue switches, small and huge
clusters, planes, the published NVIDIA SuperPOD counts, and the fat-tree invariants of
every plane (exhaustively at small radices, by Hypothesis elsewhere)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from selector.domain import (
    DEFAULT_CATALOGUE,
    GPUS_MAX,
    NIC_SPEEDS,
    Answers,
    Catalogue,
    Fabric,
    FabricPlan,
    FabricTooLarge,
    Source,
    SwitchSpec,
    decide,
    plan_fabric,
    recommend,
)
from selector.domain.plan import nic_ports, rail_ports, uplink_speed
from selector.domain.sizing import leaf_shape, size_plane
from selector.domain.spines import even_spines

CAT = DEFAULT_CATALOGUE
SRC = (Source("test datasheet", "https://example.com", "2026-12-01"),)


def plan(fabric, gpus, **kw) -> FabricPlan:
    planned = plan_fabric(fabric, Answers(gpus=gpus, **kw), CAT)
    assert planned is not None, "a fabric, not the standard network"
    return planned


# --- the examples (issue 12, "Done when") ---------------------------------------------


def test_1024_gpus_400g_nics_on_a_64x800g_switch():
    p = plan(Fabric.ROCE_800, 1024, nic_speed=400)
    assert p.switch.ports == 64 and p.switch.port_speed_gbps == 800
    assert (p.leaf, p.spine, p.core, p.tiers) == (16, 8, 0, 2)
    # R6's 800G switches run their uplinks as 2 x 400G: adaptive routing stays on.
    assert (p.gpu_link_gbps, p.port_gbps, p.uplink_gbps) == (400, 400, 400)
    assert p.links == {"gpu_leaf": 1024, "leaf_spine": 1024, "spine_core": 0}
    assert p.has_note("adaptive_routing_400g")
    # And what the engine recommends for 1,024 GPUs is exactly this plan (rule R6).
    rec = recommend(Answers(1024, nic_speed=400), CAT)
    assert rec.decision.rule == "R6"
    assert rec.recommended.plan == p
    assert rec.tuning.speed_gbps == 400  # GPU links, not the 800G core


def test_64_gpus_on_one_128_port_switch_take_at_most_two_switches():
    for fabric in (Fabric.ROCE_400, Fabric.ROCE_800):
        p = plan(fabric, 64)
        assert p.switch.ports * p.switch.port_speed_gbps // 400 >= 128
        assert p.switches <= 2 and p.spine == 0
        assert p.has_note("redundant_pair")
    assert recommend(Answers(64, throughput_limited=True), CAT).recommended.plan.switches <= 2


def test_16_infiniband_gpus_take_at_most_two_switches():
    p = plan(Fabric.INFINIBAND, 16)
    assert p.switch.technology == "infiniband" and p.switches <= 2
    rec = recommend(Answers(16, determinism="strict"), CAT)
    assert rec.recommended.plan.switches <= 2


def test_one_server_if_you_grow_plan_is_one_or_two_switches():
    rec = recommend(Answers(8), CAT)
    assert rec.recommended.plan is None  # R1: standard network
    assert rec.runner_up.plan.switches <= 2


@pytest.mark.parametrize("gpus", [100_000, 500_000, GPUS_MAX])
def test_huge_clusters_get_a_concrete_plan(gpus):
    rec = recommend(Answers(gpus), CAT)
    p = rec.recommended.plan
    assert p is not None and p.tiers == 3
    assert p.leaf > 0 and p.spine > 0 and p.core > 0
    assert p.links["gpu_leaf"] == gpus
    assert p.modules > 0 and p.cables > 0 and p.power_w > 0


def test_100000_gpus_is_named_at_the_right_scale():
    d = decide(Answers(100_000))
    assert d.reasons[0].params == {"gpus": 100_000, "scale": "hundred_thousand"}


def test_r4_with_800g_nics_gives_every_gpu_800g():
    rec = recommend(Answers(2048, workload="inference", nic_speed=800), CAT)
    assert rec.decision.rule == "R4"
    p = rec.recommended.plan
    # ConnectX-8 on Ethernet is 2 x 400GbE: two planes, every GPU 800G.
    assert p.gpu_link_gbps == 800
    assert (p.ports_per_nic, p.port_gbps, p.plane_count) == (2, 400, 2)
    assert p.links["gpu_leaf"] == 2 * 2048
    assert p.has_note("two_planes_per_nic")
    assert rec.tuning.speed_gbps == p.port_gbps


def test_800g_infiniband_is_one_xdr_port_per_gpu():
    p = plan(Fabric.INFINIBAND, 2048, nic_speed=800)
    assert p.switch.model.startswith("Quantum-X800")
    assert (p.gpu_link_gbps, p.port_gbps, p.uplink_gbps, p.plane_count) == (800, 800, 800, 1)


def test_r6_keeps_an_800g_core_and_nic_speed_gpu_links():
    # Without adaptive routing to keep (a Tomahawk 5 switch), the 800G core is native.
    for nic in (200, 400):
        p = plan_fabric(Fabric.ROCE_800, Answers(4096, nic_speed=nic, vendor="arista"), CAT)
        assert p.switch.family == "sonic"
        assert p.uplink_gbps == 800 and p.port_gbps == nic


@pytest.mark.parametrize("gpus", [512, 999, 1000, 2048, 4096, 8192, 16384, 100_000])
def test_r6_on_spectrum_4_keeps_adaptive_routing_at_every_size(gpus):
    """Finding 1: at 1,000 GPUs R6 ran 800G uplinks with adaptive routing off and the same
    switches, modules and fibres as R7's 400G plan at 999; only from 8,192 GPUs did it split
    the ports. One rule now: 2 x 400G on Spectrum-4, unless 800G saves a tier."""
    r6 = plan(Fabric.ROCE_800, gpus, nic_speed=400)
    r7 = plan(Fabric.ROCE_400, gpus, nic_speed=400)
    assert r6.switch.family == "nvidia-spectrum"
    assert r6.uplink_gbps == 400 and r6.has_note("adaptive_routing_400g")
    assert (r6.leaf, r6.spine, r6.core, r6.modules, r6.cables) == (
        r7.leaf, r7.spine, r7.core, r7.modules, r7.cables)
    rec = recommend(Answers(gpus, nic_speed=400), CAT)
    if rec.decision.recommendation == Fabric.ROCE_800:
        assert rec.tuning.adaptive_routing and rec.tuning.ar_condition == "ar_spectrum_x"


def test_a_vendor_preference_changes_the_model_and_the_config():
    any_ = recommend(Answers(1024), CAT)
    arista = recommend(Answers(1024, vendor="arista"), CAT)
    assert any_.recommended.plan.switch.vendor == "NVIDIA"
    assert arista.recommended.plan.switch.vendor == "Arista"
    assert any_.tuning.family == "nvidia-spectrum"
    assert arista.tuning.family == "sonic"
    assert any_.tuning.config != arista.tuning.config
    assert any("nv set qos roce" in line.text for line in any_.tuning.config)
    assert any("sudo config load" in line.text for line in arista.tuning.config)
    # InfiniBand ignores an Ethernet vendor, and says so.
    ib = recommend(Answers(1024, vendor="arista", determinism="strict"), CAT)
    assert ib.recommended.plan.switch.vendor == "NVIDIA"
    assert ib.recommended.plan.has_note("infiniband_vendor")


# --- the published reference designs ----------------------------------------------------------

# NVIDIA DGX SuperPOD B200 (InfiniBand NDR, QM9700): SUs of 32 nodes x 8 GPUs.
SUPERPOD_B200 = [
    (512, 16, 8, 0), (1024, 32, 16, 0), (2048, 64, 32, 0),
    (4096, 128, 128, 64), (8192, 256, 256, 128), (16384, 512, 512, 256),
]
# NVIDIA DGX SuperPOD B300 (Spectrum-X, ConnectX-8 as 2 x 400GbE in two planes).
SUPERPOD_B300 = [(512, 16, 8), (1024, 32, 16), (2048, 64, 32), (4096, 128, 64), (8192, 256, 128)]


@pytest.mark.parametrize(("gpus", "leaf", "spine", "core"), SUPERPOD_B200)
def test_superpod_b200_counts(gpus, leaf, spine, core):
    p = plan(Fabric.INFINIBAND, gpus, nic_speed=400)
    assert p.switch.model == "Quantum-2 QM9700"
    assert (p.leaf, p.spine, p.core) == (leaf, spine, core)
    assert p.links["gpu_leaf"] == p.links["leaf_spine"] == gpus
    assert p.links["spine_core"] == (gpus if core else 0)


@pytest.mark.parametrize(("gpus", "leaf", "spine"), SUPERPOD_B300)
def test_superpod_b300_twin_plane_counts(gpus, leaf, spine):
    for fabric in (Fabric.ROCE_400, Fabric.ROCE_800):
        p = plan(fabric, gpus, nic_speed=800)
        assert p.plane_count == 2
        assert (p.leaf, p.spine, p.core) == (leaf, spine, 0), fabric


# --- small clusters: packing, pairs, never one spine ------------------------------------------


def test_rails_share_a_leaf_when_the_ports_allow():
    p = plan(Fabric.ROCE_400, 256)  # 32 servers: 8 rails of 32 on 64-port leaves
    assert (p.leaf, p.spine) == (4, 2)
    assert p.has_note("rails_share_leaf")


def test_one_nic_per_server_is_a_single_switch_and_says_so():
    p = plan(Fabric.ROCE_400, 16, gpus_per_server=1)
    assert p.switches == 1 and p.has_note("single_switch_one_rail")


def test_partly_filled_leaves_get_the_ecmp_note():
    # Ethernet plans keep the minimum spine count (InfiniBand ones are wired evenly where
    # the published way costs little, so a partly filled leaf is rarer there).
    notes = set()
    for gpus in range(7600, 7800, 8):
        p = plan(Fabric.ROCE_400, gpus)
        for _count, size in p.planes:
            if size.tiers == 2 and any(up < size.spine for _, _, up in size.leaf_groups):
                assert p.has_note("partial_leaf_ecmp"), gpus
                notes.add(gpus)
    assert notes, "the sweep must reach a partly filled leaf"


def test_uplinks_that_do_not_divide_over_the_spines_get_a_note_and_the_even_count():
    # 80 servers on QM9700: leaves of 27 and 26 GPUs, 640 uplinks on 10 spines.
    p = plan(Fabric.INFINIBAND, 640)
    (_, size), = p.planes
    assert (size.spine, size.leaf_groups) == (10, ((16, 27, 27), (8, 26, 26)))
    note = next(n for n in p.notes if n.key == "uneven_spine_links")
    assert note.params == {"leaves": 16, "uplinks": 27, "spines": 10, "even_spines": 14,
                           "extra_uplinks": 32}  # every leaf 28 uplinks, 2 to each spine
    assert even_spines(size) == (14, 32)
    # XDR on the 144-port Q3400: 64 uplinks per leaf on 15 spines at the minimum; 16 spines
    # need no extra uplink, so 16 is the plan (the published way).
    xdr = plan(Fabric.INFINIBAND, 2048, nic_speed=800)
    assert xdr.spine == 16 and not xdr.has_note("uneven_spine_links")
    assert next(n for n in xdr.notes if n.key == "even_spines_headlined").params == {
        "spines": 16, "minimum": 15, "extra_uplinks": 0}
    # Even wiring: no note (the DGX SuperPOD sizes, the 1,024-GPU example).
    for gpus in (512, 1024, 2048):
        assert not plan(Fabric.INFINIBAND, gpus).has_note("uneven_spine_links")
    assert not plan(Fabric.ROCE_800, 1024, nic_speed=400).has_note("uneven_spine_links")


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 200_000), st.sampled_from([1, 2, 4, 8, 16]),
       st.sampled_from(NIC_SPEEDS), st.sampled_from(list(Fabric)[1:]))
def test_no_plan_hangs_on_one_spine_or_one_core(gpus, gps, nic, fabric):
    assume(gpus >= gps)
    try:
        p = plan(fabric, gpus, gpus_per_server=gps, nic_speed=nic)
    except (LookupError, FabricTooLarge):
        return
    for _, size in p.planes:
        if size.tiers >= 2:
            assert size.spine >= 2
            assert all(up >= 2 for _, _, up in size.leaf_groups)
        if size.tiers == 3:
            assert size.core >= 2
    if p.switches == 1:
        assert p.rails == 1 or gpus < 2


# --- planes and the largest size --------------------------------------------------------------


def test_infiniband_ndr_splits_into_planes_and_names_its_limit():
    p = plan(Fabric.INFINIBAND, 100_000)
    assert p.plane_count == 2 and p.has_note("planes_for_scale")
    with pytest.raises(FabricTooLarge) as exc:
        plan(Fabric.INFINIBAND, 1_000_000)
    assert exc.value.max_gpus == 524_288  # 8 planes x 65,536 (k=64: k^3/4 per plane)
    plan(Fabric.INFINIBAND, 524_288)  # the largest itself plans


def test_rail_ports_follow_the_nics_and_a_partial_last_server():
    assert rail_ports(Answers(9)) == [2, 1, 1, 1, 1, 1, 1, 1]
    assert rail_ports(Answers(16, nics_per_server=4)) == [2, 2, 2, 2]
    assert rail_ports(Answers(12, nics_per_server=4)) == [2, 2, 1, 1]
    assert rail_ports(Answers(3)) == [1, 1, 1, 0, 0, 0, 0, 0]


def test_nic_ports_and_uplink_speeds():
    assert nic_ports("ethernet", 800) == (2, 400)
    assert nic_ports("infiniband", 800) == (1, 800)
    assert nic_ports("ethernet", 200) == (1, 200)
    assert uplink_speed(Fabric.ROCE_800, 200) == 800
    assert uplink_speed(Fabric.ROCE_400, 800) == 400
    assert uplink_speed(Fabric.INFINIBAND, 800) == 800
    assert uplink_speed(Fabric.INFINIBAND, 400) == 400


def test_no_switch_for_the_speeds_is_a_lookup_error():
    ib_ndr_only = Catalogue(tuple(s for s in CAT.switches if s.key == "nvidia-qm9700"))
    with pytest.raises(LookupError):
        plan_fabric(Fabric.INFINIBAND, Answers(512, nic_speed=800), ib_ndr_only)
    rec = recommend(Answers(512, nic_speed=800, budget="performance"), ib_ndr_only)
    assert rec.recommended.plan is None and rec.recommended.error == "no_switch"


# --- the vendor-neutral pick is a rule, not key order -------------------------------------------


def _switch(key, *, ports=64, speed=800, power=None, priority=100, vendor="v"):
    return SwitchSpec(key, vendor, key.upper(), "ethernet", ports, speed, SRC,
                      breakout=(400, 200), family="nvidia-spectrum", vendor_key=vendor,
                      power_w=power, priority=priority)


def test_the_pick_prefers_fewest_switches_then_power_then_priority():
    big = _switch("zz-big", ports=128)
    small = _switch("aa-small")
    cat = Catalogue((small, big))
    assert plan_fabric(Fabric.ROCE_800, Answers(8192), cat).switch.key == "zz-big"
    low = _switch("zz-low", power=1500)
    high = _switch("aa-high", power=2000)
    assert plan_fabric(Fabric.ROCE_800, Answers(1024), Catalogue((high, low))).switch.key == \
        "zz-low"
    first = _switch("zz-first", priority=1)
    second = _switch("aa-second", priority=2)
    for order in ((first, second), (second, first)):
        assert plan_fabric(Fabric.ROCE_800, Answers(1024), Catalogue(order)).switch.key == \
            "zz-first"


# --- serialisation ----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 300_000), st.sampled_from([1, 4, 8]), st.sampled_from((None, *NIC_SPEEDS)),
       st.sampled_from(["training", "inference"]), st.sampled_from(["any", "nvidia", "arista"]),
       st.sampled_from(["rack", "row", "hall", "building", "campus"]))
def test_a_recommendation_round_trips_through_json(gpus, gps, nic, workload, vendor, distance):
    a = Answers(gpus, gps, workload=workload, nic_speed=nic, vendor=vendor, distance=distance,
                throughput_limited=True)
    rec = recommend(a, CAT)
    data = json.loads(json.dumps(rec.to_dict()))
    from selector.domain import Recommendation
    assert Recommendation.from_dict(data) == rec


# --- fat-tree invariants of every plane ----------------------------------------------------------


def check_plane(ports: list[int], native_ports: int, native: int, gpu: int, up: int):
    shape = leaf_shape(native_ports, native, gpu, up)
    size = size_plane(ports, shape)
    total = sum(p for p in ports if p)
    servers = max(ports)
    assert size.links["gpu_leaf"] == total == sum(c * d for c, d, _ in size.leaf_groups)
    assert size.leaf == sum(c for c, _, _ in size.leaf_groups)
    if size.tiers == 1:
        assert total <= shape.single and size.switches == 1 and size.spine == size.core == 0
        return size
    for _count, down, uplinks in size.leaf_groups:
        assert 1 <= down <= shape.leaf_down
        assert uplinks <= shape.leaf_up
        # non-blocking: uplink bandwidth covers the GPU links
        assert uplinks * up >= down * gpu
        assert shape.native_ports_used(down, uplinks) <= native_ports
    uplinks = size.links["leaf_spine"]
    assert uplinks == sum(c * u for c, _, u in size.leaf_groups)
    k = shape.radix
    # A leaf never splits a rail it could hold, and holds whole rails when it shares.
    if servers <= shape.leaf_down:
        assert all(down % 1 == 0 for _, down, _ in size.leaf_groups)
    else:
        assert size.leaf == len([p for p in ports if p]) * math.ceil(servers / shape.leaf_down)
    if size.tiers == 2:
        assert size.leaf <= k
        assert size.spine == max(2, math.ceil(uplinks / k))
        assert size.spine * k >= uplinks
    else:
        assert k < size.leaf <= k * k // 2
        assert size.spine == max(2, math.ceil(uplinks / (k // 2)))
        assert size.core == max(2, math.ceil(uplinks / k))
        assert size.links["spine_core"] == uplinks
        assert size.core * k >= uplinks
    assert size.switches == size.leaf + size.spine + size.core
    return size


def test_exhaustive_small_switches():
    """Every plane of up to 8 rails and every GPU count a 3-tier fabric of a small switch
    holds, for the breakout combinations a real switch offers."""
    for native_ports, native, gpu, up in ((4, 800, 400, 800), (4, 800, 400, 400),
                                          (8, 400, 400, 400), (6, 800, 200, 800),
                                          (4, 800, 200, 400)):
        shape = leaf_shape(native_ports, native, gpu, up)
        for rails in range(1, 9):
            top = (shape.radix * shape.radix // 2) // rails * shape.leaf_down
            for servers in range(1, top + 1):
                check_plane([servers] * rails, native_ports, native, gpu, up)
                if rails > 1 and servers > 1:
                    check_plane([servers] + [servers - 1] * (rails - 1), native_ports, native,
                                gpu, up)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from([(64, 800, 400, 800), (64, 800, 400, 400), (64, 800, 200, 800),
                        (64, 400, 400, 400), (144, 800, 800, 800), (32, 800, 400, 800)]),
       st.integers(1, 16), st.integers(1, 40_000))
def test_plane_invariants(shape_args, rails, servers):
    native_ports, native, gpu, up = shape_args
    shape = leaf_shape(*shape_args)
    assume(math.ceil(servers / shape.leaf_down) * rails <= shape.radix * shape.radix // 2)
    check_plane([servers] * rails, *shape_args)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 400_000), st.sampled_from([1, 2, 4, 8, 16]),
       st.sampled_from((None, *NIC_SPEEDS)), st.sampled_from(list(Fabric)[1:]))
def test_every_plan_connects_every_gpu_once(gpus, gps, nic, fabric):
    a = Answers(gpus, gps, nic_speed=nic)
    try:
        p = plan_fabric(fabric, a, CAT)
    except (LookupError, FabricTooLarge):
        return
    assert p.links["gpu_leaf"] == sum(rail_ports(a)) * p.ports_per_nic
    assert p.switches == p.leaf + p.spine + p.core
    assert p.power_w >= 0
    kinds = {line.kind for line in p.bom}
    assert "switch" in kinds
    assert sum(line.count for line in p.bom if line.kind == "switch") == p.switches


@settings(max_examples=100, deadline=None)
@given(st.integers(9, 100_000), st.sampled_from(list(Fabric)[1:]))
def test_more_gpus_never_needs_fewer_switches(gpus, fabric):
    try:
        a, b = plan(fabric, gpus), plan(fabric, gpus + 8)
    except (LookupError, FabricTooLarge):
        return
    assume(a.plane_count == b.plane_count and a.switch == b.switch)
    # The minimum plan is monotone; spines added to wire a plane evenly are not.
    assert _minimum_switches(b) >= _minimum_switches(a) or b.tiers < a.tiers


def _minimum_switches(p):
    note = next((n for n in p.notes if n.key == "even_spines_headlined"), None)
    if note is None:
        return p.switches
    return p.switches - p.plane_count * (note.params["spines"] - note.params["minimum"])


# Finding 10: NVIDIA's published rows are the plan, not a note.
@pytest.mark.parametrize(("gpus", "nic", "leaf", "spine"), [
    (248, 400, 8, 4), (504, 400, 16, 8), (760, 400, 24, 16), (1016, 400, 32, 16),  # H100
    (576, 800, 8, 4), (1152, 800, 16, 8), (2304, 800, 32, 18), (4608, 800, 64, 36),  # B300
    (10368, 800, 144, 72),
])
def test_published_superpod_rows_are_headlined(gpus, nic, leaf, spine):
    p = plan(Fabric.INFINIBAND, gpus, nic_speed=nic)
    assert (p.leaf, p.spine, p.core) == (leaf, spine, 0)
    assert not p.has_note("uneven_spine_links")
    (_count, size), = p.planes
    ups = {up for _n, _d, up in size.leaf_groups}
    assert len(ups) == 1 and ups.pop() % spine == 0  # every leaf reaches every spine evenly


def test_bom_counts_modules_and_cables_per_switch():
    p = plan(Fabric.ROCE_800, 1024, nic_speed=400)
    lines = {(line.tier, line.end, line.model): line.count for line in p.bom}
    # 16 leaves x 64 GPU links: 32 twin-port modules each; one NIC module and fibre per link.
    assert lines[("gpu", "switch", "MMA4Z00-NS")] == 16 * 32
    assert lines[("gpu", "nic", "MMA4Z00-NS400")] == 1024
    assert lines[("gpu", "", "MFP7E10")] == 1024
    # 1,024 leaf-spine links at 400G (the 800G ports as 2 x 400G): a twin-port module per
    # two links at each end, one fibre per link.
    assert lines[("leaf_spine", "switch", "MMA4Z00-NS")] == 512 * 2
    assert lines[("leaf_spine", "", "MFP7E10")] == 1024
    assert p.modules == 512 + 1024 + 1024 and p.cables == 2048
    assert p.power_w == round(512 * 17 + 1024 * 9 + 1024 * 17)
    assert not p.power_complete  # no switch power figure in the documents we read


@pytest.mark.parametrize(("distance", "models"), [
    ("rack", {"MCP7Y00-Nxxx", "MMA4Z00-NS"}),  # 3 m: splitter DAC; straight DAC stops at 2 m
    ("hall", {"MMA4Z00-NS", "MMS4X00-NS"}),
    ("building", {"MMS4X00-NM", "SMF MPO-12/APC trunk (site cabling)"}),
    ("campus", {"MMS4X50-NM", "SMF duplex LC (site cabling)"}),
])
def test_the_distance_picks_copper_or_the_optics(distance, models):
    p = plan(Fabric.ROCE_400, 512, distance=distance)
    assert models <= {line.model for line in p.bom}


def test_an_800g_ethernet_nic_without_a_catalogue_module_is_reported():
    p = plan(Fabric.ROCE_400, 2048, nic_speed=800)
    assert any(line.tier == "gpu" and line.end == "switch" for line in p.bom)
    assert not any(line.tier == "gpu" and line.end == "nic" for line in p.bom)
    assert any(n.key == "no_part" and n.params.get("end") == "nic" for n in p.notes)
    assert not p.power_complete


def test_the_infiniband_alternative_has_its_own_parts():
    """Finding 8: the XDR plan listed the RoCE plan's 2 x 400G Ethernet modules on its 800G
    XDR links. A 100G-PAM4 twin-port module never carries an XDR link; the tiers without
    an XDR part are named for our engineers, and the cost is then incomplete."""
    ib = plan(Fabric.INFINIBAND, 2048, nic_speed=800)
    assert ib.uplink_gbps == 800 and ib.switch.model.startswith("Quantum-X800")
    assert [line.kind for line in ib.bom] == ["switch"]
    missing = {(n.params["tier"], n.params.get("end", "")) for n in ib.notes
               if n.key == "no_part"}
    assert {("gpu", ""), ("leaf_spine", "")} <= missing
    # NDR keeps the twin-port OSFP modules NVIDIA documents for it.
    ndr = plan(Fabric.INFINIBAND, 1024, nic_speed=400)
    assert {"MMA4Z00-NS", "MMA4Z00-NS400"} <= {line.model for line in ndr.bom}
    # The RoCE plan of the same cluster lists its own (Ethernet) parts.
    roce = plan(Fabric.ROCE_800, 2048, nic_speed=800)
    assert any(line.kind == "module" for line in roce.bom)
    assert {line.key for line in roce.bom} != {line.key for line in ib.bom}


# --- issue 22: plan time grows with the kinds of switch, not their number ----------------------


@pytest.mark.parametrize("gpus", [1_000, 100_000, 1_000_000])
def test_the_bill_of_materials_counts_groups_of_identical_switches(gpus, monkeypatch):
    """Spine and core ports are counted per group of identical switches: a 1,000,000-GPU
    plan (tens of thousands of spines) never walks them one by one (issue 22: 46 ms)."""
    from selector.domain.sizing import FabricSize

    fabrics = [Fabric.ROCE_400, Fabric.ROCE_800] + ([Fabric.INFINIBAND] if gpus < 10**6 else [])
    expected = {fabric: plan(fabric, gpus) for fabric in fabrics}

    def per_switch(self):
        raise AssertionError("walked per switch")

    monkeypatch.setattr(FabricSize, "spine_ports", per_switch)
    monkeypatch.setattr(FabricSize, "core_ports", per_switch)
    for fabric, before in expected.items():
        assert plan(fabric, gpus) == before


@given(st.integers(1, 20_000), st.integers(0, 20_000), st.sampled_from([2, 3]))
def test_grouped_spine_and_core_ports_expand_to_the_per_switch_ones(spines, extra, tiers):
    from selector.domain.sizing import FabricSize

    links = {"gpu_leaf": 1, "leaf_spine": spines + extra, "spine_core": spines + extra
             if tiers == 3 else 0}
    core = -(-spines // 2) if tiers == 3 else 0
    size = FabricSize(tiers=tiers, leaf=1, spine=spines, core=core, switches=1, links=links,
                      transceiver_ends=0, radix=64, oversubscription=1, leaf_down=32,
                      leaf_up=32, servers=1, rails=1)
    spine = [pair for n, down, up in size.spine_port_groups() for pair in [(down, up)] * n]
    assert tuple(spine) == size.spine_ports()
    core_ports = [p for n, p in size.core_port_groups() for p in [p] * n]
    assert tuple(core_ports) == size.core_ports()


# --- issue 22, finding 12: inference is sized as independent two-tier pods -------------------


@pytest.mark.parametrize("fabric", [Fabric.ROCE_400, Fabric.INFINIBAND])
@pytest.mark.parametrize("gpus", [16_384, 100_000])
def test_a_large_inference_cluster_is_the_fewest_identical_two_tier_pods(fabric, gpus):
    inference = plan(fabric, gpus, workload="inference")
    training = plan(fabric, gpus)
    assert training.tiers == 3 and training.pods == 1
    assert inference.tiers == 2 and inference.pods > 1
    note = next(n for n in inference.notes if n.key == "inference_pods")
    pod_servers = note.params["servers"]
    assert note.params["pods"] == inference.pods
    assert inference.pods * pod_servers >= inference.servers > (inference.pods - 1) * pod_servers
    # One pod is the training plan of a pod's GPUs; one pod fewer would need three tiers.
    pod = plan(fabric, pod_servers * 8)
    assert pod.pods == 1 and pod.tiers == 2
    assert inference.planes == pod.planes
    bigger = -(-inference.servers // (inference.pods - 1))
    assert plan(fabric, bigger * 8).tiers == 3
    # Every count is all the pods': switches, links, modules, cables, power.
    assert inference.switches == inference.pods * pod.switches
    assert inference.links == {k: inference.pods * v for k, v in pod.links.items()}
    assert inference.transceiver_ends == inference.pods * pod.transceiver_ends
    assert inference.modules == inference.pods * pod.modules
    assert inference.cables == inference.pods * pod.cables
    assert inference.power_w == pytest.approx(inference.pods * pod.power_w, abs=1)
    assert inference.size.leaf == inference.leaf == inference.pods * pod.leaf
    switch_line = next(line for line in inference.bom if line.kind == "switch")
    assert switch_line.count == inference.switches
    assert inference.switches < training.switches


def test_inference_pods_cost_multiplies_and_round_trips():
    from decimal import Decimal

    from selector.domain import Prices

    prices = Prices("CNY", "2026-12-03", {
        key: Decimal(100) for key in [s.key for s in CAT.switches] + [p.key for p in CAT.parts]})
    inference = plan_fabric(Fabric.ROCE_400, Answers(100_000, workload="inference"), CAT, prices)
    note = next(n for n in inference.notes if n.key == "inference_pods")
    pod = plan_fabric(Fabric.ROCE_400, Answers(note.params["servers"] * 8), CAT, prices)
    assert inference.cost.amount == inference.pods * pod.cost.amount
    data = json.loads(json.dumps(inference.to_dict()))
    assert data["pods"] == inference.pods
    assert FabricPlan.from_dict(data) == inference
    del data["pods"]  # a plan frozen before pods existed is one fabric
    assert FabricPlan.from_dict(data).pods == 1


def test_small_inference_clusters_and_training_stay_one_fabric():
    assert plan(Fabric.ROCE_400, 512, workload="inference").pods == 1
    assert plan(Fabric.ROCE_800, 100_000).pods == 1
    assert plan(Fabric.ROCE_400, 100_000, workload="mixed").pods == 1


def test_a_million_inference_gpus_fit_on_infiniband_as_pods():
    with pytest.raises(FabricTooLarge):
        plan(Fabric.INFINIBAND, 1_000_000)
    p = plan(Fabric.INFINIBAND, 1_000_000, workload="inference")
    assert p.tiers == 2 and p.pods > 1 and p.links["gpu_leaf"] >= 1_000_000


# --- issue 22, finding 7: the server platform decides the NIC end ----------------------------


def _nic_lines(p: FabricPlan):
    return [line for line in p.bom if line.kind == "module" and line.end == "nic"]


@pytest.mark.parametrize("fabric", [Fabric.ROCE_400, Fabric.INFINIBAND])
def test_dgx_twin_port_cages_take_one_module_per_two_nic_ports(fabric):
    from decimal import Decimal

    from selector.domain import Prices

    prices = Prices("CNY", "2026-12-03", {
        key: Decimal(1) for key in [s.key for s in CAT.switches] + [p.key for p in CAT.parts]})
    pcie = plan_fabric(fabric, Answers(2048, platform="pcie-osfp"), CAT, prices)
    dgx = plan_fabric(fabric, Answers(2048, platform="dgx"), CAT, prices)
    assert sum(line.count for line in _nic_lines(pcie)) == 2048
    assert _nic_lines(dgx) == []  # no single-port NIC modules on a DGX
    note = next(n for n in dgx.notes if n.key == "no_part" and n.params.get("end") == "nic")
    assert note.params["form"] == "twin-port-osfp" and note.params["count"] == 1024
    # The headline module count is every module: switch ends and the twin-port NIC ends.
    switch_end = sum(line.count for line in dgx.bom if line.kind == "module")
    assert dgx.modules == switch_end + 1024 == pcie.modules - 1024
    assert pcie.cost.complete and not dgx.cost.complete
    assert "part:gpu:nic" in dgx.cost.missing and not dgx.power_complete


def test_a_partly_populated_dgx_rounds_its_own_twin_ports_up():
    p = plan(Fabric.ROCE_400, 8 * 9 + 3, platform="dgx", nics_per_server=8)  # 10 servers
    note = next(n for n in p.notes if n.key == "no_part" and n.params.get("end") == "nic")
    assert note.params["count"] == 9 * 4 + 2  # the last server: 3 GPUs -> 3 NICs -> 2


def test_bluefield3_takes_qsfp112_and_unsure_is_planned_as_pcie_osfp():
    bf3 = plan(Fabric.ROCE_400, 2048, platform="bluefield3")
    (line,) = _nic_lines(bf3)
    assert (line.model, line.count) == ("MMA1Z00-NS400", 2048)
    assert line.source.url.startswith("https://docs.nvidia.com/")
    assert plan(Fabric.ROCE_400, 2048) == plan(Fabric.ROCE_400, 2048, platform="unsure")
    unsure, pcie = plan(Fabric.ROCE_400, 2048), plan(Fabric.ROCE_400, 2048,
                                                       platform="pcie-osfp")
    assert unsure.bom == pcie.bom
    # The QSFP112 part is an Ethernet one: on InfiniBand our engineers specify the NIC end.
    ib = plan(Fabric.INFINIBAND, 256, platform="bluefield3")
    assert _nic_lines(ib) == [] and any(n.params.get("end") == "nic" for n in ib.notes
                                        if n.key == "no_part")


def test_the_platform_is_validated_and_old_answers_read_as_unsure():
    from selector.domain import InvalidAnswers

    with pytest.raises(InvalidAnswers) as exc:
        Answers(64, platform="mainframe")
    assert exc.value.errors == {"platform": ["invalid_choice"]}
    data = Answers(64, platform="dgx").to_dict()
    assert data["platform"] == "dgx"
    del data["platform"]
    assert Answers.from_dict(data).platform == "unsure"
    frozen = plan(Fabric.ROCE_400, 512, platform="dgx").to_dict()
    assert FabricPlan.from_dict(frozen).platform == "dgx"
    del frozen["platform"]
    assert FabricPlan.from_dict(frozen).platform == "unsure"


# --- issue 22, finding 11: leaf oversubscription of a catalogue plan --------------------------


@pytest.mark.parametrize("fabric", [Fabric.ROCE_400, Fabric.ROCE_800, Fabric.INFINIBAND])
@pytest.mark.parametrize("gpus", [760, 2048, 16_384])
@pytest.mark.parametrize("ratio", [2, 3])
def test_oversubscribed_leaves_buy_fewer_uplinks_and_say_so(fabric, gpus, ratio):
    blocking = plan(fabric, gpus, oversubscription=ratio)
    full = plan(fabric, gpus)
    assert blocking.switches < full.switches
    assert blocking.has_note("leaf_oversubscription") and not full.has_note(
        "leaf_oversubscription")
    for _count, size in blocking.planes:
        assert size.oversubscription == ratio
        for _n, down, up in size.leaf_groups:
            # GPU bandwidth over uplink bandwidth at most the ratio, within the switch's
            # native ports.
            assert down * blocking.port_gbps <= ratio * up * blocking.uplink_gbps
            native = blocking.switch.port_speed_gbps
            assert (-(-down // (native // blocking.port_gbps))
                    + -(-up // (native // blocking.uplink_gbps))) <= blocking.switch.ports


def test_oversubscription_is_one_two_or_three():
    from selector.domain import InvalidAnswers

    for bad in (0, 4, "2", True):
        with pytest.raises(InvalidAnswers):
            Answers(64, oversubscription=bad)
    assert Answers(64).oversubscription == 1
    data = Answers(64, oversubscription=3).to_dict()
    del data["oversubscription"]
    assert Answers.from_dict(data).oversubscription == 1
