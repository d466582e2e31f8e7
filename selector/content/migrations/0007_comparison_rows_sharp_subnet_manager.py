"""Issue 22 (finding 13): the comparison table's in-network reduction (SHARP) and subnet
management rows, each cell sourced, added to databases loaded from the older fixture (the
fixture carries them for new ones). A row whose slug already exists is left as an editor
wrote it."""

import datetime

from django.db import migrations

READ = "2026-12-03"
ROWS = [
    {
        "slug": "in-network-reduction",
        "order": 8,
        "dimension_zh": "网内归约（SHARP）",
        "dimension_en": "In-network reduction (SHARP)",
        "roce_zh": "我们规划的以太网交换机不做网内归约：NVIDIA SHARP 支持的交换机只有 Quantum 系列"
                   "（InfiniBand）",
        "roce_en": "None in the Ethernet switches we plan: NVIDIA SHARP lists only Quantum "
                   "(InfiniBand) switches",
        "infiniband_zh": "NVIDIA SHARP：归约在 Quantum、Quantum-2、Quantum-3 交换机内完成（网卡需 "
                         "ConnectX-6 或更新）；NCCL 通过 NCCL-RDMA-SHARP 插件使用",
        "infiniband_en": "NVIDIA SHARP: reductions run in Quantum, Quantum-2 and Quantum-3 "
                         "switches (ConnectX-6 or later NICs); NCCL uses them through the "
                         "NCCL-RDMA-SHARP plugin",
        "basis": "sourced",
        "source_title": "NVIDIA Scalable Hierarchical Aggregation and Reduction Protocol "
                        "(SHARP) Rev 3.13.0 — General Information",
        "source_title_zh": "NVIDIA SHARP 3.13.0：基本信息与支持的设备（英文）",
        "source_url": "https://docs.nvidia.com/networking/display/sharpv3130/general-information",
        "source_date": READ,
        "more_sources": [{
            "title": "NVIDIA HPC-X Software Toolkit Rev 2.26 — NCCL-RDMA-SHARP Plugins",
            "url": "https://docs.nvidia.com/networking/display/hpcxv226/NCCL-RDMA-SHARP-Plugins",
            "date": "2026-12-02", "title_zh": "NVIDIA HPC-X：NCCL-RDMA-SHARP 插件（英文）"}],
    },
    {
        "slug": "subnet-management",
        "order": 9,
        "dimension_zh": "子网管理",
        "dimension_en": "Subnet management",
        "roce_zh": "无需子网管理器：每台交换机自行计算路由，在等价路径间分担流量（ECMP）",
        "roce_en": "No subnet manager: every switch computes its own routes and shares traffic "
                   "over equal-cost paths (ECMP)",
        "infiniband_zh": "每个子网至少运行一个子网管理器（UFM，或专用服务器上的 OpenSM）：它初始化"
                         "硬件并计算路由（如 fat-tree 路由引擎）",
        "infiniband_en": "At least one subnet manager per subnet (UFM, or OpenSM on a dedicated "
                         "server): it initialises the hardware and computes the routes (e.g. "
                         "the fat-tree routing engine)",
        "basis": "sourced",
        "source_title": "linux-rdma/opensm README",
        "source_title_zh": "OpenSM 说明：InfiniBand 子网管理器（英文）",
        "source_url": "https://github.com/linux-rdma/opensm/blob/master/README",
        "source_date": READ,
        "more_sources": [
            {"title": "NVIDIA UFM Enterprise User Manual v6.20.1 — Network Management "
                      "(routing engines)",
             "url": "https://docs.nvidia.com/networking/display/ufmenterpriseumv6201/"
                    "Network+Management",
             "date": "2026-12-02",
             "title_zh": "NVIDIA UFM Enterprise 用户手册：网络管理与路由引擎（英文）"},
            {"title": "NVIDIA Cumulus Linux 5.18 User Guide — Equal Cost Multipath Load "
                      "Sharing (Adaptive Routing)",
             "url": "https://docs.nvidia.com/networking-ethernet-software/cumulus-linux-518/"
                    "Layer-3/Routing/Equal-Cost-Multipath-Load-Sharing/",
             "date": "2026-12-01",
             "title_zh": "NVIDIA Cumulus Linux 5.18 用户指南：等价多路径与自适应路由（英文）"},
        ],
    },
]


def forwards(apps, schema_editor):
    ComparisonRow = apps.get_model("content", "ComparisonRow")
    if not ComparisonRow.objects.exists():
        return  # an empty database: load_content brings the whole fixture
    for row in ROWS:
        fields = {**row, "source_date": datetime.date.fromisoformat(row["source_date"])}
        slug = fields.pop("slug")
        ComparisonRow.objects.get_or_create(slug=slug, defaults=fields)


def backwards(apps, schema_editor):
    ComparisonRow = apps.get_model("content", "ComparisonRow")
    ComparisonRow.objects.filter(slug__in=[row["slug"] for row in ROWS]).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("content", "0006_copy_edits_issue_26"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
