"""Realistic demo data for the sales workspace (``manage.py seed_demo``) and the bench:
bilingual leads and wizard sessions spread over months and traffic sources, and the sales
work on them as the workspace would have recorded it. Names are invented; phone numbers use
reserved-looking test ranges. Each lead's own columns (the frozen recommendation, report
number, score, first-contact deadline, company key, consent, source) come from
selector.leads.builder, the code lead_create uses, so the demo data cannot drift from what
the site stores; this module adds only the bulk writing and the sales work on the leads.

What makes it look like a year of real leads, not a uniform sample:

- companies have a long tail: about one company per three leads, drawn by popularity
  1 / (rank + 50), so most send one to three leads and the biggest customers a few hundred
  (``_Companies``); colleagues share a company, sometimes spelled differently ("……（深圳）
  有限公司", "Co., Ltd." / "Limited"), as the duplicate matcher's normaliser expects;
- about RESUBMIT_SHARE of the leads are someone submitting again days later, as people
  do: the same details, or the e-mail typed in capitals, a new phone number (same name
  and company), only the WeChat ID; managers merged about half of those older than a week;
- duplicate flags as lead_create records them (``_Flags``: the same phone, e-mail, WeChat
  ID, or name at the same company; exact company keys only, no trigram near-misses); a
  colleague at the same company is no flag;
- ``labelled_duplicates``: a sample with the truth (which leads are one person) through the
  real matcher, for measuring its precision (``seed_demo --duplicate-sample``);
- each lead's timeline: created, sales notified, taken, first call, status change, next
  action, possible duplicate, merged.
"""

from __future__ import annotations

import bisect
import contextlib
import itertools
import json
import random
import uuid
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from selector.domain import Answers, Budget, Determinism, Workload
from selector.leads import builder, worktime
from selector.leads.duplicates import MAX_FLAGS, flag, name_key
from selector.leads.models import (
    OPEN_STATUSES,
    DuplicateFlag,
    Lead,
    LeadEvent,
    LostReason,
    NextActionKind,
    Status,
    Timeline,
)
from selector.leads.privacy import PRIVACY_NOTICE_VERSION
from selector.leads.validators import normalize_phone
from selector.wizard.models import WizardSession
from selector.wizard.steps import RESULT, STAGES

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
# Company names: city + a two-character brand + line of business and legal form.
ZH_COMPANY_HEADS = list("华中云智星天海数锐启联鼎恒远芯算宏博瑞腾讯达盛安信泰景辰极光弘朗卓越新"
                        "凌睿拓思源润和嘉宇浩明诚晟")
ZH_COMPANY_TAILS = ["算科技有限公司", "智能科技有限公司", "云计算股份有限公司",
                    "数据科技有限公司", "信息技术有限公司", "人工智能研究院", "网络科技有限公司",
                    "超算中心", "智算中心", "电子科技有限公司", "通信技术股份有限公司",
                    "半导体有限公司", "生物科技有限公司", "汽车科技有限公司", "大学计算中心"]
ZH_CITIES = ["北京", "上海", "深圳", "杭州", "广州", "成都", "南京", "武汉", "苏州", "合肥",
             "西安", "重庆", "天津", "长沙", "厦门", "青岛"]
ZH_ROLES = ["CTO", "IT 总监", "网络架构师", "运维经理", "采购经理", "AI 平台负责人", "研发总监"]
EN_FIRST = ["James", "Mary", "Wei", "Anna", "David", "Linda", "Michael", "Sarah", "Kevin",
            "Emily", "Daniel", "Grace", "Ryan", "Olivia", "Jason", "Sophie", "Eric", "Chloe"]
EN_LAST = ["Smith", "Chen", "Wang", "Johnson", "Lee", "Brown", "Tan", "Garcia", "Miller",
           "Wong", "Davis", "Lim", "Martin", "Clark", "Ng", "Lopez", "Walker", "Hall"]
