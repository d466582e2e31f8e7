"""PostgreSQL only: keep the lead's short text columns in the row (STORAGE MAIN).

staff/0004 set ``toast_tuple_target = 256`` on leads_lead so the big JSON (the sizing
snapshot) lives out of line. Since leads/0004 the row is longer than 256 bytes even without
its JSON, so PostgreSQL went on to move the next-largest values out of line too: company,
e-mail, landing URL ... Every search recheck, list row, duplicate check and export then
read two or three TOAST pages per lead (a search for "labs" among cold leads: 55,000 buffer
reads for 37,000 rows). MAIN keeps a column in the row unless the row would not fit on a
page at all; the JSON columns (answers, sizing) and the free-text message stay EXTENDED.

Rows already stored keep their out-of-line values until they are written again, so they
are written again here (a new value for each column, the same text)."""

from django.db import migrations

# Every short text column of leads_lead (CharField/EmailField; not message, answers, sizing).
COLUMNS = (
    "report_number", "name", "company", "company_key", "phone", "email", "role", "timeline",
    "wechat", "language", "recommendation", "rule", "engine_version", "score", "status",
    "consent_notice_version", "consent_user_agent", "landing_url", "referrer", "utm_source",
    "utm_medium", "utm_campaign", "utm_term", "utm_content", "next_action_kind",
    "next_action_note", "lost_reason",
)


def _storage(mode):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        quote = schema_editor.quote_name
        schema_editor.execute("ALTER TABLE leads_lead " + ", ".join(
            f"ALTER COLUMN {quote(c)} SET STORAGE {mode}" for c in COLUMNS))
        if mode == "MAIN":
            # "x || ''" is a new value, not the stored TOAST pointer: stored under MAIN.
            schema_editor.execute("UPDATE leads_lead SET " + ", ".join(
                f"{quote(c)} = {quote(c)} || ''" for c in COLUMNS))
    return run


class Migration(migrations.Migration):

    dependencies = [("leads", "0004_workspace")]

    operations = [migrations.RunPython(_storage("MAIN"), _storage("EXTENDED"))]
