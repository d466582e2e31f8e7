"""Invariants an architect checks, over the sweep a review ran (issue 22): GPU counts from 8
to 1,000,000, 200/400/800G NICs, 1/4/8 NICs per server, every distance, the vendor choices
and both RoCE fabrics (plus InfiniBand for the cost rule).

* A port group that runs lossy (a lossy warning) has no lossless line: no PFC profile with
  a cable length, no PFC watchdog, no ``pfc_enable`` for its ports.
* Every cable length a snippet writes is at least the plan's length for those ports.
* Every GPU port and every uplink port of the fullest leaf, and every spine/core port, is
  in a QoS group the snippet configures.
* A part the plan needs and the catalogue cannot supply makes the cost incomplete, and no
  RoCE/InfiniBand ratio is shown (with every catalogue row priced, so that a missing
  price cannot hide the rule).

The same invariants also run over the answers issue 22 added (``MORE``): inference pods,
leaf oversubscription 2:1 and 3:1, and the DGX / BlueField-3 server platforms.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from decimal import Decimal

import pytest

from selector.domain import DEFAULT_CATALOGUE, Answers, FabricTooLarge, Prices, recommend
from selector.domain.answers import DISTANCES, Workload
from selector.domain.decision import Fabric
from selector.domain.fabric import FabricPlan
from selector.domain.plan import plan_fabric
from selector.domain.recommend import leaf_ports, tuning_for
from selector.domain.tuning import LOSSLESS_MAX_M, TuningProfile

GPUS = (8, 64, 760, 1000, 2048, 8192, 100_000, 1_000_000)
NICS = (200, 400, 800)
NICS_PER_SERVER = (1, 4, 8)
VENDORS = ("any", "arista", "asterfusion")
ROCE = (Fabric.ROCE_400, Fabric.ROCE_800)
COMBINATIONS = list(itertools.product(GPUS, NICS, NICS_PER_SERVER, DISTANCES, VENDORS, ROCE))
# Every switch and part of the catalogue priced: only a part the catalogue lacks can make
# a cost incomplete here.
FULL_PRICES = Prices("CNY", "2026-12-02", {
    key: Decimal(1000) for key in [s.key for s in DEFAULT_CATALOGUE.switches]
    + [p.key for p in DEFAULT_CATALOGUE.parts]})


@functools.cache
def _plan(gpus: int, nic: int, nps: int, distance: str, vendor: str,
          fabric: Fabric) -> FabricPlan | None:
    answers = Answers(gpus, nic_speed=nic, nics_per_server=nps, distance=distance,
                      vendor=vendor)
    try:
        return plan_fabric(fabric, answers, DEFAULT_CATALOGUE, FULL_PRICES)
    except (FabricTooLarge, LookupError):
        return None


# Issue 22: (gpus, nic, distance, fabric, oversubscription, platform, workload).
MORE = list(itertools.product(GPUS, (400, 800), ("row", "campus"), ROCE, (1, 2, 3),
                              ("dgx", "bluefield3"), ("training", "inference")))


@functools.cache
def _plan_more(gpus: int, nic: int, distance: str, fabric: Fabric, oversubscription: int,
               platform: str, workload: str) -> FabricPlan | None:
    answers = Answers(gpus, nic_speed=nic, distance=distance, workload=Workload(workload),
                      oversubscription=oversubscription, platform=platform)
    try:
        return plan_fabric(fabric, answers, DEFAULT_CATALOGUE, FULL_PRICES)
    except (FabricTooLarge, LookupError):
        return None


@functools.cache
def _sweep() -> list[tuple[tuple, FabricPlan, TuningProfile]]:
    out = []
    for combo in COMBINATIONS + MORE:
        plan = _plan(*combo) if len(combo) == 6 else _plan_more(*combo)
        if plan is None:
            continue
        tuning = tuning_for(plan)
        assert tuning is not None, combo
        out.append((combo, plan, tuning))
    return out


def test_the_sweep_covers_at_least_700_planned_combinations():
    assert len(COMBINATIONS) >= 700
    assert len(_sweep()) >= 700 + len(MORE) // 2
    plans = [p for c, p, _t in _sweep() if len(c) == 7]
    assert any(p.pods > 1 for p in plans) and any(p.has_note("leaf_oversubscription")
                                                   for p in plans)
    families = {t.family for _c, _p, t in _sweep()}
    assert families == {"nvidia-spectrum", "sonic"}


def _nvue_profiles(t: TuningProfile) -> tuple[dict[str, int], dict[str, str], set[str],
                                              set[str]]:
    """PFC profile -> cable length; interface list -> profile; lossy (tx/rx disabled)
    profiles; interface lists with the PFC watchdog."""
    cable, assigned, disabled, watchdog = {}, {}, set(), set()
    for line in t.config:
        text = line.text
        if m := re.fullmatch(r"nv set qos pfc (\S+) cable-length (\d+)", text):
            cable[m[1]] = int(m[2])
        elif m := re.fullmatch(r"nv set interface (\S+) qos pfc profile (\S+)", text):
            assigned[m[1]] = m[2]
        elif m := re.fullmatch(r"nv set qos pfc (\S+) (?:tx|rx) disable", text):
            disabled.add(m[1])
        elif m := re.fullmatch(r"nv set interface (\S+) qos pfc-watchdog", text):
            watchdog.add(m[1])
    return cable, assigned, disabled, watchdog


def _sonic_tables(t: TuningProfile) -> list[dict]:
    """The JSON documents of a SONiC snippet (one per switch role), parsed."""
    docs, current = [], None
    for line in t.config:
        if line.text == "{":
            current = [line.text]
        elif current is not None:
            current.append(line.text)
            if line.text == "}":
                docs.append(json.loads("\n".join(current)))
                current = None
    return docs


def _port_cable(docs: list[dict]) -> list[dict[str, int]]:
    return [{port: int(length.rstrip("m")) for port, length in
             doc["CABLE_LENGTH"]["AZURE"].items()} for doc in docs]


def test_no_global_cable_length_and_lossy_groups_have_no_lossless_line():
    """Finding 2: the warning said lossy while the snippet set lossless on every port."""
    checked = 0
    for combo, _p, t in _sweep():
        text = "\n".join(line.text for line in t.config)
        assert "default-global cable-length" not in text, combo
        assert "config qos reload" not in [line.text.removeprefix("sudo ") for line in
                                           t.config], combo
        lossy_warned = any(w.key == "long_link_lossy" for w in t.warnings)
        long_groups = [g for g in t.groups if g.cable_m >= LOSSLESS_MAX_M]
        assert lossy_warned == bool(long_groups), combo
        for group in t.groups:
            if group.cable_m >= LOSSLESS_MAX_M:
                assert not group.lossless, combo
        if t.family == "nvidia-spectrum":
            cable, assigned, disabled, watchdog = _nvue_profiles(t)
            for group in t.lossy_groups:
                profile = assigned[group.ports]
                assert profile in disabled and profile not in cable, combo
                assert group.ports not in watchdog, combo
                assert any(line.text.startswith("# ") and "lossy" in line.text
                           and group.ports in line.text for line in t.config), combo
                checked += 1
        else:
            docs = _sonic_tables(t)
            for group in t.lossy_groups:
                doc = docs[1 if group.role == "fabric" else 0]  # leaf, then spine/core
                for ports, qos in doc["PORT_QOS_MAP"].items():
                    if set(ports.split(",")) & set(group.ports.split(",")):
                            assert "pfc_enable" not in qos, combo
                            checked += 1
            if not any(g.lossless for g in t.groups):
                assert not any("pfcwd start" in line.text for line in t.config), combo
    assert checked > 50


def test_every_cable_length_covers_the_plans_links():
    """Finding 3: SONiC wrote "5m" for a 50 m plan; NVUE one global length for all."""
    for combo, plan, t in _sweep():
        gpu_m = min(plan.reach_m, 50)
        for group in t.groups:
            assert group.cable_m == (gpu_m if group.role == "gpu" else plan.reach_m), combo
        if t.family == "nvidia-spectrum":
            cable, assigned, _disabled, _dog = _nvue_profiles(t)
            for group in t.groups:
                if group.lossless:
                    assert cable[assigned[group.ports]] >= group.cable_m, combo
        else:
            tables = _port_cable(_sonic_tables(t))
            for group in t.groups:
                lengths = tables[1 if group.role == "fabric" else 0]
                for port in group.ports.split(","):
                    assert lengths[port] >= group.cable_m, (combo, port)


def test_every_gpu_and_uplink_port_is_in_a_qos_group():
    """Finding 3: the SONiC snippet configured Ethernet0 only."""
    for combo, plan, t in _sweep():
        leaf = leaf_ports(plan)
        _count, down, up = max(plan.largest_plane.leaf_groups, key=lambda g: (g[1], g[2]))
        by_role = {g.role: g for g in t.groups}
        assert by_role["gpu"].count == leaf.gpu_ports * leaf.gpu_split >= down, combo
        if up:
            assert by_role["uplink"].count == leaf.uplink_ports * leaf.uplink_split >= up
            assert by_role["fabric"].count == leaf.switch_ports * leaf.uplink_split
        else:
            assert set(by_role) == {"gpu"}, combo
        if t.family == "nvidia-spectrum":
            _cable, assigned, _disabled, _dog = _nvue_profiles(t)
            for group in t.groups:
                assert group.ports in assigned, combo
        else:
            docs = _sonic_tables(t)
            assert len(docs) == (2 if up else 1), combo
            named = [set(itertools.chain.from_iterable(k.split(",") for k in
                                                       doc["PORT_QOS_MAP"]))
                     for doc in docs]
            queues = [set(itertools.chain.from_iterable(
                k.removesuffix("|3").split(",") for k in doc["QUEUE"])) for doc in docs]
            for group in t.groups:
                index = 1 if group.role == "fabric" else 0
                ports = set(group.ports.split(","))
                assert ports <= named[index] and ports <= queues[index], combo
                assert len(ports) == group.count, combo


def test_a_missing_part_means_an_incomplete_cost():
    """Finding 5: vendor=arista at 1,024 GPUs was "complete" with no modules or cables;
    800G NICs were complete while the NIC-end modules were missing."""
    seen = {"incomplete": 0, "complete": 0}
    for combo in COMBINATIONS + [(*c[:5], Fabric.INFINIBAND) for c in COMBINATIONS
                                 if c[5] == Fabric.ROCE_400 and c[4] == "any"] + MORE:
        plan = _plan(*combo) if len(combo) == 6 else _plan_more(*combo)
        if plan is None:
            continue
        assert plan.cost is not None
        needs_part = plan.has_note("no_part")
        assert plan.cost.complete == (not needs_part), combo
        seen["incomplete" if needs_part else "complete"] += 1
    assert seen["incomplete"] > 100 and seen["complete"] > 100


@pytest.mark.parametrize("query", [
    {"gpus": 1024, "vendor": "arista"},  # no optics in the catalogue for Arista cages
    {"gpus": 2048, "nic_speed": 800},  # no ConnectX-8 Ethernet NIC-end module
    {"gpus": 2048, "nic_speed": 800, "budget": "performance"},
])
def test_no_cost_and_no_ratio_when_a_part_is_missing(query):
    rec = recommend(Answers(**query), DEFAULT_CATALOGUE, FULL_PRICES)
    roce = next(o.plan for o in rec.options if o.plan and o.plan.switch.technology ==
                "ethernet")
    assert roce.has_note("no_part")
    assert roce.cost is not None and not roce.cost.complete
    assert any(key.startswith("part:") for key in roce.cost.missing)
    assert rec.cost_ratio() is None
    api = next(o.api_dict() for o in rec.options if o.plan is roce)
    assert api["cost"] is None


def test_a_complete_plan_still_has_a_cost_and_a_ratio():
    rec = recommend(Answers(1024), DEFAULT_CATALOGUE, FULL_PRICES)
    assert all(o.plan.cost.complete for o in rec.options)
    assert rec.cost_ratio() is not None


@pytest.mark.parametrize(("query", "family"), [
    ({"gpus": 2048, "distance": "campus"}, "nvidia-spectrum"),
    ({"gpus": 512, "vendor": "arista"}, "sonic"),
    ({"gpus": 512, "vendor": "asterfusion"}, "sonic"),
])
def test_the_reviewed_plans(query, family):
    from selector.domain import recommend

    t = recommend(Answers(**query), DEFAULT_CATALOGUE).tuning
    assert t.family == family
    text = "\n".join(line.text for line in t.config)
    if family == "nvidia-spectrum":
        # GPU ports lossless at 50 m, the 2 km uplinks lossy: the snippet says which.
        assert "nv set qos pfc roce-gpu cable-length 50" in text
        assert "cable-length 2000" not in text
        assert "roce-uplink-lossy" in text
    else:
        assert '"5m"' not in text and "Ethernet0" in text and "Ethernet252" in text
        assert "sudo config load /etc/sonic/roce-qos.json -y" in text
        assert "config qos reload afterwards" in text  # said, not run


def test_the_nics_match_the_switches():
    """Finding 13 (tuning gaps): the NIC-side settings that must match the switch profile
    (trust DSCP, the RoCE DSCP, PFC on the lossless priority, MTU) are in every snippet."""
    for combo, _p, t in _sweep():
        lines = [line.text for line in t.config]
        assert "mlnx_qos -i <netdev> --trust dscp" in lines, combo
        assert f"export NCCL_IB_TC={t.roce_dscp * 4}" in lines, combo
        assert "ip link set dev <netdev> mtu 9000" in lines and t.mtu > 9000, combo
        gpu = next(g for g in t.groups if g.role == "gpu")
        pfc = [x for x in lines if x.startswith("mlnx_qos -i <netdev> --pfc ")]
        assert bool(pfc) == gpu.lossless, combo
        if pfc:
            flags = pfc[0].split()[-1].split(",")
            assert [i for i, f in enumerate(flags) if f == "1"] == [t.pfc_priority], combo
        # The NIC maps the RoCE DSCP to the lossless priority: by default DSCP / 8.
        remapped = f"mlnx_qos -i <netdev> --dscp2prio set,{t.roce_dscp},{t.pfc_priority}"
        assert (remapped in lines) == (t.roce_dscp // 8 != t.pfc_priority), combo