EN_COMPANY_HEADS = ["Apex", "Nimbus", "Quantum", "Vector", "Helix", "Orbit", "Summit", "Nova",
                    "Aurora", "Cobalt", "Zenith", "Vertex", "Polaris", "Stratus", "Titan",
                    "Lumen", "Atlas", "Nexus", "Pioneer", "Horizon", "Crest", "Falcon",
                    "Granite", "Harbor", "Keystone", "Meridian", "Northstar", "Onyx", "Prism",
                    "Radiant", "Sierra", "Tidal", "Vista", "Zephyr", "Beacon", "Catalyst",
                    "Ember", "Fathom", "Glacier", "Ironwood"]
EN_COMPANY_SECONDS = ["", "", "", "Ridge", "Peak", "Bay", "Point", "Stone", "Field", "Gate",
                      "Wave", "Line", "Core", "Bridge", "River", "Hill", "Park", "Forge",
                      "Light", "Star"]
EN_COMPANY_MIDDLES = ["", "", "", "Deep", "Neural", "Edge", "Grid", "Bio", "Silicon"]
EN_COMPANY_TAILS = ["AI Labs", "Compute Ltd", "Cloud Inc.", "Data Systems", "Research",
                    "Networks Pte Ltd", "Analytics GmbH", "Robotics", "Technologies Co., Ltd.",
                    "Semiconductor", "Capital", "Health AI"]
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
# Sessions that did not become leads: how far they got (stage identifier -> weight).
FURTHEST_WEIGHTS = list(zip(STAGES, (30, 20, 14, 10, 6, 20), strict=True))
TIMELINES = list(Timeline)
PHONE_PREFIXES = ["138", "139", "186", "150", "177"]
# Someone submitting again (same person, phone, e-mail, company), days later.
RESUBMIT_SHARE = 0.03
RESUBMIT_WITHIN = 2000  # leads back (about a week at 200,000 leads a year)
MERGED_AFTER = timedelta(days=7)


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


class _JsonText(str):
    """A JSON column's value serialised once: the leads with the same answers share one
    snapshot (the bulk writers pass it on as it is, or parse it for the ORM)."""


EMPTY_JSON = _JsonText("{}")


class _Snapshots:
    """lead_create's recommendation snapshot (selector.leads.builder), made once per
    distinct answers: there are only a few thousand, and the catalogue and prices do not
    change during a seed. Also the answers' and the snapshot's JSON text."""

    def __init__(self):
        self.cache: dict = {}

    def __call__(self, answers: Answers):
        data = answers.to_dict()
        key = tuple(data.items())
        if key not in self.cache:
            snapshot = builder.recommendation_snapshot(answers)
            self.cache[key] = (snapshot, _JsonText(json.dumps(data)),
                               _JsonText(json.dumps(snapshot[1], ensure_ascii=False)))
        return self.cache[key]


def _weighted(rng, pairs):
    return rng.choices([p[0] for p in pairs], weights=[p[-1] for p in pairs])[0]


