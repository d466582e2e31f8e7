"""Realistic demo data for the sales workspace (``manage.py seed_demo``) and the bench:
bilingual leads and wizard sessions spread over months and traffic sources, inserted with
bulk_create. Names are invented; phone numbers use reserved-looking test ranges."""

from __future__ import annotations

import contextlib
import json
import random
import uuid
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from selector.content.models import PriceList, Switch
from selector.domain import DEFAULT_CATALOGUE, Answers, Budget, Determinism, Workload, recommend
from selector.leads import worktime
from selector.leads.duplicates import company_key
from selector.leads.models import (
    OPEN_STATUSES,
    Lead,
    LeadEvent,
    LostReason,
    NextActionKind,
    Status,
    Timeline,
)
from selector.leads.privacy import PRIVACY_NOTICE_VERSION
from selector.leads.scoring import score_lead
from selector.staff import rollup
from selector.wizard.models import WizardSession
from selector.wizard.steps import RESULT_INDEX

BATCH = 2000
ZH_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡"
    "余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯"
    "龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
ZH_GIVEN = ["伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "娟",
            "涛",
            "明", "超", "秀英", "霞", "平", "刚", "桂英", "建华", "志强", "海燕", "晓东", "思远",
            "雨婷", "子涵", "浩然", "欣怡", "宇航", "博文", "嘉怡", "俊杰"]
ZH_COMPANY_HEADS = ["华", "中", "云", "智", "星", "天", "海", "数", "锐", "启", "联", "鼎", "恒",
                    "远"]
ZH_COMPANY_TAILS = ["算科技有限公司", "智能科技有限公司", "云计算股份有限公司",
                    "数据科技有限公司",
                    "信息技术有限公司", "人工智能研究院", "网络科技有限公司", "超算中心"]
ZH_CITIES = ["北京", "上海", "深圳", "杭州", "广州", "成都", "南京", "武汉", "苏州", "合肥"]
ZH_ROLES = ["CTO", "IT 总监", "网络架构师", "运维经理", "采购经理", "AI 平台负责人", "研发总监"]
EN_FIRST = ["James", "Mary", "Wei", "Anna", "David", "Linda", "Michael", "Sarah", "Kevin",
            "Emily", "Daniel", "Grace", "Ryan", "Olivia", "Jason", "Sophie", "Eric", "Chloe"]
EN_LAST = ["Smith", "Chen", "Wang", "Johnson", "Lee", "Brown", "Tan", "Garcia", "Miller",
           "Wong", "Davis", "Lim", "Martin", "Clark", "Ng", "Lopez", "Walker", "Hall"]
EN_COMPANY_HEADS = ["Apex", "Nimbus", "Quantum", "Vector", "Helix", "Orbit", "Summit", "Nova"]
EN_COMPANY_TAILS = ["AI Labs", "Compute Ltd", "Cloud Inc.", "Data Systems", "Research",
                    "Networks Pte Ltd", "Analytics GmbH"]
EN_ROLES = ["CTO", "Head of Infrastructure", "Network Architect", "IT Director",
            "ML Platform Lead", "Procurement Manager"]
# (utm_source, utm_medium, weight): direct traffic has no UTM.
SOURCES = [("", "", 30), ("baidu", "cpc", 20), ("wechat", "social", 18), ("zhihu", "referral", 8),
           ("google", "cpc", 8), ("linkedin", "social", 6), ("newsletter", "email", 5),
           ("event", "offline", 5)]
