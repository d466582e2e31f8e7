"""The catalogue: switches you can order and the optics and cables of the BOM, each with the
document it comes from."""

from __future__ import annotations

import dataclasses
import json

import pytest

import selector.domain as domain
from selector.domain import DEFAULT_CATALOGUE, VENDORS, Catalogue, PartSpec, Source, SwitchSpec
from selector.domain.catalogue import internal_path
from selector.domain.tuning import FAMILIES

CAT = DEFAULT_CATALOGUE


def test_every_row_has_a_source_with_title_url_and_date():
    assert CAT.problems() == []
    for row in (*CAT.switches, *CAT.parts):
        assert row.sources, row.key
        for src in row.sources:
            assert src.title.strip() and src.date in ("2026-12-01", "2026-12-03"), row.key
            assert src.url.startswith("https://"), row.key


def test_a_row_without_a_source_is_refused():
    bad = dataclasses.replace(CAT.switches[0], sources=())
    assert Catalogue((bad,)).problems() == [f"{bad.key}: no source"]
    untitled = dataclasses.replace(CAT.switches[0],
                                   sources=(Source("", "https://x", "2026-12-01"),))
    assert "a source without a title" in Catalogue((untitled,)).problems()[0]
    undated = dataclasses.replace(CAT.parts[0], sources=(Source("Datasheet", "", ""),))
    assert "without the date" in Catalogue(CAT.switches, (undated,)).problems()[0]
    internal = dataclasses.replace(
        CAT.switches[0], sources=(Source("shared/docs/domain.md §3", "", "2026-12-01"),))
    assert "internal path" in Catalogue((internal,)).problems()[0]


@pytest.mark.parametrize(("text", "internal"), [
    ("shared/docs/domain.md §3", True), ("see docs/catalogue.md", True), ("domain.md", True),
    ("https://docs.nvidia.com/networking/display/sn5000", False),
    ("https://github.com/sonic-net/sonic-utilities/blob/master/doc/Command-Reference.md", False),
    ("NVIDIA Cumulus Linux 5.18 User Guide", False),
])
def test_internal_path(text, internal):
    assert internal_path(text) is internal


def test_switches_you_can_order():
    rows = {(s.vendor, s.model, s.technology, s.ports, s.port_speed_gbps) for s in CAT.switches}
    assert rows == {
        ("NVIDIA", "Spectrum-4 SN5600", "ethernet", 64, 800),
        ("Arista", "7060X6-64PE", "ethernet", 64, 800),
        ("NVIDIA", "Quantum-2 QM9700", "infiniband", 64, 400),
        ("NVIDIA", "Quantum-X800 Q3400-RA", "infiniband", 144, 800),
        ("Asterfusion 星融元", "CX864E-N", "ethernet", 64, 800),
    }
    for s in CAT.switches:
        assert s.asic and s.model != s.asic  # a switch, never a chip
        assert s.technology in ("ethernet", "infiniband")
        assert s.cage_gbps in (800, 1600)
        assert s.power_w is None  # no document we read gives a switch's power
        assert all(s.port_speed_gbps % b == 0 for b in s.breakout)
    sn5600 = next(s for s in CAT.switches if s.key == "nvidia-sn5600")
    assert sn5600.breakout == (400, 200) and sn5600.supports(400) and not sn5600.supports(100)


def test_every_vendor_choice_has_a_switch_and_every_ethernet_family_a_tuning_profile():
    vendors = {s.vendor_key for s in CAT.switches}
    assert set(VENDORS) - {"any"} <= vendors
    for s in CAT.switches:
        if s.technology == "ethernet":
            assert s.family in FAMILIES


def test_parts_are_counted_in_links():
    twin = next(p for p in CAT.parts if p.key == "nvidia-mma4z00-ns")
    assert (twin.kind, twin.end, twin.links, twin.link_gbps, twin.reach_m) == (
        "module", "switch", 2, 400, 50)
    for part in CAT.parts:
        assert part.kind in ("module", "cable")
        assert part.end in ("switch", "nic", "fibre", "switch-nic", "switch-switch")
        assert part.medium in ("dac", "acc", "mmf", "smf", "smf-lc")
        assert part.reach_m > 0 and part.links >= 1
        if part.kind == "module":
            assert part.power_w and part.power_w > 0


def test_specs_round_trip_and_keep_first_release_fields():
    for s in CAT.switches:
        data = json.loads(json.dumps(s.to_dict()))
        assert SwitchSpec.from_dict(data) == s
        assert data["speed_gbps"] == s.port_speed_gbps and data["radix"] == s.ports
        assert data["source"]["title"] == s.sources[0].title
    for p in CAT.parts:
        assert PartSpec.from_dict(json.loads(json.dumps(p.to_dict()))) == p


def test_the_catalogue_version_follows_the_rows():
    other = Catalogue(CAT.switches[:1], CAT.parts)
    assert CAT.version and other.version != CAT.version
    assert Catalogue(CAT.switches, CAT.parts).version == CAT.version


def test_public_api_exports():
    for name in domain.__all__:
        assert hasattr(domain, name), name
    for name in ("decide", "Answers", "size_fabric", "recommend", "Recommendation",
                 "plan_fabric", "tuning_profile", "REASON_KEYS", "ENGINE_VERSION"):
        assert name in domain.__all__