class _Companies:
    """The companies leads come from, per language: a pool of distinct names (about one per
    three leads) drawn with weight 1 / (rank + 50): a long tail of companies that send one
    lead or a few, and big customers that send hundreds a year."""

    def __init__(self, rng, english: bool, expected_leads: int):
        self.english = english
        if english:
            capacity = (len(EN_COMPANY_HEADS) * len(set(EN_COMPANY_SECONDS))
                        * len(set(EN_COMPANY_MIDDLES)) * len(EN_COMPANY_TAILS))
        else:
            capacity = len(ZH_CITIES) * len(ZH_COMPANY_HEADS) ** 2 * len(ZH_COMPANY_TAILS)
        size = max(8, min(expected_leads // 3, capacity // 3))
        pool: list[str] = []
        seen: set[str] = set()
        while len(pool) < size:
            name = self._name(rng)
            if name not in seen:
                seen.add(name)
                pool.append(name)
        self.pool = pool
        self.cum = list(itertools.accumulate(1 / (rank + 50) for rank in range(size)))

    def _name(self, rng) -> str:
        if self.english:
            words = (rng.choice(EN_COMPANY_HEADS) + rng.choice(EN_COMPANY_SECONDS).lower(),
                     rng.choice(EN_COMPANY_MIDDLES), rng.choice(EN_COMPANY_TAILS))
            return " ".join(w for w in words if w)
        return (rng.choice(ZH_CITIES) + rng.choice(ZH_COMPANY_HEADS)
                + rng.choice(ZH_COMPANY_HEADS) + rng.choice(ZH_COMPANY_TAILS))

    def pick(self, rng) -> str:
        name = self.pool[bisect.bisect(self.cum, rng.random() * self.cum[-1])]
        return _spelling(rng, name) if rng.random() < 0.15 else name


def _spelling(rng, name: str) -> str:
    """The same company written another way, as people do (same company_key)."""
    if name.endswith("股份有限公司"):
        return name[:-6] + "有限公司"
    if name.endswith("有限公司"):
        return name[:-4] + f"（{rng.choice(ZH_CITIES)}）有限公司"
    if name.endswith("Co., Ltd."):
        return name[:-9] + "Limited"
    if name.endswith(" Ltd"):
        return name + "."
    return name.upper() if name.isascii() else name


def _again(rng, again: _Facts) -> tuple[str, str, str, str, str, str]:
    """The same person submitting again, as people do: the same details; the e-mail in
    capitals; a new phone number (the name and company say who it is); or only the WeChat
    ID. The company sometimes written another way (the same company key)."""
    name, role, phone, email, wechat = (again.name, again.role, again.phone, again.email,
                                        again.wechat)
    company = _spelling(rng, again.company) if rng.random() < 0.3 else again.company
    way = rng.random()
    if way < 0.15:
        email = email.upper()
    elif way < 0.3:
        phone = f"+86{rng.choice(PHONE_PREFIXES)}{rng.randint(10000000, 99999999)}"
        email = ""
    elif way < 0.4 and wechat:
        phone = email = ""
    return name, company, role, phone, email, wechat


def _person(rng, english: bool, company: str):
    if english:
        first, last = rng.choice(EN_FIRST), rng.choice(EN_LAST)
        email = f"{first}.{last}{rng.randint(1, 99999)}@example.com".lower()
        return f"{first} {last}", company, rng.choice(EN_ROLES), email
    name = rng.choice(ZH_SURNAMES) + rng.choice(ZH_GIVEN)
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
    # Every lead past "new" was contacted (services set first_contact_at on that step),
    # also one whose owner later released it: no SLA clock runs on a won or lost lead.
    first = None
    if status != Status.NEW.value:
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
        "owner_id": owner, "first_contact_at": first,
        "first_response_minutes": max(0, cal.between(lead_at, first)) if first else None,
        "first_contact_by_id": owner if first else None, "last_activity_at": last,
        "next_action_kind": rng.choice(NextActionKind.values) if due else "",
        "next_action_due": due, "next_action_note": "",
        "lost_reason": rng.choice(LostReason.values) if status == Status.LOST.value else "",
        "deal_value": rng.choice([180_000, 450_000, 1_200_000, 3_600_000])
        if status == Status.WON.value else None,
        "merged_into_id": None,
    }


class _Facts:
    """What the generator remembers of a lead: to submit it again, match duplicates and
    write its timeline once the database has given it an id."""

    __slots__ = ("pos", "number", "name", "company", "phone", "email", "wechat", "role",
                 "language", "score", "status", "lead_at", "work", "merged_into", "merged_at")

    def __init__(self, pos, number, name, company, phone, email, wechat, role, language,
                 score, status, lead_at, work):
        self.pos, self.number, self.name, self.company = pos, number, name, company
        self.phone, self.email, self.wechat, self.role = phone, email, wechat, role
        self.language, self.score, self.status, self.lead_at = language, score, status, lead_at
        self.work = work
        self.merged_into = self.merged_at = None

    def root(self, facts) -> int:
        return self.pos if self.merged_into is None else facts[self.merged_into].root(facts)


class _Flags:
    """Possible duplicates as lead_create records them (selector.leads.duplicates): up to
    MAX_FLAGS earlier leads of the same person: the same phone, e-mail or WeChat ID, or
    the same name at the same company (equal company keys; the trigram near-misses are left
    out). A lead merged before the new one arrived is no candidate."""

    def __init__(self):
        self.by: dict[str, dict[str, list[int]]] = {
            "phone": {}, "email": {}, "wechat": {}, "name": {}}
        self.found: list[tuple] = []  # (lead pos, other pos, reasons, similarity, at)

    @staticmethod
    def _keys(fact: _Facts, key: str) -> dict[str, str]:
        person = name_key(fact.name)
        return {"phone": fact.phone, "email": fact.email.strip().lower(),
                "wechat": fact.wechat.strip().lower(),
                "name": f"{person}|{key}" if person and key else ""}

    def match(self, fact: _Facts, key: str, facts: list[_Facts]) -> None:
        def live(pos):
            merged_at = facts[pos].merged_at
            return merged_at is None or merged_at > fact.lead_at

        keys = self._keys(fact, key)
        found: dict[int, list[str]] = {}
        for reason in ("phone", "email", "wechat", "name"):
            if not keys[reason]:
                continue
            for pos in [p for p in reversed(self.by[reason].get(keys[reason], ()))
                        if live(p)][:MAX_FLAGS * 4]:
                found.setdefault(pos, []).append(reason)
        ranked = sorted(found.items(), key=lambda kv: (-len(kv[1]), -kv[0]))
        for pos, reasons in ranked[:MAX_FLAGS]:
            self.found.append((fact.pos, pos, reasons, 1.0 if "name" in reasons else None,
                               fact.lead_at))
        for reason, value in keys.items():
            if value:
                self.by[reason].setdefault(value, []).append(fact.pos)

    def resolved(self, facts: list[_Facts], rng, now) -> list[tuple]:
        """The flags as they stand now: a merge moved a merged lead's flags to the lead it
        was merged into (the pair's own flag went); managers dismissed most older
        some of them."""
        out, seen = [], set()
        for a, b, reasons, similarity, at in self.found:
            a, b = facts[a].root(facts), facts[b].root(facts)
            if a == b or (a, b) in seen:
                continue
            seen.add((a, b))
            dismissed = None
            age = now - at
            if age > MERGED_AFTER and rng.random() < 0.2:
                dismissed = at + timedelta(days=rng.uniform(0.2, min(age.days, 14)))
            out.append((a, b, reasons, similarity, at, dismissed))
        return out


def _events(facts: list[_Facts], flags: list[tuple], ids: list[int], usernames: dict):
    """Every lead's timeline as the workspace writes it: (lead id, kind, actor id, data,
    at) rows."""
    kind = LeadEvent.Kind
    for f in facts:
        lead, w, owner = ids[f.pos], f.work, f.work["owner_id"]
        yield lead, kind.CREATED, None, {"score": f.score, "language": f.language}, f.lead_at
        yield (lead, kind.NOTIFIED, None, {"channel": "webhook", "attempt": 1},
               f.lead_at + timedelta(seconds=20))
        first, last = w["first_contact_at"], w["last_activity_at"]
        if owner is not None:
            taken = min(f.lead_at + timedelta(minutes=6), first or f.lead_at + timedelta(
                minutes=6))
            yield (lead, kind.OWNER_CHANGED, owner,
                   {"from": None, "to": usernames.get(owner)}, taken)
        if first is not None:
            yield (lead, kind.ACTIVITY, owner, {"type": "call", "outcome": "reached"}, first)
        if f.status != Status.NEW.value:
            data = {"from": Status.NEW.value, "to": f.status}
            if w["lost_reason"]:
                data["reason"] = w["lost_reason"]
            if w["deal_value"] is not None:
                data["deal_value"] = str(w["deal_value"])
            yield lead, kind.STATUS_CHANGED, owner, data, last or first or f.lead_at
        if w["next_action_due"] is not None:
            yield (lead, kind.NEXT_ACTION_SET, owner,
                   {"type": w["next_action_kind"], "due": w["next_action_due"].isoformat()},
                   last or first or f.lead_at)
        if f.merged_into is not None:
            into = facts[f.merged_into]
            yield (ids[into.pos], kind.MERGED, None, {
                "merged": {"report_number": f.number, "name": f.name, "company": f.company,
                           "phone": f.phone, "email": f.email, "wechat": f.wechat},
                "consent": {"given_at": f.lead_at.isoformat(),
                            "notice_version": PRIVACY_NOTICE_VERSION,
                            "user_agent": "Mozilla/5.0 (demo)"}}, f.merged_at)
            yield lead, kind.MERGED, None, {"into": into.number}, f.merged_at
    for a, b, reasons, _similarity, at, _dismissed in flags:
        yield (ids[a], kind.DUPLICATE_FLAGGED, None,
               {"other": facts[b].number, "reasons": reasons}, at)
        yield (ids[b], kind.DUPLICATE_FLAGGED, None,
               {"other": facts[a].number, "reasons": reasons}, at)


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
    snapshots = _Snapshots()
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

    expected_en = leads // en_every if en_every else round(leads * 0.3)
    companies = {True: _Companies(rng, True, expected_en),
                 False: _Companies(rng, False, leads - expected_en)}
    recent: dict[bool, list[int]] = {True: [], False: []}
    facts: list[_Facts] = []
    flags = _Flags()
    merge_before = now - MERGED_AFTER

    with transaction.atomic(), writer.bulk_load(big=leads + sessions >= 50_000):
        lead_times = times(leads)
        for start in range(0, leads, BATCH):
            count = min(BATCH, leads - start)
            session_rows, lead_rows = [], []
            for i in range(start, start + count):
                english = (i % en_every == 0) if en_every else rng.random() < 0.3
                language = "en" if english else "zh-hans"
                answers = _answers(rng)
                snapshot, answers_json, frozen_json = snapshots(answers)
                created = lead_times[i]
                source, medium, campaign = session_source()
                landing = f"/?utm_source={source}&utm_campaign={campaign}" if source else "/"
                session_id = uuid.UUID(int=rng.getrandbits(128), version=4)
                session_rows.append({
                    "id": session_id, "created_at": created,
                    "updated_at": created + timedelta(minutes=3), "answers": answers_json,
                    "furthest_step": RESULT, "result_at": created + timedelta(minutes=2),
                    "language": language, "landing_url": landing, "referrer": "",
                    "utm_source": source, "utm_medium": medium, "utm_campaign": campaign,
                    "utm_term": "", "utm_content": ""})
                lead_at = created + timedelta(minutes=4)
                earlier = recent[english]
                again = (facts[rng.choice(earlier[-RESUBMIT_WITHIN:])]
                         if earlier and rng.random() < RESUBMIT_SHARE else None)
                if again is not None:  # the same person again, days later
                    name, company, role, phone, email, wechat = _again(rng, again)
                else:
                    name, company, role, email = _person(rng, english,
                                                         companies[english].pick(rng))
                    phone = f"+86{rng.choice(PHONE_PREFIXES)}{rng.randint(10000000, 99999999)}"
                    wechat = f"wx_{rng.getrandbits(32):08x}" if rng.random() < 0.4 else ""
                earlier.append(i)
                if len(earlier) > 2 * RESUBMIT_WITHIN:
                    del earlier[:RESUBMIT_WITHIN]
                timeline = rng.choice(TIMELINES)
                number = None
                while number is None or number in used_numbers:
                    number = builder.new_report_number(lead_at, rng)
                used_numbers.add(number)
                values = builder.lead_values(
                    answers=answers, language=language, now=lead_at,
                    contact={"name": name, "company": company, "phone": phone,
                             "email": email, "role": role, "timeline": timeline.value,
                             "wechat": wechat, "message": "" if rng.random() < 0.7 else
                             ("Please call me next week." if english
                              else "希望尽快安排技术交流。")},
                    source={"landing_url": landing, "utm_source": source,
                            "utm_medium": medium, "utm_campaign": campaign},
                    user_agent="Mozilla/5.0 (demo)", snapshot=snapshot, calendar=cal)
                # The same values, as text.
                values.update(answers=answers_json, frozen_recommendation=frozen_json)
                key, score = values["company_key"], values["score"]
                status = _weighted(rng, STATUS_WEIGHTS).value
                work = _workspace(rng, status=status, score=score, lead_at=lead_at, now=now,
                                  owners=owners, cal=cal)
                fact = _Facts(i, number, name, company, phone, email, wechat, role, language,
                              score, status, lead_at, work)
                if again is not None and lead_at < merge_before and rng.random() < 0.5:
                    # A manager merged the resubmission into the first lead within a week.
                    fact.merged_into = facts[again.pos].root(facts)
                    fact.merged_at = min(lead_at + timedelta(days=rng.uniform(0.1, 7)), now)
                    work.update(next_action_kind="", next_action_due=None)
                flags.match(fact, key, facts)
                facts.append(fact)
                lead_rows.append({
                    **values, **work,
                    "public_id": uuid.UUID(int=rng.getrandbits(128), version=4),
                    "wizard_session_id": session_id, "report_number": number,
                    "status": status,
                    "possible_duplicate": False,  # set once the flags are known
                    "created_at": lead_at, "updated_at": lead_at})
            writer.sessions(session_rows)
            writer.leads(lead_rows)
        ids = writer.lead_ids()  # in the order the leads were written
        writer.merged({ids[f.pos]: ids[f.merged_into] for f in facts
                       if f.merged_into is not None})
        all_flags = flags.resolved(facts, rng, now)  # dismissed ones too
        writer.flags([{"lead_id": ids[a], "other_id": ids[b], "reasons": json.dumps(reasons),
                       "similarity": similarity, "created_at": at, "dismissed_at": dismissed,
                       "dismissed_by_id": facts[a].work["owner_id"] if dismissed else None}
                      for a, b, reasons, similarity, at, dismissed in all_flags])
        writer.possible_duplicates({ids[pos] for a, b, *_rest, dismissed in all_flags
                                    if dismissed is None for pos in (a, b)})
        usernames = dict(get_user_model().objects.filter(pk__in=owners)
                         .values_list("pk", "username"))
        writer.events(_events(facts, all_flags, ids, usernames))
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
                    "answers": EMPTY_JSON, "furthest_step": furthest,
                    "result_at": created + timedelta(minutes=2)
                    if furthest == RESULT else None,
                    "language": "en" if rng.random() < 0.3 else "zh-hans",
                    "landing_url": "/", "referrer": "", "utm_source": source,
                    "utm_medium": medium, "utm_campaign": campaign, "utm_term": "",
                    "utm_content": ""})
            writer.sessions(rows)
    writer.finish()
    return leads, leads + others


