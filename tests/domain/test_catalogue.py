"""Switch catalogue, switch picking and fabric plans."""

from __future__ import annotations

import json
import random

import pytest

import selector.domain as domain
from selector.domain import (
    DEFAULT_CATALOGUE,
    FABRIC_PROFILE,
    Answers,
    Fabric,
    FabricPlan,
    FabricTooLarge,
    SwitchSpec,
    decide,
    fabric_speed,
    pick_switch,
    plan_fabric,
    recommend_fabric,
    size_fabric,
)


def spec(key, tech="ethernet", speed=400, radix=64):
    return SwitchSpec(key, "V", "M", tech, speed, radix, "test")


def test_default_catalogue_rows():
    rows = {(s.model, s.technology, s.speed_gbps, s.radix) for s in DEFAULT_CATALOGUE}
    assert rows == {
        ("Quantum-2 QM9700", "infiniband", 400, 64),
        ("Quantum-X800 Q3400", "infiniband", 800, 144),
        ("Spectrum-4 SN5600", "ethernet", 800, 64),
        ("Spectrum-4 SN5600", "ethernet", 400, 128),
        ("Spectrum-4 SN5600", "ethernet", 200, 256),
        ("Tomahawk 5", "ethernet", 800, 64),
        ("Tomahawk 5", "ethernet", 400, 128),
    }
    assert len({s.key for s in DEFAULT_CATALOGUE}) == len(DEFAULT_CATALOGUE) == 7
    for s in DEFAULT_CATALOGUE:
        assert s.technology in ("ethernet", "infiniband")
        assert s.radix % 2 == 0
        assert "datasheet" in s.source or "product brief" in s.source
        size_fabric(512, 8, s.radix)  # every radix is valid for sizing


def test_fabric_profile():
    assert FABRIC_PROFILE == {
        Fabric.ROCE_400: ("ethernet", 400),
        Fabric.ROCE_800: ("ethernet", 800),
        Fabric.INFINIBAND: ("infiniband", 400),
    }
    assert Fabric.STANDARD not in FABRIC_PROFILE


@pytest.mark.parametrize(
    ("fabric", "nic", "speed"),
    [
        (Fabric.STANDARD, None, None),
        (Fabric.STANDARD, 800, None),
        (Fabric.ROCE_400, None, 400),
        (Fabric.ROCE_400, 800, 400),
        (Fabric.ROCE_800, None, 800),
        (Fabric.ROCE_800, 200, 800),
        (Fabric.INFINIBAND, None, 400),
        (Fabric.INFINIBAND, 200, 400),
        (Fabric.INFINIBAND, 400, 400),
        (Fabric.INFINIBAND, 800, 800),
        ("infiniband", 800, 800),
    ],
)
def test_fabric_speed(fabric, nic, speed):
    assert fabric_speed(fabric, nic) == speed


@pytest.mark.parametrize(
    ("fabric", "nic", "key"),
    [
        (Fabric.INFINIBAND, None, "nvidia-qm9700-ndr400"),
        (Fabric.INFINIBAND, 400, "nvidia-qm9700-ndr400"),
        (Fabric.INFINIBAND, 800, "nvidia-q3400-xdr800"),
        # SN5600 and Tomahawk 5 tie on radix; the smaller key wins.
        (Fabric.ROCE_400, None, "broadcom-th5-400g"),
        (Fabric.ROCE_800, None, "broadcom-th5-800g"),
        (Fabric.ROCE_800, 800, "broadcom-th5-800g"),
    ],
)
def test_pick_switch_default(fabric, nic, key):
    assert pick_switch(DEFAULT_CATALOGUE, fabric, nic).key == key


def test_pick_switch_standard_is_none():
    assert pick_switch(DEFAULT_CATALOGUE, Fabric.STANDARD, 800) is None
    assert pick_switch((), Fabric.STANDARD, None) is None


def test_pick_switch_largest_radix_then_key_any_order():
    cat = [
        spec("b", radix=64), spec("a", radix=64), spec("z", radix=128), spec("y", radix=128),
        spec("ib", tech="infiniband", radix=512), spec("fast", speed=800, radix=512),
    ]
    for _ in range(20):
        random.shuffle(cat)
        assert pick_switch(cat, Fabric.ROCE_400, None).key == "y"
    assert pick_switch(cat, "roce-v2-800g", None).key == "fast"


