"""Merge events named the merged lead's name, company, phone, e-mail and WeChat ID on the
surviving lead's timeline, so erasing the merged lead left its contact details behind
(issue 21, M5). Keep only its report number, as merges now record."""

from django.db import migrations


def forwards(apps, schema_editor):
    LeadEvent = apps.get_model("leads", "LeadEvent")
    events = LeadEvent.objects.filter(kind="merged", data__has_key="merged")
    for event in events.iterator(chunk_size=500):
        merged = event.data.get("merged") or {}
        if set(merged) - {"report_number"}:
            event.data = {**event.data,
                          "merged": {"report_number": merged.get("report_number", "")}}
            event.save(update_fields=["data"])


class Migration(migrations.Migration):
    dependencies = [
        ("staff", "0012_loginthrottle_device"),
        ("leads", "0012_report_pdf"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