class _CopyWriter:
    """PostgreSQL: COPY FROM STDIN, JSON passed as text already serialised."""

    TABLES = ("leads_lead", "leads_leadevent", "leads_duplicateflag", "wizard_wizardsession")

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
            # This transaction only: lz4 compresses the recommendation snapshots several times
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
            # Per-column statistics targets (the search index's 1000, set by leads/0011)
            # are not part of the definition: read them to set them again.
            cursor.execute(
                "SELECT c.relname, a.attnum, a.attstattarget FROM pg_attribute a "
                "JOIN pg_class c ON c.oid = a.attrelid "
                "WHERE c.relname = ANY(%s) AND c.relnamespace = current_schema()::regnamespace "
                "AND a.attstattarget > 0", [[name for name, _definition in indexes]])
            targets = cursor.fetchall()
            for name, _definition in indexes:
                cursor.execute(f"DROP INDEX {connection.ops.quote_name(name)}")
        yield
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # run the deferred FK checks now
            for _name, definition in indexes:
                cursor.execute(definition)
            for name, column, target in targets:
                cursor.execute(f"ALTER INDEX {connection.ops.quote_name(name)} "
                               f"ALTER COLUMN {int(column)} SET STATISTICS {int(target)}")

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

    def lead_ids(self) -> list[int]:
        """The copied leads' ids in the order they were written (COPY takes each row's id
        from the sequence in order; nobody else could insert meanwhile)."""
        if self.first_id is None:
            return []
        with connection.cursor() as cursor:
            cursor.execute("SELECT id FROM leads_lead WHERE id >= %s ORDER BY id",
                           [self.first_id])
            return [row[0] for row in cursor.fetchall()]

    def merged(self, pointers: dict[int, int]):
        if not pointers:
            return
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE leads_lead SET merged_into_id = m.into_id FROM "
                "unnest(%s::bigint[], %s::bigint[]) AS m(id, into_id) WHERE leads_lead.id = m.id",
                [list(pointers), list(pointers.values())])

    def flags(self, rows):
        self._copy(DuplicateFlag, rows)

    def possible_duplicates(self, ids: set[int]):
        with connection.cursor() as cursor:
            cursor.execute("UPDATE leads_lead SET possible_duplicate = true "
                           "WHERE id = ANY(%s::bigint[])", [sorted(ids)])

    def events(self, rows):
        columns = ("lead_id", "kind", "actor_id", "data", "created_at")
        with connection.cursor() as cursor, cursor.cursor.copy(
                f"COPY leads_leadevent ({', '.join(columns)}) FROM STDIN") as copy:
            for lead, kind, actor, data, at in rows:
                copy.write_row((lead, str(kind), actor,
                                json.dumps(data, ensure_ascii=False), at))


