"""The catalogue's rows: every switch, optic and cable the planner may use, each with the
documents its figures come from. This module is the one source: ``fixtures/content.json``
(admin-editable) is generated from it (``manage.py catalogue_fixture``; a test fails while
the two differ), and the vendor choices of the wizard and the API are the vendors of these
rows. Adding a switch is a row here (and its tuning family, ``selector.domain.tuning``).
"""

from __future__ import annotations

from .specs import PartSpec, Source, SwitchSpec

__all__ = [
    "VENDORS",
    "VENDOR_ANY",
    "VENDOR_NAMES",
    "DEFAULT_SWITCHES",
    "DEFAULT_PARTS",
    "CATALOGUE_SOURCES",
]

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


# Facts the planner relies on that are not a catalogue row.
CATALOGUE_SOURCES = {"cx8_ethernet": CX8_LINK}

VENDOR_ANY = "any"  # no preference: the documented pick rule (selector.domain.plan)
# The vendor preference choices, in catalogue order: "any", then every Ethernet vendor with
# a row here (InfiniBand switches are all NVIDIA's, and NVIDIA also sells Ethernet).
VENDORS: tuple[str, ...] = (VENDOR_ANY, *dict.fromkeys(
    s.vendor_key for s in DEFAULT_SWITCHES if s.technology == "ethernet"))
# What the wizard, the API and the PDF call each vendor choice: (English, Chinese). Every
# vendor above has a name here (Catalogue.problems and tests/domain/test_catalogue.py).
VENDOR_NAMES: dict[str, tuple[str, str]] = {
    "nvidia": ("NVIDIA", "NVIDIA"),
    "arista": ("Arista", "Arista"),
    "asterfusion": ("Asterfusion (domestic)", "星融元（国产）"),
}