CAMPAIGNS = ["ai-cluster-2026", "roce-vs-ib", "gpu-summit", "spring-promo", ""]
GPU_COUNTS = [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
GPU_WEIGHTS = [14, 14, 12, 14, 12, 10, 9, 7, 5, 3]
STATUS_WEIGHTS = [(Status.NEW, 45), (Status.CONTACTED, 20), (Status.QUALIFIED, 12),
                  (Status.PROPOSAL, 8), (Status.WON, 5), (Status.LOST, 10)]
# Sessions that did not become leads: how far they got (step index -> weight).
FURTHEST_WEIGHTS = [(1, 30), (2, 20), (3, 14), (4, 10), (5, 6), (RESULT_INDEX, 20)]
_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
TIMELINES = list(Timeline)
PHONE_PREFIXES = ["138", "139", "186", "150", "177"]


@contextlib.contextmanager
def _explicit_timestamps(*models):
    """Let bulk_create keep the created_at/updated_at we set (demo data spread over months)."""
    saved = []
    for model in models:
        for field in model._meta.concrete_fields:
            if getattr(field, "auto_now_add", False) or getattr(field, "auto_now", False):
                saved.append((field, field.auto_now_add, field.auto_now))
                field.auto_now_add = field.auto_now = False
    try:
        yield
    finally:
        for field, add, now in saved:
            field.auto_now_add, field.auto_now = add, now


class _Sizing:
    """One frozen recommendation per distinct answers (there are only a few thousand), the
    same snapshot lead_create freezes."""

    def __init__(self):
        catalogue = Switch.catalogue()
        self.catalogue = catalogue if catalogue.switches else DEFAULT_CATALOGUE
        self.prices = PriceList.current()
        self.cache: dict = {}

    def __call__(self, answers: Answers):
        key = tuple(sorted(answers.to_dict().items()))
        if key not in self.cache:
            rec = recommend(answers, self.catalogue, self.prices)
            self.cache[key] = (rec.decision, json.dumps(rec.to_dict(), ensure_ascii=False),
                               json.dumps(answers.to_dict()))
        return self.cache[key]


def _weighted(rng, pairs):
    return rng.choices([p[0] for p in pairs], weights=[p[-1] for p in pairs])[0]


def _person(rng, english: bool):
    if english:
        first, last = rng.choice(EN_FIRST), rng.choice(EN_LAST)
        company = f"{rng.choice(EN_COMPANY_HEADS)} {rng.choice(EN_COMPANY_TAILS)}"
        email = f"{first}.{last}{rng.randint(1, 999)}@example.com".lower()
        return f"{first} {last}", company, rng.choice(EN_ROLES), email
    name = rng.choice(ZH_SURNAMES) + rng.choice(ZH_GIVEN)
    company = (rng.choice(ZH_CITIES) + rng.choice(ZH_COMPANY_HEADS) + rng.choice(ZH_COMPANY_HEADS)
               + rng.choice(ZH_COMPANY_TAILS))
    email = f"user{rng.randint(1000, 99999999)}@example.cn"
    return name, company, rng.choice(ZH_ROLES), email


def _answers(rng) -> Answers:
    nic = rng.choice([None, 200, 400, 400, 800])
    return Answers(gpus=rng.choices(GPU_COUNTS, GPU_WEIGHTS)[0], gpus_per_server=8,
                   workload=rng.choice(list(Workload)), budget=rng.choice(list(Budget)),
                   determinism=Determinism.STRICT if rng.random() < 0.08
                   else Determinism.STANDARD,
                   throughput_limited=rng.random() < 0.4, nic_speed=nic)


def _workspace(rng, *, status: str, score: str, lead_at, now, owners, cal) -> dict:
    """A plausible state of the sales work on a demo lead: owner (new leads are often
    unassigned), SLA deadline, first contact, last activity, next action, lost reason or
    deal value. ``owners``: user ids to spread the leads over (none: all unassigned)."""
    owner = None
    if owners and (status != Status.NEW.value or rng.random() < 0.5):
        owner = rng.choice(owners)
    sla = cal.add(lead_at, worktime.sla_minutes(score, cal) or 0)
    first = None
    if status != Status.NEW.value and owner is not None:
        first = min(lead_at + timedelta(minutes=rng.choice([8, 25, 50, 90, 240, 900, 2900])),
                    now)
    last = first
    if first is not None and rng.random() < 0.6:
        last = min(first + timedelta(days=rng.uniform(0, 30)), now)
    open_ = status in {s.value for s in OPEN_STATUSES}
    due = None
    if open_ and owner is not None and rng.random() < 0.5:
        due = now + timedelta(hours=rng.uniform(-72, 120))
    return {
        "owner_id": owner, "sla_due": sla, "first_contact_at": first,
        "first_contact_by_id": owner if first else None, "last_activity_at": last,
        "next_action_kind": rng.choice(NextActionKind.values) if due else "",
        "next_action_due": due, "next_action_note": "",
        "lost_reason": rng.choice(LostReason.values) if status == Status.LOST.value else "",
        "deal_value": rng.choice([180_000, 450_000, 1_200_000, 3_600_000])
        if status == Status.WON.value else None,
        "merged_into_id": None,
    }


def seed(*, leads: int, sessions: int = 0, months: int = 12, seed: int | None = None,
         en_every: int | None = None, now=None, owners=()) -> tuple[int, int]:
    """Create ``leads`` leads (each with its wizard session and "created" event) and enough
    other sessions to make ``sessions`` in total. ``en_every=k`` makes exactly every k-th
    lead English (the bench exports an exact number of rows with it). Returns (leads,
    sessions) created. On PostgreSQL rows go in with COPY (200,000 leads in well under a
    minute on an idle machine); elsewhere with bulk_create."""
    rng = random.Random(seed)
    now = now or timezone.now()
    cal = worktime.calendar()
    owners = list(owners)
    span = timedelta(days=30 * months).total_seconds()
    sizing = _Sizing()
    used_numbers: set[str] = set()
    writer = _CopyWriter() if connection.vendor == "postgresql" else _OrmWriter()

    def times(n):
        """n creation times, more recent more often, oldest first: rows go in in the order
        a live site writes them, so the table is physically in created_at order like a
        real one (index walks by date read neighbouring rows, not 200,000 random pages)."""
        return [now - timedelta(seconds=span * (x ** 1.3))
                for x in sorted((rng.random() for _ in range(n)), reverse=True)]

    def session_source():
        source, medium, _w = rng.choices(SOURCES, [s[2] for s in SOURCES])[0]
        campaign = rng.choice(CAMPAIGNS) if source else ""
        return source, medium, campaign

    with transaction.atomic(), writer.bulk_load(big=leads + sessions >= 50_000):
        lead_times = times(leads)
        for start in range(0, leads, BATCH):
            count = min(BATCH, leads - start)
            session_rows, lead_rows = [], []
            for i in range(start, start + count):
                english = (i % en_every == 0) if en_every else rng.random() < 0.3
                language = "en" if english else "zh-hans"
                answers = _answers(rng)
                decision, snapshot, answers_json = sizing(answers)
                created = lead_times[i]
                source, medium, campaign = session_source()
                landing = f"/?utm_source={source}&utm_campaign={campaign}" if source else "/"
                session_id = uuid.UUID(int=rng.getrandbits(128), version=4)
                session_rows.append({
                    "id": session_id, "created_at": created,
                    "updated_at": created + timedelta(minutes=3), "answers": answers_json,
                    "furthest_step": RESULT_INDEX, "result_at": created + timedelta(minutes=2),
                    "language": language, "landing_url": landing, "referrer": "",
                    "utm_source": source, "utm_medium": medium, "utm_campaign": campaign,
                    "utm_term": "", "utm_content": ""})
                name, company, role, email = _person(rng, english)
                timeline = rng.choice(TIMELINES)
                lead_at = created + timedelta(minutes=4)
                number = None
                while number is None or number in used_numbers:
                    number = (f"NS-{timezone.localdate(lead_at):%Y%m%d}-"
                              + "".join(rng.choices(_ALPHABET, k=6)))
                used_numbers.add(number)
                lead_rows.append({
                    "public_id": uuid.UUID(int=rng.getrandbits(128), version=4),
                    "wizard_session_id": session_id, "report_number": number,
                    "name": name, "company": company,
                    "phone": f"+86{rng.choice(PHONE_PREFIXES)}{rng.randint(10000000, 99999999)}",
                    "email": email, "role": role, "timeline": timeline.value,
                    "wechat": f"wx_{rng.getrandbits(32):08x}" if rng.random() < 0.4 else "",
                    "message": "" if rng.random() < 0.7 else
                    ("Please call me next week." if english else "希望尽快安排技术交流。"),
                    "language": language, "answers": answers_json,
                    "recommendation": decision.recommendation.value, "rule": decision.rule,
                    "engine_version": decision.engine_version, "sizing": snapshot,
                    "score": (score := score_lead(answers, timeline).value),
                    "status": (status := _weighted(rng, STATUS_WEIGHTS).value),
                    "company_key": company_key(company),
                    **_workspace(rng, status=status, score=score, lead_at=lead_at, now=now,
                                 owners=owners, cal=cal),
                    "possible_duplicate": False,  # no flags in this data
                    "consent_given_at": lead_at,
                    "consent_notice_version": PRIVACY_NOTICE_VERSION,
                    "consent_user_agent": "Mozilla/5.0 (demo)", "landing_url": landing,
                    "referrer": "", "utm_source": source, "utm_medium": medium,
                    "utm_campaign": campaign, "utm_term": "", "utm_content": "",
                    "created_at": lead_at, "updated_at": lead_at})
            writer.sessions(session_rows)
            writer.leads(lead_rows)
        writer.lead_events()
        others = max(0, sessions - leads)
        other_times = times(others)
        for start in range(0, others, BATCH):
            rows = []
            for i in range(start, min(start + BATCH, others)):
                created = other_times[i]
                furthest = _weighted(rng, FURTHEST_WEIGHTS)
                source, medium, campaign = session_source()
                rows.append({
                    "id": uuid.UUID(int=rng.getrandbits(128), version=4),
                    "created_at": created, "updated_at": created + timedelta(minutes=1),
                    "answers": "{}", "furthest_step": furthest,
                    "result_at": created + timedelta(minutes=2)
                    if furthest >= RESULT_INDEX else None,
                    "language": "en" if rng.random() < 0.3 else "zh-hans",
                    "landing_url": "/", "referrer": "", "utm_source": source,
                    "utm_medium": medium, "utm_campaign": campaign, "utm_term": "",
                    "utm_content": ""})
            writer.sessions(rows)
    writer.finish()
    rollup.reset()  # bulk loads send no model signals
    rollup.warm(days=31 * months + 1)
    return leads, leads + others


class _CopyWriter:
    """PostgreSQL: COPY FROM STDIN, JSON passed as text already serialised."""

    TABLES = ("leads_lead", "leads_leadevent", "wizard_wizardsession")

    def __init__(self):
        self.first_id = None

    @contextlib.contextmanager
    def bulk_load(self, big: bool):
        """For a big load, drop the secondary (non-unique) indexes and rebuild them after
        the COPY: one build is much cheaper than 200,000 incremental GIN/B-tree inserts.
        DDL is transactional in PostgreSQL, so a failure restores them."""
        if not big:
            yield
            return
        with connection.cursor() as cursor:
            # This transaction only: lz4 compresses the sizing snapshots several times
            # faster than the default pglz; more memory makes the index builds sort in RAM.
            cursor.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings "
                           "WHERE name = 'default_toast_compression'")
            if cursor.fetchone()[0]:
                cursor.execute("SET LOCAL default_toast_compression = 'lz4'")
            cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
            cursor.execute(
                "SELECT i.indexname, i.indexdef FROM pg_indexes i "
                "JOIN pg_class c ON c.relname = i.indexname "
                "JOIN pg_index x ON x.indexrelid = c.oid "
                "WHERE i.schemaname = current_schema() AND i.tablename = ANY(%s) "
                "AND NOT x.indisunique AND NOT x.indisprimary", [list(self.TABLES)])
            indexes = cursor.fetchall()
            for name, _definition in indexes:
                cursor.execute(f"DROP INDEX {connection.ops.quote_name(name)}")
        yield
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # run the deferred FK checks now
            for _name, definition in indexes:
                cursor.execute(definition)

    def finish(self):
        """VACUUM ANALYZE (autovacuum would soon): statistics for the planner and the
        visibility map that index-only scans need. Not possible inside a transaction."""
        if connection.in_atomic_block:
            return
        with connection.cursor() as cursor:
            for table in self.TABLES:
                cursor.execute(f"VACUUM ANALYZE {table}")

    def _copy(self, model, rows):
        if not rows:
            return
        columns = list(rows[0])
        table = connection.ops.quote_name(model._meta.db_table)
        cols = ", ".join(connection.ops.quote_name(c) for c in columns)
        with connection.cursor() as cursor, cursor.cursor.copy(
                f"COPY {table} ({cols}) FROM STDIN") as copy:  # noqa: S608 (our names)
            for row in rows:
                copy.write_row(tuple(row.values()))

    def sessions(self, rows):
        self._copy(WizardSession, rows)

    def leads(self, rows):
        if self.first_id is None:
            with connection.cursor() as cursor:
                # No other writer may add leads until we commit, so ids >= first_id that
                # this transaction sees are exactly the ones it copied.
                cursor.execute("LOCK TABLE leads_lead IN SHARE ROW EXCLUSIVE MODE")
                cursor.execute("SELECT COALESCE(MAX(id), 0) FROM leads_lead")
                self.first_id = cursor.fetchone()[0] + 1
        self._copy(Lead, rows)

    def lead_events(self):
        """The "created" event of every lead this run copied, in one INSERT ... SELECT
        (not one per batch looking the new leads up by public_id)."""
        if self.first_id is None:
            return
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO leads_leadevent (lead_id, kind, data, created_at) "
                "SELECT id, %s, jsonb_build_object('score', score, 'language', language), "
                "created_at FROM leads_lead WHERE id >= %s",
                [LeadEvent.Kind.CREATED.value, self.first_id])


class _OrmWriter:
    """Other databases (SQLite in development): bulk_create with the timestamps we set."""

    @contextlib.contextmanager
    def bulk_load(self, big: bool):
        yield

    def finish(self):
        pass

    def lead_events(self):
        pass

    def sessions(self, rows):
        with _explicit_timestamps(WizardSession):
            WizardSession.objects.bulk_create(
                [WizardSession(**{**r, "answers": json.loads(r["answers"])}) for r in rows],
                batch_size=500)

    def leads(self, rows):
        objs = [Lead(**{**r, "answers": json.loads(r["answers"]),
                        "sizing": json.loads(r["sizing"])}) for r in rows]
        with _explicit_timestamps(Lead, LeadEvent):
            Lead.objects.bulk_create(objs, batch_size=500)
            ids = Lead.objects.filter(public_id__in=[r["public_id"] for r in rows])
            LeadEvent.objects.bulk_create(
                [LeadEvent(lead_id=pk, kind=LeadEvent.Kind.CREATED, created_at=at,
                           data={"score": score, "language": lang})
                 for pk, at, score, lang in ids.values_list("pk", "created_at", "score",
                                                            "language")], batch_size=500)
