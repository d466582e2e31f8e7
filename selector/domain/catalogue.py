"""The catalogue as the planner sees it: switches you can order, optics and cables, and the
sources every figure comes from.

Pure Python, no Django. The Django app loads the same rows from ``fixtures/content.json``
(admin-editable); ``DEFAULT_CATALOGUE`` holds the same data for tests and benchmarks, and
a test keeps the two equal. Every row carries a ``Source`` (document title, public URL,
the date it was read): a row without one does not ship.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "internal_path",
    "TECHNOLOGIES",
    "VENDORS",
    "VENDOR_ANY",
    "Source",
    "SwitchSpec",
    "PartSpec",
    "Catalogue",
    "DEFAULT_SWITCHES",
    "DEFAULT_PARTS",
    "DEFAULT_CATALOGUE",
    "CATALOGUE_SOURCES",
]

from .decision import VENDORS

TECHNOLOGIES = ("ethernet", "infiniband")
VENDOR_ANY = VENDORS[0]  # "any": the documented pick rule (selector.domain.plan)


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


@dataclass(frozen=True)
class Catalogue:
    """Switches and parts the planner may use. ``version`` is a digest of the rows, frozen
    with every recommendation so a lead says which catalogue it was planned with."""

    switches: tuple[SwitchSpec, ...]
    parts: tuple[PartSpec, ...] = ()
    version: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.version:
            object.__setattr__(self, "version", self.digest())

    def __hash__(self) -> int:
        return hash(self.version)

    def digest(self) -> str:
        payload = json.dumps([sorted((s.to_dict() for s in self.switches),
                                     key=lambda d: d["key"]),
                              sorted((p.to_dict() for p in self.parts), key=lambda d: d["key"])],
                             sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()[:12]

    def __iter__(self) -> Iterator[SwitchSpec]:
        # A Catalogue reads like the plain switch sequence it replaced.
        return iter(self.switches)

    def __len__(self) -> int:
        return len(self.switches)

    def problems(self) -> list[str]:
        """What keeps a row from shipping: no source (a title and the date it was read), an
        internal path where a customer would read it, a vendor preference no one can pick."""
        out = []
        rows: list[tuple[str, tuple[Source, ...], list[str]]] = []
        for s in self.switches:
            rows.append((s.key, s.sources, [s.vendor, s.model, s.asic]))
            if s.vendor_key not in VENDORS:
                out.append(f"{s.key}: vendor_key {s.vendor_key!r} is not a vendor choice")
        for p in self.parts:
            rows.append((p.key, p.sources, [p.vendor, p.model, p.description,
                                            p.description_zh]))
        for key, sources, texts in rows:
            if not sources:
                out.append(f"{key}: no source")
            for src in sources:
                if not src.title.strip():
                    out.append(f"{key}: a source without a title")
                if not src.date.strip():
                    out.append(f"{key}: a source without the date it was read")
                texts += [src.title, src.title_zh, src.url]
            for text in texts:
                if internal_path(text):
                    out.append(f"{key}: internal path in {text!r}")
        return out

    @classmethod
    def of(cls, value: Catalogue | Sequence[SwitchSpec]) -> Catalogue:
        if isinstance(value, Catalogue):
            return value
        return cls(tuple(value), DEFAULT_PARTS)


# --- the data ------------------------------------------------------------------------------
# Read on 2026-12-01 (team research notes, issue 12). Titles are the documents' own; the
# Chinese line describes an English-only document in our words.

_READ = "2026-12-01"
SN5000_PORTS = Source(
    "NVIDIA Spectrum-4 SN5000 2U Switch Systems Hardware User Manual — Data Interfaces",
    "https://docs.nvidia.com/networking/display/sn5000/data+interfaces", _READ,
    "NVIDIA Spectrum-4 SN5000 交换机硬件手册：数据接口（英文）")
QM9700_PORTS = Source(
    "QM97XX 1U NDR 400Gbps InfiniBand Switch Systems User Manual — Interfaces",
    "https://docs.nvidia.com/networking/display/QM97X0PUB/Interfaces", _READ,
    "NVIDIA QM97XX NDR InfiniBand 交换机手册：接口（英文）")
SUPERPOD_B200 = Source(
    "NVIDIA DGX SuperPOD B200 Reference Architecture — DGX SuperPOD Architecture",
    "https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-b200/"
    "latest/dgx-superpod-architecture.html", _READ,
    "NVIDIA DGX SuperPOD B200 参考架构（英文）")
XDR_MANUAL = Source(
    "NVIDIA Q32xx and Q34xx XDR 800Gb/s InfiniBand Switch Systems User Manual",
    "https://docs.nvidia.com/networking/display/XDRSwitchesHWUM/Document-Revision-History",
    _READ, "NVIDIA Quantum-X800 XDR 交换机手册（英文）")
XDR_OPTICS = Source(
    "800Gb/s XDR Twin-port OSFP and OSFP Transceivers and Fiber Part Numbers based on "
    "200G-PAM4 Modulation for InfiniBand",
    "https://docs.nvidia.com/networking/display/800g200gpam4list", _READ,
    "NVIDIA XDR 800G 光模块与光纤料号（英文）")
ARISTA_7060X6 = Source(
    "sonic-net/sonic-buildimage: device/arista/x86_64-arista_7060x6_64pe/platform.json "
    "(Arista's SONiC platform definition)",
    "https://github.com/sonic-net/sonic-buildimage/tree/master/device/arista/"
    "x86_64-arista_7060x6_64pe", _READ,
    "Arista 7060X6-64PE 的 SONiC 平台定义（Arista 提交，英文）")
SN5600_HWMGMT = Source(
    "Mellanox/hw-mgmt PR #558: Introduce support for next-generation 800GB/s ethernet switch "
    "(NVIDIA, 2022)", "https://github.com/Mellanox/hw-mgmt/pull/558", _READ,
    "NVIDIA 工程师提交的 SN5600 平台支持代码说明（英文）")
QM9700_KERNEL = Source(
    "Linux kernel commit 9045512ca6cd: mlx-platform: support new MQM97xx systems (NVIDIA, 2021)",
    "https://lore.kernel.org/r/20211023094022.4193813-2-vadimp@nvidia.com", _READ,
    "Linux 内核提交：NVIDIA MQM97xx 平台支持（英文）")
Q3400_HWMGMT = Source(
    "Mellanox/hw-mgmt: Add support for new XDR systems (NVIDIA, 2023): 72 OSFP ports or 144 "
    "aggregated XDR ports at 800Gbps, 4U",
    "https://github.com/Mellanox/hw-mgmt/blob/cd56aa9b6f8ef18402877827b758c3f4bed84a82/"
    "recipes-kernel/linux/linux-6.1/0090-platform-mellanox-mlx-platform-Add-support-for-new-X.patch",
    _READ, "NVIDIA 工程师提交的 XDR 交换机平台支持代码（英文）")
ASTERFUSION_PR = Source(
    "sonic-net/sonic-buildimage PR #22867: add Asterfusion CX-N series platform devices "
    "(Asterfusion, 2025)", "https://github.com/sonic-net/sonic-buildimage/pull/22867", _READ,
    "星融元（Asterfusion）提交的 CX864E-N SONiC 平台文件（英文）")
ASTERFUSION_BLOG = Source(
    "Asterfusion: 560ns Ultra-Low Latency: Asterfusion's 800G AI Switch Architecture In-Depth "
    "Analysis (2025-04-16)", "https://cloudswit.ch/blogs/asterfusions-800g-ai-switch-architecture",
    _READ, "星融元官网：800G AI 交换机架构解析（英文）")
CX8_LINK = Source(
    "NVIDIA ConnectX-8 SuperNIC Firmware Release Notes v40.44.0208 — Changes and New Features",
    "https://docs.nvidia.com/networking/display/connectx8firmwarev40440208/"
    "changes+and+new+features", _READ,
    "NVIDIA ConnectX-8 SuperNIC 固件发行说明（英文）")
LINKX_OVERVIEW = Source(
    "LinkX 100G-PAM4 Product Line Overview",
    "https://docs.nvidia.com/networking/display/400g100gpam4ovpub/"
    "linkx-100g-pam4-product-line-overview", _READ,
    "NVIDIA LinkX 100G-PAM4 线缆与光模块概览（英文）")
LINKX_COPPER = Source(
    "LinkX 100G-PAM4 — Copper DAC and LACC Cables Overview",
    "https://docs.nvidia.com/networking/display/400g100gpam4ovpub/"
    "copper-dac-and-lacc-cables-overview", _READ,
    "NVIDIA LinkX 铜缆（DAC/LACC）概览（英文）")

DEFAULT_SWITCHES: tuple[SwitchSpec, ...] = (
    SwitchSpec(
        key="nvidia-sn5600", vendor="NVIDIA", model="Spectrum-4 SN5600",
        asic="NVIDIA Spectrum-4", technology="ethernet", family="nvidia-spectrum",
        vendor_key="nvidia", ports=64, port_speed_gbps=800, breakout=(400, 200), cages=64,
        priority=10, sources=(SN5000_PORTS, SN5600_HWMGMT),
        rack_units=2,  # "SN5000 2U Switch Systems" (SN5000_PORTS, the manual's title)
    ),
    SwitchSpec(
        key="arista-7060x6-64pe", vendor="Arista", model="7060X6-64PE",
        asic="Broadcom Tomahawk 5", technology="ethernet", family="sonic",
        vendor_key="arista", ports=64, port_speed_gbps=800, breakout=(400, 200), cages=64,
        priority=20, sources=(ARISTA_7060X6,),
    ),
    SwitchSpec(
        key="nvidia-qm9700", vendor="NVIDIA", model="Quantum-2 QM9700",
        asic="NVIDIA Quantum-2", technology="infiniband", family="nvidia-quantum",
        vendor_key="nvidia", ports=64, port_speed_gbps=400, breakout=(200,), cages=32,
        priority=10, sources=(QM9700_PORTS, QM9700_KERNEL, SUPERPOD_B200),
        rack_units=1,  # "QM97XX 1U NDR ... Switch Systems" (QM9700_PORTS, the manual's title)
    ),
    SwitchSpec(
        key="nvidia-q3400", vendor="NVIDIA", model="Quantum-X800 Q3400-RA",
        asic="NVIDIA Quantum-X800", technology="infiniband", family="nvidia-quantum",
        vendor_key="nvidia", ports=144, port_speed_gbps=800, cages=72,
        priority=10, sources=(XDR_MANUAL, Q3400_HWMGMT, XDR_OPTICS),
        rack_units=4,  # "144 aggregated XDR ports at 800Gbps, 4U" (Q3400_HWMGMT)
    ),
    # Domestic: Asterfusion, 星融元 in Chinese (as its own site writes it,
    # https://asterfusion.com/easyroce/, read 2026-12-02). Ports and breakouts from the
    # vendor's own SONiC platform files; its datasheet (cage type, power) was not found, so
    # no optics fit it in the catalogue.
    SwitchSpec(
        key="asterfusion-cx864e-n", vendor="Asterfusion 星融元", model="CX864E-N",
        asic="Marvell Teralynx", technology="ethernet", family="sonic",
        vendor_key="asterfusion", ports=64, port_speed_gbps=800, breakout=(400, 200),
        cages=64, priority=30, sources=(ASTERFUSION_PR, ASTERFUSION_BLOG),
    ),
)

MMA4Z00_NS = Source(
    "MMA4Z00-NS 800Gb/s Twin-port OSFP, 2x400Gb/s Multimode 2xSR4, 50m — Overview",
    "https://docs.nvidia.com/networking/display/800GMMA4Z00NS/Overview", _READ,
    "NVIDIA MMA4Z00-NS 双端口 OSFP 多模光模块说明（英文）")
MMS4X00_NS = Source(
    "MMS4X00-NS 800Gbps Twin-port OSFP 2x400Gb/s Single Mode DR8 100m — Specifications",
    "https://docs.nvidia.com/networking/display/800gmms4x00ns/specifications", _READ,
    "NVIDIA MMS4X00-NS 双端口 OSFP 单模光模块规格（英文）")
MMS4X00_NM = Source(
    "MMS4X00-NM 800Gbps Twin-port OSFP 2x400Gb/s Single Mode 500m — Application Overview",
    "https://docs.nvidia.com/networking/display/mms4x00nm800g500m/application+overview", _READ,
    "NVIDIA MMS4X00-NM 500 米单模光模块应用说明（英文）")
MMS4X50_NM = Source(
    "MMS4X50-NM 800Gbps Twin-port OSFP 2xFR4, 2x400Gbs Single Mode, 2km — Application "
    "Overview",
    "https://docs.nvidia.com/networking/display/mms4x50nm800g2kmpub/application+overview",
    _READ, "NVIDIA MMS4X50-NM 2 公里单模光模块应用说明（英文）")
MMA4Z00_NS400 = Source(
    "MMA4Z00-NS400-T 400Gb/s Single-port OSFP 400Gb/s Multimode 50m — Connectivity Scenarios",
    "https://docs.nvidia.com/networking/display/MMA4Z00NS400T/Connectivity+Scenarios", _READ,
    "NVIDIA MMA4Z00-NS400 单端口 OSFP 多模光模块连接场景（英文）")
MMA1Z00_NS400 = Source(
    "NVIDIA MMA1Z00-NS400-T 400Gb/s, Single-port, QSFP112 Multimode Transceivers Product "
    "Specifications — Overview",
    "https://docs.nvidia.com/networking/display/MMA1Z00NS400T/Overview", "2026-12-03",
    "NVIDIA MMA1Z00-NS400 单端口 QSFP112 多模光模块说明（英文）")
MMS4X00_NS400 = Source(
    "NVIDIA MMS4X00-NS400 400Gb/s Single-port OSFP Single Mode DR4 Transceivers Product "
    "Specifications — Overview",
    "https://docs.nvidia.com/networking/display/mms4x00ns400/overview", _READ,
    "NVIDIA MMS4X00-NS400 单端口 OSFP 单模光模块规格（英文）")
MCP7Y00 = Source(
    "MCP7Y00-Nxxx 800Gb/s Twin-port OSFP to 2x400Gb/s OSFP Passive DAC Splitter — Use Cases",
    "https://docs.nvidia.com/networking/display/MCP7Y00NXXX800pub/Use+Cases", _READ,
    "NVIDIA MCP7Y00 无源铜缆分支线应用说明（英文）")
MCP4Y10 = Source(
    "MCP4Y10-Nxxx Twin-port 2x400Gb/s OSFP to 2x400Gb/s OSFP Passive DAC Product "
    "Specifications",
    "https://docs.nvidia.com/networking/display/mcp4y10nxxx2x400pub", _READ,
    "NVIDIA MCP4Y10 交换机间无源铜缆规格（英文）")
LINKX_FIBRE = Source(
    "LinkX 100G-PAM4 — Transceivers and Fiber Details (100G-PAM4)",
    "https://docs.nvidia.com/networking/display/400g100gpam4ovpub/"
    "transceivers-and-fiber-details-100g-pam4", _READ,
    "NVIDIA LinkX 100G-PAM4 光模块与光纤说明（英文）")

_NV = "nvidia"  # LinkX twin-port finned-top OSFP parts: Quantum-2 and Spectrum-4 cages only
DEFAULT_PARTS: tuple[PartSpec, ...] = (
    PartSpec("nvidia-mma4z00-ns", "NVIDIA", "MMA4Z00-NS", "module", "switch", "mmf", 400, 2,
             50, (MMA4Z00_NS, LINKX_OVERVIEW), "Twin-port OSFP 2 x 400G SR4, multimode",
             "双端口 OSFP 2×400G SR4 多模光模块", 17, fits_vendor=_NV),
    PartSpec("nvidia-mms4x00-ns", "NVIDIA", "MMS4X00-NS", "module", "switch", "smf", 400, 2,
             100, (MMS4X00_NS,), "Twin-port OSFP 2 x 400G DR4, single-mode",
             "双端口 OSFP 2×400G DR4 单模光模块", 17, fits_vendor=_NV),
    PartSpec("nvidia-mms4x00-nm", "NVIDIA", "MMS4X00-NM", "module", "switch", "smf", 400, 2,
             500, (MMS4X00_NM,), "Twin-port OSFP 2 x 400G DR4, single-mode, switch to switch",
             "双端口 OSFP 2×400G DR4 单模光模块（交换机互联）", 17, fits_vendor=_NV),
    PartSpec("nvidia-mms4x50-nm", "NVIDIA", "MMS4X50-NM", "module", "switch", "smf-lc", 400,
             2, 2000, (MMS4X50_NM, LINKX_OVERVIEW), "Twin-port OSFP 2 x 400G FR4, duplex LC",
             "双端口 OSFP 2×400G FR4 单模光模块（LC 双工）", 17, fits_vendor=_NV),
    PartSpec("nvidia-mma4z00-ns400", "NVIDIA", "MMA4Z00-NS400", "module", "nic", "mmf", 400,
             1, 50, (MMA4Z00_NS400,), "Single-port OSFP 400G SR4 (ConnectX-7/OSFP)",
             "单端口 OSFP 400G SR4 多模光模块（ConnectX-7/OSFP 网卡）", 9, nic="osfp"),
    PartSpec("nvidia-mma4z00-ns400-200g", "NVIDIA", "MMA4Z00-NS400", "module", "nic", "mmf",
             200, 1, 50, (MMA4Z00_NS400,), "Single-port OSFP SR4 in 200G mode (ConnectX-7/OSFP)",
             "单端口 OSFP SR4 光模块，200G 模式（ConnectX-7/OSFP 网卡）", 6.5, nic="osfp"),
    # BlueField-3 SuperNICs take QSFP112 only; 400G mode 9 W maximum (8 W typical).
    PartSpec("nvidia-mma1z00-ns400", "NVIDIA", "MMA1Z00-NS400", "module", "nic", "mmf", 400,
             1, 50, (MMA1Z00_NS400,), "Single-port QSFP112 400G SR4 (BlueField-3/QSFP112)",
             "单端口 QSFP112 400G SR4 多模光模块（BlueField-3/QSFP112 网卡）", 9,
             technology="ethernet", nic="qsfp112"),
    PartSpec("nvidia-mms4x00-ns400", "NVIDIA", "MMS4X00-NS400", "module", "nic", "smf", 400,
             1, 100, (MMS4X00_NS400,), "Single-port OSFP 400G DR4 (ConnectX-7/OSFP)",
             "单端口 OSFP 400G DR4 单模光模块（ConnectX-7/OSFP 网卡）", 9, nic="osfp"),
    PartSpec("nvidia-mcp7y00", "NVIDIA", "MCP7Y00-Nxxx", "cable", "switch-nic", "dac", 400, 2,
             3, (MCP7Y00, LINKX_COPPER), "Passive DAC splitter, twin-port OSFP to 2 x 400G OSFP",
             "无源铜缆分支线，双端口 OSFP 至 2×400G OSFP", 0.3, fits_vendor=_NV),
    PartSpec("nvidia-mcp4y10", "NVIDIA", "MCP4Y10-Nxxx", "cable", "switch-switch", "dac", 400,
             2, 2, (MCP4Y10, LINKX_COPPER), "Passive DAC, twin-port OSFP to twin-port OSFP",
             "无源铜缆，双端口 OSFP 至双端口 OSFP", 0.2, fits_vendor=_NV),
    PartSpec("nvidia-mfp7e10", "NVIDIA", "MFP7E10", "cable", "fibre", "mmf", 400, 1, 50,
             (MMA4Z00_NS400, LINKX_FIBRE), "Multimode straight fibre, MPO-12/APC",
             "多模直连光纤，MPO-12/APC", 0),
    PartSpec("nvidia-mfp7e20", "NVIDIA", "MFP7E20", "cable", "fibre", "mmf", 200, 2, 50,
             (MMA4Z00_NS400, LINKX_FIBRE), "Multimode 1:2 splitter fibre, MPO-12/APC",
             "多模 1 分 2 分支光纤，MPO-12/APC", 0),
    PartSpec("nvidia-mfp7e30", "NVIDIA", "MFP7E30", "cable", "fibre", "smf", 400, 1, 100,
             (MMS4X00_NS400, LINKX_FIBRE), "Single-mode straight fibre, MPO-12/APC",
             "单模直连光纤，MPO-12/APC", 0),
    PartSpec("site-smf-mpo", "—", "SMF MPO-12/APC trunk (site cabling)", "cable", "fibre",
             "smf", 400, 1, 500, (MMS4X00_NM, LINKX_FIBRE),
             "Single-mode MPO-12/APC cabling beyond 100 m, installed on site",
             "100 米以上单模 MPO-12/APC 布线（现场施工）", 0),
    PartSpec("site-smf-lc", "—", "SMF duplex LC (site cabling)", "cable", "fibre", "smf-lc",
             400, 1, 2000, (MMS4X50_NM,), "Single-mode duplex LC cabling (NVIDIA does not "
             "supply these fibres)", "单模 LC 双工布线（NVIDIA 不提供此类光纤）", 0),
)

DEFAULT_CATALOGUE = Catalogue(DEFAULT_SWITCHES, DEFAULT_PARTS)

# Facts the planner relies on that are not a catalogue row.
CATALOGUE_SOURCES = {"cx8_ethernet": CX8_LINK}