def _parsed(row: dict) -> dict:
    return {k: json.loads(v) if isinstance(v, _JsonText) else v for k, v in row.items()}


class _OrmWriter:
    """Other databases (SQLite in development): bulk_create with the timestamps we set."""

    def __init__(self):
        self.public_ids: list = []

    @contextlib.contextmanager
    def bulk_load(self, big: bool):
        yield

    def finish(self):
        pass

    def sessions(self, rows):
        with _explicit_timestamps(WizardSession):
            WizardSession.objects.bulk_create(
                [WizardSession(**_parsed(r)) for r in rows],
                batch_size=500)

    def leads(self, rows):
        objs = [Lead(**_parsed(r)) for r in rows]
        with _explicit_timestamps(Lead):
            Lead.objects.bulk_create(objs, batch_size=500)
        self.public_ids += [r["public_id"] for r in rows]

    def lead_ids(self) -> list[int]:
        ids: dict[uuid.UUID, int] = {}
        for start in range(0, len(self.public_ids), 500):
            ids.update(Lead.objects.filter(public_id__in=self.public_ids[start:start + 500])
                       .values_list("public_id", "id"))
        return [ids[public_id] for public_id in self.public_ids]

    def merged(self, pointers: dict[int, int]):
        for pk, into in pointers.items():
            Lead.objects.filter(pk=pk).update(merged_into_id=into)

    def flags(self, rows):
        with _explicit_timestamps(DuplicateFlag):
            DuplicateFlag.objects.bulk_create(
                [DuplicateFlag(**{**r, "reasons": json.loads(r["reasons"])}) for r in rows],
                batch_size=500)

    def possible_duplicates(self, ids: set[int]):
        ordered = sorted(ids)
        for start in range(0, len(ordered), 500):
            Lead.objects.filter(pk__in=ordered[start:start + 500]).update(possible_duplicate=True)

    def events(self, rows):
        with _explicit_timestamps(LeadEvent):
            LeadEvent.objects.bulk_create(
                [LeadEvent(lead_id=lead, kind=str(kind), actor_id=actor, data=data,
                           created_at=at)
                 for lead, kind, actor, data, at in rows], batch_size=500)


