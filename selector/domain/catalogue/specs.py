"""The catalogue's row types: a switch you can order, an optic or cable, and the document
a figure comes from. The rows themselves are data (``selector.domain.catalogue.data``).
Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["internal_path", "TECHNOLOGIES", "Source", "SwitchSpec", "PartSpec"]

TECHNOLOGIES = ("ethernet", "infiniband")


@dataclass(frozen=True)
class Source:
    """A document a figure comes from: its title as published, the public URL and the date
    we read it (ISO). ``title_zh`` is a Chinese description written by us where the
    document has no Chinese edition (never presented as the vendor's title)."""

    title: str
    url: str = ""
    date: str = ""
    title_zh: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"title": self.title, "url": self.url, "date": self.date,
                "title_zh": self.title_zh}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Source:
        return cls(title=str(data.get("title", "")), url=str(data.get("url", "")),
                   date=str(data.get("date", "")), title_zh=str(data.get("title_zh", "")))


def internal_path(text: str) -> bool:
    """True for text that points into our repository (``shared/docs/domain.md``): customers
    see document titles and public links, never our paths."""
    lowered = (text or "").lower()
    if "shared/" in lowered or "domain.md" in lowered:
        return True
    return "docs/" in lowered and "://" not in lowered


def _sources(data: Iterable[dict[str, Any]]) -> tuple[Source, ...]:
    return tuple(Source.from_dict(item) for item in data)


@dataclass(frozen=True)
class SwitchSpec:
    """A switch you can order. ``ports`` x ``port_speed_gbps`` is the native port set
    (a 51.2T Ethernet switch: 64 x 800G); ``breakout`` the lower speeds one native port
    splits into (400 and 200: one 800G OSFP port = 2 x 400G = 4 x 200G). ``cages`` are the
    physical cages (a QM9700 has 32 OSFP cages of 2 x 400G ports). ``family`` keys the
    tuning profile (``tuning.FAMILIES``, from tuning/registry.py); ``vendor_key`` is the
    vendor preference value. ``power_w`` is the datasheet maximum, None where no source
    gives it; ``rack_units`` the height in rack units from the switch's own documents
    (None where none gives it)."""

    key: str
    vendor: str
    model: str
    technology: str  # "ethernet" | "infiniband"
    ports: int
    port_speed_gbps: int
    sources: tuple[Source, ...]
    breakout: tuple[int, ...] = ()
    asic: str = ""
    family: str = ""
    vendor_key: str = ""
    cages: int = 0
    power_w: int | None = None
    priority: int = 100
    rack_units: int | None = None

    @property
    def speed_gbps(self) -> int:  # the native speed (API field since the first release)
        return self.port_speed_gbps

    @property
    def radix(self) -> int:  # native ports (API field since the first release)
        return self.ports

    @property
    def cage_count(self) -> int:
        return self.cages or self.ports

    @property
    def cage_gbps(self) -> int:
        """Bandwidth of one cage: 800 for an SN5600 OSFP port or a QM9700 2 x 400G cage."""
        return self.ports * self.port_speed_gbps // self.cage_count

    @property
    def source(self) -> Source:
        return self.sources[0] if self.sources else Source("")

    def speeds(self) -> tuple[int, ...]:
        """Every port speed the switch offers: the native one and its breakouts."""
        return (self.port_speed_gbps, *self.breakout)

    def supports(self, speed_gbps: int) -> bool:
        return speed_gbps in self.speeds() and self.port_speed_gbps % speed_gbps == 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "vendor": self.vendor,
            "model": self.model,
            "asic": self.asic,
            "technology": self.technology,
            "family": self.family,
            "vendor_key": self.vendor_key,
            "ports": self.ports,
            "port_speed_gbps": self.port_speed_gbps,
            "breakout": [
                {"speed_gbps": s, "ports": self.ports * (self.port_speed_gbps // s)}
                for s in self.breakout
            ],
            "cages": self.cage_count,
            "power_w": self.power_w,
            "rack_units": self.rack_units,
            "priority": self.priority,
            "source": self.source.to_dict(),
            "sources": [s.to_dict() for s in self.sources],
            # First-release field names, kept for API clients.
            "speed_gbps": self.port_speed_gbps,
            "radix": self.ports,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SwitchSpec:
        return cls(
            key=data["key"], vendor=data["vendor"], model=data["model"],
            technology=data["technology"], ports=int(data["ports"]),
            port_speed_gbps=int(data["port_speed_gbps"]),
            sources=_sources(data.get("sources") or [data["source"]]),
            breakout=tuple(int(b["speed_gbps"]) for b in data.get("breakout", ())),
            asic=data.get("asic", ""), family=data.get("family", ""),
            vendor_key=data.get("vendor_key", ""), cages=int(data.get("cages") or 0),
            power_w=None if data.get("power_w") is None else int(data["power_w"]),
            priority=int(data.get("priority", 100)),
            rack_units=None if data.get("rack_units") is None else int(data["rack_units"]),
        )


@dataclass(frozen=True)
class PartSpec:
    """An optical module or a cable, counted in a bill of materials.

    ``kind``: ``module`` (a transceiver) or ``cable`` (fibre, copper DAC, active copper).
    ``end``: where a module sits (``switch`` cage or ``nic``); cables carry ``switch-nic``
    or ``switch-switch`` links. ``links`` is how many ``link_gbps`` links one part carries
    (a twin-port 800G OSFP module carries two 400G links). ``medium``: ``dac``, ``acc``,
    ``mmf`` or ``smf``. ``reach_m`` the longest link it is specified for, ``power_w`` its
    maximum power (None where not published). ``technology``: ``ethernet``,
    ``infiniband`` or ``any``."""

    key: str
    vendor: str
    model: str
    kind: str
    end: str
    medium: str
    link_gbps: int
    links: int
    reach_m: int
    sources: tuple[Source, ...]
    description: str = ""
    description_zh: str = ""
    power_w: float | None = None
    technology: str = "any"
    nic: str = ""  # the NIC port a NIC-end module fits ("osfp": ConnectX-7/OSFP class,
    # "qsfp112": BlueField-3 / ConnectX-7 QSFP112)
    fits_vendor: str = ""  # vendor_key of the switches it fits ("" = any)

    @property
    def source(self) -> Source:
        return self.sources[0] if self.sources else Source("")

    def fits(self, technology: str) -> bool:
        return self.technology in ("any", technology)

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key, "vendor": self.vendor, "model": self.model, "kind": self.kind,
            "end": self.end, "medium": self.medium, "link_gbps": self.link_gbps,
            "links": self.links, "reach_m": self.reach_m, "power_w": self.power_w,
            "technology": self.technology, "nic": self.nic, "fits_vendor": self.fits_vendor,
            "description": self.description, "description_zh": self.description_zh,
            "source": self.source.to_dict(), "sources": [s.to_dict() for s in self.sources],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PartSpec:
        power = data.get("power_w")
        return cls(
            key=data["key"], vendor=data["vendor"], model=data["model"], kind=data["kind"],
            end=data["end"], medium=data["medium"], link_gbps=int(data["link_gbps"]),
            links=int(data["links"]), reach_m=int(data["reach_m"]),
            sources=_sources(data.get("sources") or [data["source"]]),
            description=data.get("description", ""),
            description_zh=data.get("description_zh", ""),
            power_w=None if power is None else float(power),
            technology=data.get("technology", "any"), nic=data.get("nic", ""),
            fits_vendor=data.get("fits_vendor", ""),
        )
