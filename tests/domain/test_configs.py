"""The per-switch configurations (issue 23) over the planner's sweep: one file per switch,
and in every file the snippet's invariants hold for the ports the cabling plan uses:

* every cabled GPU port and uplink (and every spine/core port) is in a QoS group;
* a lossless group's cable length is at least the plan's length for its ports;
* links at or beyond the lossless limit are in a lossy group: no cable length, no PFC
  watchdog, no ``pfc_enable`` for them;
* the hostname is the device name, every cabled port carries its far end, and every
  switch-to-switch port is a BGP unnumbered neighbor.
"""

from __future__ import annotations

import functools
import itertools
import json
import re

import pytest

from selector.domain import DEFAULT_CATALOGUE
from selector.domain.answers import DISTANCES
from selector.domain.build.cabling import switch_devices
from selector.domain.build.configs import (
    ASN_FIRST,
    ASN_LAST,
    SwitchConfig,
    asn_plan,
    iter_configs,
    opensm_conf,
)
from selector.domain.decision import Fabric
from selector.domain.fabric import FabricPlan
from selector.domain.tuning import LOSSLESS_MAX_M

from .test_cabling import _plan
from .test_fabric_sweep import NICS, NICS_PER_SERVER, VENDORS

GPUS = (8, 64, 1000, 2048)
ROCE = (Fabric.ROCE_400, Fabric.ROCE_800)


@functools.cache
def _sweep() -> list[tuple[tuple, FabricPlan]]:
    out = []
    for combo in itertools.product(GPUS, NICS, NICS_PER_SERVER, DISTANCES, VENDORS, ROCE):
        plan = _plan(*combo)
        if plan is not None:
            out.append((combo, plan))
    return out


def _expand_nvue(ports: str) -> set[str]:
    out: set[str] = set()
    for part in ports.split(","):
        split = re.fullmatch(r"swp(\d+)s(\d+)-(\d+)", part)
        native = re.fullmatch(r"swp(\d+)-(\d+)", part)
        if split:
            out |= {f"swp{split[1]}s{i}" for i in range(int(split[2]), int(split[3]) + 1)}
        elif native:
            out |= {f"swp{i}" for i in range(int(native[1]), int(native[2]) + 1)}
        else:
            out.add(part)
    return out


def _check_nvue(config: SwitchConfig) -> None:
    cable: dict[str, int] = {}
    lossy: set[str] = set()
    assigned: dict[str, str] = {}
    watchdog: set[str] = set()
    neighbors: set[str] = set()
    texts = [line.text for line in config.lines]
    for text in texts:
        if m := re.fullmatch(r"nv set qos pfc (\S+) cable-length (\d+)", text):
            cable[m[1]] = int(m[2])
        elif m := re.fullmatch(r"nv set qos pfc (\S+) tx disable", text):
            lossy.add(m[1])
        elif m := re.fullmatch(r"nv set interface (\S+) qos pfc profile (\S+)", text):
            for port in _expand_nvue(m[1]):
                assigned[port] = m[2]
        elif m := re.fullmatch(r"nv set interface (\S+) qos pfc-watchdog", text):
            watchdog |= _expand_nvue(m[1])
        elif m := re.fullmatch(r"nv set vrf default router bgp neighbor (\S+) remote-as "
                               r"external", text):
            neighbors.add(m[1])
    assert f"nv set system hostname {config.name}" in texts
    for port, far, reach, tier in config.ports:
        assert f"nv set interface {port} description {far}" in texts
        assert port in assigned, (config.name, port)
        profile = assigned[port]
        assert profile not in lossy or profile not in cable
        if reach >= LOSSLESS_MAX_M:
            assert profile in lossy and port not in watchdog, (config.name, port)
        if profile not in lossy:
            assert cable[profile] >= reach, (config.name, port, cable[profile], reach)
        assert (port in neighbors) == (tier != "gpu")


def _check_sonic(config: SwitchConfig) -> None:
    texts = [line.text for line in config.lines]
    tables: dict[str, dict] = {}
    for text in texts:
        if m := re.fullmatch(r'"(CABLE_LENGTH|PORT_QOS_MAP|DEVICE_METADATA|PORT)": (.*?),?',
                             text):
            table = tables.setdefault(m[1], {})
            for key, value in json.loads(m[2]).items():  # config load merges field by field
                table.setdefault(key, {}).update(value)
    assert tables["DEVICE_METADATA"]["localhost"]["hostname"] == config.name
    lengths = tables["CABLE_LENGTH"]["AZURE"]
    qos = {port: value for ports, value in tables["PORT_QOS_MAP"].items()
           for port in ports.split(",")}
    neighbors = {m[1] for text in texts
                 if (m := re.fullmatch(r" neighbor (\S+) interface remote-as external", text))}
    for port, far, reach, tier in config.ports:
        assert tables["PORT"][port]["description"] == far
        assert port in qos, (config.name, port)
        if reach >= LOSSLESS_MAX_M:
            assert "pfc_enable" not in qos[port]
        if "pfc_enable" in qos[port]:
            assert int(lengths[port].rstrip("m")) >= reach
        assert (port in neighbors) == (tier != "gpu")


SWEEP = _sweep()


def test_the_config_sweep_covers_both_families():
    assert len(SWEEP) >= 300
    assert {p.switch.family for _c, p in SWEEP} == {"nvidia-spectrum", "sonic"}


@pytest.mark.parametrize("combo,plan", SWEEP, ids=[str(c) for c, _p in SWEEP])
def test_one_file_per_switch_and_the_snippet_invariants_in_every_file(combo, plan):
    configs = list(iter_configs(plan, DEFAULT_CATALOGUE))
    names = [c.name for c in configs]
    assert names == [name for name, _r, _l in switch_devices(plan)]
    assert len(names) == len(set(names)) == plan.switches
    assert len({c.filename for c in configs}) == len(configs)
    check = _check_sonic if plan.switch.family == "sonic" else _check_nvue
    for config in configs:
        check(config)
        for line in config.lines:  # a command without its source does not ship
            assert line.citation is not None or line.text.startswith(("#", "{", "}")) \
                or line.text == "", line.text
        assert "# Sources:" in config.text()


def test_the_asns_follow_rfc_7938_and_rfc_6996():
    plan = _plan(1000, 400, 8, "row", "any", Fabric.ROCE_400)
    asns = asn_plan(plan)
    leaves = [asn for name, asn in asns.items() if "-leaf-" in name]
    spines = {asn for name, asn in asns.items() if "-spine-" in name}
    assert len(set(leaves)) == len(leaves)  # one ASN per leaf
    assert len(spines) == 1 and not spines & set(leaves)  # the spines share one
    assert all(ASN_FIRST < asn <= ASN_LAST for asn in asns.values())
    three = _plan(100_000 // 10, 400, 8, "row", "any", Fabric.ROCE_400)
    if three is not None and three.tiers == 3:
        asns = asn_plan(three)
        cores = {asn for name, asn in asns.items() if "-core-" in name}
        spines3 = [asn for name, asn in asns.items() if "-spine-" in name]
        assert len(cores) == three.plane_count
        assert len(set(spines3)) == len(spines3)


def test_infiniband_gets_the_subnet_managers_file():
    plan = _plan(1024, 400, 8, "row", "any", Fabric.INFINIBAND)
    assert list(iter_configs(plan, DEFAULT_CATALOGUE)) == []
    lines = opensm_conf(plan)
    assert "routing_engine ftree" in [line.text for line in lines]
    assert all(line.text.startswith("#") or line.citation for line in lines)
