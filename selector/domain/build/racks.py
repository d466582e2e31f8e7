"""Space and power of a plan's switches: rack units per switch from the switch's own
documents (``SwitchSpec.rack_units``, None where none gives it: the pages say "not known"),
how many switches fit a rack of the power (and height) the customer sets, the racks and
the kW per rack.

Pure Python. The power per switch is the plan's own figures (selector.domain.bom): the
switch's datasheet power where the catalogue has it, plus the switch-end optics and the
powered cables of the plan shared evenly over its switches. NIC-end modules sit in the
servers and are not counted here. Where the switch power is unknown the total covers the
optics only and says so.

Defaults (parameters, not facts): a rack power budget of 15 kW for the network racks and
42 rack units of usable height; the customer sets both (the API's ``rack_kw`` and
``rack_u``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..fabric import FabricPlan

__all__ = ["RACK_KW_DEFAULT", "RACK_KW_MIN", "RACK_KW_MAX", "RACK_U_DEFAULT", "RACK_U_MIN",
           "RACK_U_MAX", "Racks", "racks"]

RACK_KW_DEFAULT, RACK_KW_MIN, RACK_KW_MAX = 15.0, 1.0, 200.0
RACK_U_DEFAULT, RACK_U_MIN, RACK_U_MAX = 42, 1, 60


@dataclass(frozen=True)
class Racks:
    switch_model: str
    switch_rack_units: int | None
    switches: int
    watts_per_switch: float
    switch_power_known: bool
    rack_kw: float
    rack_u: int
    switches_per_rack: int | None  # None: neither the power nor the height is known
    racks: int | None
    kw_per_rack: float
    limited_by: str  # "power" | "space" | "cluster" (every switch fits one rack) | "unknown"

    @property
    def optics_only(self) -> bool:
        return not self.switch_power_known

    @property
    def rack_units_total(self) -> int | None:
        return None if self.switch_rack_units is None else self.switch_rack_units * self.switches

    def to_dict(self) -> dict[str, Any]:
        return {
            "switch_rack_units": self.switch_rack_units,
            "switch_model": self.switch_model,
            "rack_units_total": self.rack_units_total,
            "switches": self.switches,
            "racks": self.racks,
            "switches_per_rack": self.switches_per_rack,
            "kw_per_rack": round(self.kw_per_rack, 2),
            "watts_per_switch": round(self.watts_per_switch, 1),
            "rack_kw": self.rack_kw,
            "rack_u": self.rack_u,
            "limited_by": self.limited_by,
            "optics_only": self.optics_only,
        }


def racks(plan: FabricPlan, *, rack_kw: float = RACK_KW_DEFAULT,
          rack_u: int = RACK_U_DEFAULT) -> Racks:
    if not RACK_KW_MIN <= rack_kw <= RACK_KW_MAX:
        raise ValueError("rack_kw out of range")
    if not RACK_U_MIN <= rack_u <= RACK_U_MAX:
        raise ValueError("rack_u out of range")
    switches = plan.switches
    switch = plan.switch
    in_racks = sum(line.power_total for line in plan.bom
                   if line.end != "nic" and line.kind != "switch")
    per_switch = in_racks / switches if switches else 0.0
    if switch.power_w is not None:
        per_switch += switch.power_w
    limits = {}
    if per_switch > 0:
        limits["power"] = max(1, math.floor(rack_kw * 1000 / per_switch))
    if switch.rack_units:
        limits["space"] = max(1, rack_u // switch.rack_units)
    per_rack: int | None = None
    count: int | None = None
    limited = "unknown"
    if limits:
        limited = min(limits, key=lambda k: (limits[k], k))
        per_rack = limits[limited]
        if per_rack >= switches:
            per_rack, limited = max(1, switches), "cluster"
        count = -(-switches // per_rack)
    return Racks(
        switch_model=f"{switch.vendor} {switch.model}", switch_rack_units=switch.rack_units,
        switches=switches, watts_per_switch=per_switch,
        switch_power_known=switch.power_w is not None, rack_kw=rack_kw, rack_u=rack_u,
        switches_per_rack=per_rack, racks=count,
        kw_per_rack=(per_rack or 0) * per_switch / 1000, limited_by=limited,
    )