def test_pick_switch_no_match():
    with pytest.raises(LookupError):
        pick_switch((), Fabric.ROCE_400, None)
    with pytest.raises(LookupError):
        pick_switch([spec("eth400")], Fabric.INFINIBAND, None)
    only_ndr = [s for s in DEFAULT_CATALOGUE if s.key == "nvidia-qm9700-ndr400"]
    with pytest.raises(LookupError):
        pick_switch(only_ndr, Fabric.INFINIBAND, 800)
    with pytest.raises(ValueError):
        pick_switch(DEFAULT_CATALOGUE, "ethernet", None)


def test_recommend_fabric_standard_is_none():
    assert recommend_fabric(Answers(8)) is None
    assert recommend_fabric(Answers(40)) is None


def test_recommend_fabric_superpod_like():
    a = Answers(1024)  # R6 -> RoCE 800G on a 64-port 800G switch
    plan = recommend_fabric(a)
    assert isinstance(plan, FabricPlan)
    assert plan.fabric == decide(a).recommendation == Fabric.ROCE_800
    assert (plan.switch.key, plan.speed_gbps) == ("broadcom-th5-800g", 800)
    assert (plan.size.tiers, plan.size.leaf, plan.size.spine) == (2, 32, 16)
    assert plan.size == size_fabric(1024, 8, 64)


def test_recommend_fabric_runner_up_side_by_side():
    a = Answers(1024)
    runner = decide(a).runner_up
    plan = recommend_fabric(a, fabric=runner)
    assert plan.fabric == Fabric.INFINIBAND
    assert plan.switch.key == "nvidia-qm9700-ndr400"
    a800 = a.replace(nic_speed=800)
    plan = recommend_fabric(a800, fabric=Fabric.INFINIBAND)
    assert (plan.switch.key, plan.size.radix, plan.size.leaf) == ("nvidia-q3400-xdr800", 144, 16)
    assert recommend_fabric(Answers(8), fabric=Fabric.ROCE_400).size.leaf == 8
    assert recommend_fabric(Answers(1024), fabric="standard-network") is None


def test_recommend_fabric_radix_override_and_inference():
    a = Answers(512, workload="inference")
    plan = recommend_fabric(a)
    assert plan.fabric == Fabric.ROCE_400 and plan.switch.radix == 128
    assert (plan.size.leaf, plan.size.spine) == (8, 4)
    plan = recommend_fabric(a, radix=64)
    assert plan.size.radix == 64 and (plan.size.leaf, plan.size.spine) == (16, 8)


def test_plan_fabric_oversubscription():
    plan = plan_fabric(Fabric.ROCE_800, Answers(1024), oversubscription=3)
    assert plan.size.oversubscription == 3 and plan.size.spine == 6


def test_recommend_fabric_too_large_propagates():
    a = Answers(100_000, determinism="strict")  # InfiniBand NDR, 64 ports
    with pytest.raises(FabricTooLarge) as exc:
        recommend_fabric(a)
    assert exc.value.max_gpus == 65536
    assert recommend_fabric(a.replace(nic_speed=800)).size.tiers == 3  # XDR, 144 ports


def test_recommend_fabric_custom_catalogue():
    cat = [spec("mine", speed=800, radix=256)]
    plan = recommend_fabric(Answers(4096), cat)
    assert plan.switch.key == "mine" and plan.size.tiers == 2
    with pytest.raises(LookupError):
        recommend_fabric(Answers(100), cat)


def test_plan_to_dict_is_json_safe():
    data = recommend_fabric(Answers(2048)).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["fabric"] == "roce-v2-800g"
    assert data["switch"]["key"] == "broadcom-th5-800g"
    assert data["size"]["links"]["gpu_leaf"] == 2048
    assert data["speed_gbps"] == 800


def test_public_api_exports():
    for name in domain.__all__:
        assert hasattr(domain, name), name
    for name in ("decide", "Answers", "size_fabric", "lossless_tuning", "recommend_fabric",
                 "FabricPlan", "pick_switch", "REASON_KEYS", "ENGINE_VERSION"):
        assert name in domain.__all__
