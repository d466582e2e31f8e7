"""Switch catalogue, switch picking and fabric plans (decision + sizing together).

Pure Python, no Django. The Django app loads the same rows from a fixture;
``DEFAULT_CATALOGUE`` is the pure default used in tests and benchmarks.
Switch figures: shared/docs/domain.md section 3 (public datasheets).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .decision import Answers, Fabric, select_rule
from .sizing import FabricSize, size_fabric

__all__ = [
    "TECHNOLOGIES",
    "SwitchSpec",
    "FABRIC_PROFILE",
    "DEFAULT_CATALOGUE",
    "fabric_speed",
    "pick_switch",
    "FabricPlan",
    "plan_fabric",
    "recommend_fabric",
]

TECHNOLOGIES = ("ethernet", "infiniband")


@dataclass(frozen=True)
class SwitchSpec:
    key: str
    vendor: str
    model: str
    technology: str  # "ethernet" | "infiniband"
    speed_gbps: int
    radix: int  # ports at speed_gbps
    source: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "vendor": self.vendor,
            "model": self.model,
            "technology": self.technology,
            "speed_gbps": self.speed_gbps,
            "radix": self.radix,
            "source": self.source,
        }


# Back-end technology and default port speed per recommendation; the standard
# network has no back-end fabric. InfiniBand moves to 800G XDR with 800G NICs
# (see fabric_speed()).
FABRIC_PROFILE: dict[Fabric, tuple[str, int]] = {
    Fabric.ROCE_400: ("ethernet", 400),
    Fabric.ROCE_800: ("ethernet", 800),
    Fabric.INFINIBAND: ("infiniband", 400),
}

_SN5600 = (
    "NVIDIA Spectrum-4 SN5600 datasheet: Ethernet, 51.2 Tb/s, 64 x 800G or 128 x 400G "
    "or 256 x 200G (domain.md section 3)"
)
_TH5 = (
    "Broadcom Tomahawk 5 (BCM78900) product brief: 51.2 Tb/s, 64 x 800G / 128 x 400G "
    "(domain.md section 3)"
)

DEFAULT_CATALOGUE: tuple[SwitchSpec, ...] = (
    SwitchSpec(
        "nvidia-qm9700-ndr400",
        "NVIDIA",
        "Quantum-2 QM9700",
        "infiniband",
        400,
        64,
        "NVIDIA Quantum-2 QM9700 datasheet: InfiniBand NDR, 64 x 400G "
        "(32 OSFP cages, 2 ports each) (domain.md section 3)",
    ),
    SwitchSpec(
        "nvidia-q3400-xdr800",
        "NVIDIA",
        "Quantum-X800 Q3400",
        "infiniband",
        800,
        144,
        "NVIDIA Quantum-X800 Q3400 datasheet: InfiniBand XDR, 144 x 800G (domain.md section 3)",
    ),
    SwitchSpec("nvidia-sn5600-800g", "NVIDIA", "Spectrum-4 SN5600", "ethernet", 800, 64, _SN5600),
    SwitchSpec("nvidia-sn5600-400g", "NVIDIA", "Spectrum-4 SN5600", "ethernet", 400, 128, _SN5600),
    SwitchSpec("nvidia-sn5600-200g", "NVIDIA", "Spectrum-4 SN5600", "ethernet", 200, 256, _SN5600),
    SwitchSpec("broadcom-th5-800g", "Broadcom", "Tomahawk 5", "ethernet", 800, 64, _TH5),
    SwitchSpec("broadcom-th5-400g", "Broadcom", "Tomahawk 5", "ethernet", 400, 128, _TH5),
)


def fabric_speed(fabric: Fabric | str, nic_speed: int | None) -> int | None:
    """Switch port speed for ``fabric``: None for the standard network; InfiniBand
    is 800G XDR when the NICs are 800G (ConnectX-8, domain.md section 3), else
    400G NDR; RoCE runs at its nominal speed."""
    fabric = Fabric(fabric)
    if fabric == Fabric.STANDARD:
        return None
    if fabric == Fabric.INFINIBAND:
        return 800 if nic_speed == 800 else 400
    return FABRIC_PROFILE[fabric][1]


def pick_switch(
    catalogue: Sequence[SwitchSpec], fabric: Fabric | str, nic_speed: int | None
) -> SwitchSpec | None:
    """The switch for ``fabric``: matching technology and speed, largest radix,
    ties broken by smallest key. None for the standard network; ``LookupError``
    if the catalogue has no matching switch."""
    fabric = Fabric(fabric)
    speed = fabric_speed(fabric, nic_speed)
    if speed is None:
        return None
    technology = FABRIC_PROFILE[fabric][0]
    matches = [s for s in catalogue if s.technology == technology and s.speed_gbps == speed]
    if not matches:
        raise LookupError(f"no {technology} switch at {speed}G in the catalogue for {fabric}")
    return min(matches, key=lambda s: (-s.radix, s.key))


@dataclass(frozen=True)
class FabricPlan:
    fabric: Fabric
    switch: SwitchSpec
    size: FabricSize
    speed_gbps: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict."""
        return {
            "fabric": self.fabric.value,
            "switch": self.switch.to_dict(),
            "size": self.size.to_dict(),
            "speed_gbps": self.speed_gbps,
        }


def plan_fabric(
    fabric: Fabric | str,
    answers: Answers,
    catalogue: Sequence[SwitchSpec] = DEFAULT_CATALOGUE,
    radix: int | None = None,
    oversubscription: int = 1,
) -> FabricPlan | None:
    """Pick a switch for ``fabric`` and size a non-blocking (by default) fabric for
    ``answers``. ``radix`` overrides the switch's radix. None for the standard
    network. Raises ``LookupError`` (no switch), ``SizingError`` /
    ``FabricTooLarge`` (too many GPUs for the radix)."""
    fabric = Fabric(fabric)
    switch = pick_switch(catalogue, fabric, answers.nic_speed)
    if switch is None:
        return None
    size = size_fabric(
        answers.gpus,
        answers.gpus_per_server,
        switch.radix if radix is None else radix,
        oversubscription,
    )
    return FabricPlan(fabric=fabric, switch=switch, size=size, speed_gbps=switch.speed_gbps)


def recommend_fabric(
    answers: Answers,
    catalogue: Sequence[SwitchSpec] = DEFAULT_CATALOGUE,
    radix: int | None = None,
    *,
    fabric: Fabric | str | None = None,
) -> FabricPlan | None:
    """Size the recommended fabric (``decide(answers).recommendation``), or
    ``fabric`` when given (e.g. the runner-up, to show both side by side).
    None when the fabric is the standard network. Errors as ``plan_fabric``."""
    if fabric is None:
        fabric = select_rule(answers).recommendation
    return plan_fabric(fabric, answers, catalogue, radix)
