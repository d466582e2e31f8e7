"""Space and power: rack units from the catalogue (None where no document gives them),
switches per rack for the rack power the customer sets, kW per rack from the plan's own
power figures (optics only where the switch power is unknown)."""

from __future__ import annotations

import pytest

from selector.domain import DEFAULT_CATALOGUE, Answers, plan_fabric
from selector.domain.build.racks import racks


def _plan(fabric, **answers):
    return plan_fabric(fabric, Answers(**answers), DEFAULT_CATALOGUE)


def test_rack_units_come_from_the_catalogue_and_unknown_stays_unknown():
    units = {s.key: s.rack_units for s in DEFAULT_CATALOGUE.switches}
    assert units == {"nvidia-sn5600": 2, "nvidia-qm9700": 1, "nvidia-q3400": 4,
                     "arista-7060x6-64pe": None, "asterfusion-cx864e-n": None}
    plan = _plan("roce-v2-400g", gpus=1024, vendor="arista")
    result = racks(plan)
    assert result.switch_rack_units is None and result.rack_units_total is None
    assert result.racks is None and result.limited_by == "unknown" and result.optics_only


def test_the_rack_power_sets_the_switches_per_rack():
    plan = _plan("infiniband", gpus=1024)
    default = racks(plan)
    assert default.rack_kw == 15 and default.optics_only
    per_switch = sum(line.power_total for line in plan.bom
                     if line.end != "nic" and line.kind != "switch") / plan.switches
    assert default.watts_per_switch == pytest.approx(per_switch)
    assert default.switches_per_rack == int(15_000 // per_switch)
    assert default.kw_per_rack <= 15
    small = racks(plan, rack_kw=5)
    assert small.switches_per_rack < default.switches_per_rack
    assert small.racks * small.switches_per_rack >= plan.switches
    assert (small.racks - 1) * small.switches_per_rack < plan.switches


def test_height_limits_when_power_allows_more():
    plan = _plan("roce-v2-800g", gpus=2048, nic_speed=800)
    result = racks(plan, rack_kw=100, rack_u=20)
    assert result.limited_by == "space" and result.switches_per_rack == 10  # 2U each


def test_bad_rack_parameters_are_refused():
    plan = _plan("infiniband", gpus=64)
    for kwargs in ({"rack_kw": 0}, {"rack_kw": 1000}, {"rack_u": 0}):
        with pytest.raises(ValueError):
            racks(plan, **kwargs)
