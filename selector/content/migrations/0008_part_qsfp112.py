"""Issue 22 (finding 7): the QSFP112 NIC-end module a BlueField-3 SuperNIC takes, added to
databases loaded from the older fixture (the fixture carries it for new ones). An existing
row with the same key is left as an editor wrote it."""

import datetime
from decimal import Decimal

from django.db import migrations

PART = {
    "key": "nvidia-mma1z00-ns400",
    "vendor": "NVIDIA",
    "model": "MMA1Z00-NS400",
    "kind": "module",
    "end": "nic",
    "medium": "mmf",
    "link_gbps": 400,
    "links": 1,
    "reach_m": 50,
    "power_w": "9.00",
    "technology": "ethernet",
    "nic": "qsfp112",
    "fits_vendor": "",
    "description_en": "Single-port QSFP112 400G SR4 (BlueField-3/QSFP112)",
    "description_zh": "单端口 QSFP112 400G SR4 多模光模块（BlueField-3/QSFP112 网卡）",
    "is_active": True,
    "source_title": "NVIDIA MMA1Z00-NS400-T 400Gb/s, Single-port, QSFP112 Multimode "
                    "Transceivers Product Specifications — Overview",
    "source_title_zh": "NVIDIA MMA1Z00-NS400 单端口 QSFP112 多模光模块说明（英文）",
    "source_url": "https://docs.nvidia.com/networking/display/MMA1Z00NS400T/Overview",
    "source_date": "2026-12-03",
    "more_sources": [],
}


def forwards(apps, schema_editor):
    Part = apps.get_model("content", "Part")
    if not Part.objects.exists():
        return  # an empty database: load_content brings the whole fixture
    fields = {**PART, "power_w": Decimal(PART["power_w"]),
              "source_date": datetime.date.fromisoformat(PART["source_date"])}
    key = fields.pop("key")
    Part.objects.get_or_create(key=key, defaults=fields)


def backwards(apps, schema_editor):
    apps.get_model("content", "Part").objects.filter(key=PART["key"]).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("content", "0007_comparison_rows_sharp_subnet_manager"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
