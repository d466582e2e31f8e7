"""Copy edits of issue 26 (item 9) in databases loaded from the old fixture: Asterfusion is
星融元; the comparison intro promises no decision tree; "raw performance" for the literal
"single-point performance". Only text still exactly as the fixture shipped it is changed:
what an editor wrote in the admin stays."""

from django.db import migrations, models

OLD_INTRO_ZH = ("AI 集群的网络，是决定训练效率的隐形瓶颈：RoCE v2 无损以太网是性价比主流，"
                "InfiniBand 是性能上限选择。本文对比两种方案并给出决策树。")
NEW_INTRO_ZH = ("AI 集群的网络，是决定训练效率的隐形瓶颈：RoCE v2 无损以太网是性价比主流，"
                "InfiniBand 是性能上限选择。")
OLD_INTRO_EN = ("The network of an AI cluster is the hidden bottleneck of training efficiency: "
                "RoCE v2 lossless Ethernet is the mainstream value choice, InfiniBand the "
                "performance-ceiling choice. This article compares the two and gives a decision "
                "tree.")
NEW_INTRO_EN = ("The network of an AI cluster is the hidden bottleneck of training efficiency: "
                "RoCE v2 lossless Ethernet is the mainstream choice for value, InfiniBand the "
                "choice for the highest performance.")
OLD_SINGLE_POINT = "InfiniBand is stronger in single-point performance and determinism, but"
NEW_SINGLE_POINT = "InfiniBand leads on raw performance and determinism, but"


def forwards(apps, schema_editor):
    ContentBlock = apps.get_model("content", "ContentBlock")
    FaqEntry = apps.get_model("content", "FaqEntry")
    Switch = apps.get_model("content", "Switch")
    ContentBlock.objects.filter(key="intro", body_zh=OLD_INTRO_ZH).update(body_zh=NEW_INTRO_ZH)
    ContentBlock.objects.filter(key="intro", body_en=OLD_INTRO_EN).update(body_en=NEW_INTRO_EN)
    for entry in FaqEntry.objects.filter(answer_en__startswith=OLD_SINGLE_POINT):
        entry.answer_en = NEW_SINGLE_POINT + entry.answer_en[len(OLD_SINGLE_POINT):]
        entry.save(update_fields=["answer_en"])
    for switch in Switch.objects.filter(vendor_key="asterfusion"):
        if switch.vendor == "Asterfusion 星融":
            switch.vendor = "Asterfusion 星融元"
        switch.source_title_zh = switch.source_title_zh.replace("星融（", "星融元（")
        for source in switch.more_sources or []:
            if isinstance(source, dict) and isinstance(source.get("title_zh"), str):
                source["title_zh"] = source["title_zh"].replace("星融官网", "星融元官网")
        switch.save(update_fields=["vendor", "source_title_zh", "more_sources"])


class Migration(migrations.Migration):

    dependencies = [
        ("content", "0005_comparison_row_sources"),
    ]

    operations = [
        migrations.AlterField(
            model_name="contentblock",
            name="section",
            field=models.CharField(choices=[
                ("article", "Article (headline and description)"), ("intro", "Introduction"),
                ("tuning", "Lossless tuning (PFC, ECN, adaptive routing)"),
                ("decision", "Decision tree line"), ("keypoint", "Key point"),
                ("cta", "Call to action")], max_length=20, verbose_name="section"),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