# --- a labelled sample for the duplicate matcher ----------------------------------------

def labelled_duplicates(*, people: int, seed: int | None = None,
                        resubmit_share: float = 0.35) -> dict[int, int]:
    """``people`` invented people at a long tail of companies (big customers have many
    colleagues, the noise a company-only match flagged), some submitting again in the ways
    people do: the phone dictated in another format, the e-mail in capitals, a new phone
    with the same name and company (spelled another way), only the WeChat ID. Each lead
    goes through the real matcher (selector.leads.duplicates.flag, as lead_create calls
    it). Returns the truth: {lead id: person number}."""
    rng = random.Random(seed)
    cal = worktime.calendar()
    firms = _Companies(rng, False, max(people, 8))
    answers = _answers(rng)
    snapshot = builder.recommendation_snapshot(answers)
    truth: dict[int, int] = {}

    def submit(person: int, contact: dict) -> None:
        now = timezone.now()
        values = builder.lead_values(
            answers=answers, language="zh-hans", now=now, snapshot=snapshot, calendar=cal,
            contact={"role": "CTO", "timeline": "0-3m", "message": "", **contact},
            source={})
        with transaction.atomic():
            lead = Lead.objects.create(report_number=builder.new_report_number(now),
                                       **values)
            flag(lead)
        truth[lead.pk] = person

    for person in range(people):
        company = firms.pick(rng)
        # Namesakes at one firm happen (a common name at a big customer): each is counted
        # as the other person they are, so such a flag lowers the precision.
        name = rng.choice(ZH_SURNAMES) + rng.choice(ZH_GIVEN)
        mobile = f"{rng.choice(PHONE_PREFIXES)}{rng.randint(10000000, 99999999)}"
        email = f"user{person}x{rng.randint(1000, 99999)}@example.cn"
        wechat = f"wx_{rng.getrandbits(32):08x}" if rng.random() < 0.5 else ""
        first = {"name": name, "company": company, "phone": normalize_phone(mobile),
                 "email": email, "wechat": wechat}
        submit(person, first)
        if rng.random() >= resubmit_share:
            continue
        for _ in range(rng.choice([1, 1, 2])):
            again = dict(first)
            way = rng.random()
            if way < 0.3:  # dictated: "138 0013 8000", "(+86)138-0013-8000", ...
                typed = rng.choice([f"{mobile[:3]} {mobile[3:7]} {mobile[7:]}",
                                    f"(+86){mobile[:3]}-{mobile[3:7]}-{mobile[7:]}",
                                    f"+86 {mobile}", f"0086{mobile}"])
                again["phone"] = normalize_phone(typed)
                again["email"] = ""
            elif way < 0.55:
                again["email"] = email.upper()
                again["phone"] = ""
            elif way < 0.8:  # a new number; the name and the company say who it is
                again["phone"] = normalize_phone(
                    f"{rng.choice(PHONE_PREFIXES)}{rng.randint(10000000, 99999999)}")
                again["email"] = ""
                again["company"] = _spelling(rng, company)
            elif wechat:
                again.update(phone="", email="")
            submit(person, again)
    return truth


def duplicate_precision(truth: dict[int, int]) -> dict[str, float | int]:
    """How the matcher's flags over a labelled sample compare with the truth: flags, those
    naming the same person, precision; the people who submitted more than once and were
    caught (a flag on each later lead), recall."""
    # Flags between two leads of the sample (a flag to a lead outside it, already in the
    # database, has no truth to compare with).
    pairs = [(a, b) for a, b in DuplicateFlag.objects.filter(lead_id__in=truth.keys())
             .values_list("lead_id", "other_id") if b in truth]
    same = sum(truth.get(a) == truth.get(b) for a, b in pairs)
    flagged = {a for a, b in pairs if truth.get(a) == truth.get(b)}
    by_person: dict[int, list[int]] = {}
    for pk, person in sorted(truth.items()):
        by_person.setdefault(person, []).append(pk)
    later = [pk for pks in by_person.values() for pk in pks[1:]]
    return {"leads": len(truth), "flags": len(pairs), "same_person": same,
            "precision": same / len(pairs) if pairs else 1.0,
            "resubmissions": len(later),
            "recall": len(flagged & set(later)) / len(later) if later else 1.0}
