"""The sales team's working calendar, for the first-contact SLA, the SLA messages and the
daily digests.

Working time is the WORK_HOURS intervals (local time, settings.TIME_ZONE) of working days:
the WORK_DAYS weekdays, minus the holidays, plus the make-up days (weekend days worked in
exchange for a holiday, 调休). The holidays and make-up days are the admin's working
calendar (leads.CalendarDay) over the WORK_HOLIDAYS / WORK_EXTRA_DAYS defaults: a day in
the admin wins. LEAD_SLA gives each score its deadline in working time:
``h`` working hours, ``d`` working days (one working day = the length of WORK_HOURS).

Pure functions of a ``Calendar`` (``settings_calendar()`` builds one from the settings alone,
``calendar()`` adds the admin's days), so the rules are tested without a database.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured

from selector.leads.models import CalendarDay

_MAX_DAYS = 400  # a deadline further than this means the calendar has no working time


@dataclass(frozen=True)
class Calendar:
    tz: ZoneInfo
    hours: tuple[tuple[dt.time, dt.time], ...]
    weekdays: frozenset[int]  # ISO: 1 = Monday
    holidays: frozenset[dt.date]
    extra_days: frozenset[dt.date]

    @property
    def day_minutes(self) -> int:
        return sum(_minutes(end) - _minutes(start) for start, end in self.hours)

    def is_working_day(self, day: dt.date) -> bool:
        if day in self.extra_days:
            return True
        return day.isoweekday() in self.weekdays and day not in self.holidays

    def add(self, start: dt.datetime, minutes: int) -> dt.datetime:
        """The moment ``minutes`` of working time after ``start``."""
        local = start.astimezone(self.tz)
        day, left = local.date(), float(minutes)
        for _ in range(_MAX_DAYS):
            if self.is_working_day(day):
                for begin, end in self.hours:
                    a = dt.datetime.combine(day, begin, self.tz)
                    b = dt.datetime.combine(day, end, self.tz)
                    a = max(a, local)
                    if a >= b:
                        continue
                    span = (b - a).total_seconds() / 60
                    if left <= span:
                        return a + dt.timedelta(minutes=left)
                    left -= span
            day += dt.timedelta(days=1)
            local = dt.datetime.combine(day, dt.time.min, self.tz)
        raise ValueError("no working time in the calendar")

    def between(self, start: dt.datetime, end: dt.datetime) -> int:
        """Working minutes from ``start`` to ``end`` (negative when end is earlier).

        The first and the last day are cut at ``start`` and ``end``; each working day in
        between counts whole (day_minutes), counted without walking the days: the lead page
        asks this of leads whose deadline passed months ago."""
        if end < start:
            return -self.between(end, start)
        a, b = start.astimezone(self.tz), end.astimezone(self.tz)
        first, last = a.date(), b.date()
        if first == last:
            return round(self._worked(first, a, b))
        total = self._worked(first, a, b) + self._worked(last, a, b)
        middle = self.working_days(first + dt.timedelta(days=1), last - dt.timedelta(days=1))
        return round(total + middle * self.day_minutes)

    def _worked(self, day: dt.date, a: dt.datetime, b: dt.datetime) -> float:
        """Working minutes of ``day`` between ``a`` and ``b``."""
        if not self.is_working_day(day):
            return 0.0
        total = 0.0
        for begin, finish in self.hours:
            lo = max(dt.datetime.combine(day, begin, self.tz), a)
            hi = min(dt.datetime.combine(day, finish, self.tz), b)
            if hi > lo:
                total += (hi - lo).total_seconds() / 60
        return total

    def working_days(self, first: dt.date, last: dt.date) -> int:
        """How many working days from ``first`` to ``last``, both included: the WORK_DAYS
        weekdays counted by whole weeks, then the holidays and make-up days in the range."""
        days = (last - first).days + 1
        if days <= 0:
            return 0
        weeks, rest = divmod(days, 7)
        start = first.isoweekday()
        count = weeks * len(self.weekdays) + sum(
            1 for i in range(rest) if (start - 1 + i) % 7 + 1 in self.weekdays)
        count -= sum(1 for day in self.holidays if first <= day <= last
                     and day.isoweekday() in self.weekdays and day not in self.extra_days)
        count += sum(1 for day in self.extra_days if first <= day <= last
                     and day.isoweekday() not in self.weekdays)  # the others are counted
        return count


def _minutes(t: dt.time) -> int:
    return t.hour * 60 + t.minute


def parse_hours(text: str) -> tuple[tuple[dt.time, dt.time], ...]:
    """"09:00-12:00,13:30-18:00" -> ((09:00, 12:00), (13:30, 18:00))."""
    out = []
    try:
        for part in text.split(","):
            start, end = (dt.time.fromisoformat(x.strip()) for x in part.split("-"))
            if not start < end:
                raise ValueError
            out.append((start, end))
    except ValueError:
        raise ImproperlyConfigured(f"WORK_HOURS: bad interval list {text!r}") from None
    out.sort()
    if any(a[1] > b[0] for a, b in zip(out, out[1:], strict=False)):
        raise ImproperlyConfigured("WORK_HOURS: intervals overlap")
    return tuple(out)


def parse_days(values: list[str], name: str) -> frozenset[dt.date]:
    """Dates and inclusive ranges: ["2026-10-01..2026-10-07", "2026-12-31"]."""
    days: set[dt.date] = set()
    try:
        for value in values:
            first, _sep, last = value.partition("..")
            a = dt.date.fromisoformat(first.strip())
            b = dt.date.fromisoformat(last.strip()) if last else a
            if b < a or (b - a).days > 366:
                raise ValueError
            days.update(a + dt.timedelta(days=n) for n in range((b - a).days + 1))
    except ValueError:
        raise ImproperlyConfigured(f"{name}: bad date or range in {values!r}") from None
    return frozenset(days)


def parse_sla(text: str) -> dict[str, tuple[int, str]]:
    """"hot=1h,warm=1d,cold=3d" -> {"hot": (1, "h"), ...}."""
    out = {}
    try:
        for part in text.split(","):
            score, value = (x.strip() for x in part.split("="))
            number, unit = int(value[:-1]), value[-1]
            if unit not in ("h", "d", "m") or not 0 < number <= 1000:
                raise ValueError
            out[score] = (number, unit)
    except ValueError:
        raise ImproperlyConfigured(f"LEAD_SLA: expected e.g. 'hot=1h,warm=1d', got {text!r}"
                                   ) from None
    return out


CACHE_KEY = "worktime:calendar-days"
CACHE_SECONDS = 300  # an edit clears it at once (leads.signals); this bounds a missed one


def calendar() -> Calendar:
    """The team's calendar: the settings with the admin's days over them (read once the
    settings parsed: a bad setting is its own clear error, database or not)."""
    return settings_calendar(_admin_days())


def _admin_days() -> Iterator[tuple[dt.date, str]]:
    yield from calendar_days()  # a generator: runs when settings_calendar gets to it


def settings_calendar(days: Iterable[tuple[dt.date, str]] = ()) -> Calendar:
    """The calendar the settings give, with ``days`` ((date, CalendarDay.Kind) pairs) over
    their holidays and make-up days. Without ``days``, pure: no database, no cache."""
    hours = parse_hours(settings.WORK_HOURS)
    holidays = set(parse_days(settings.WORK_HOLIDAYS, "WORK_HOLIDAYS"))
    extra = set(parse_days(settings.WORK_EXTRA_DAYS, "WORK_EXTRA_DAYS"))
    for day, kind in days:
        holidays.discard(day)
        extra.discard(day)
        (holidays if kind == CalendarDay.Kind.HOLIDAY else extra).add(day)
    return Calendar(
        tz=ZoneInfo(settings.TIME_ZONE),
        hours=hours,
        weekdays=frozenset(settings.WORK_DAYS),
        holidays=frozenset(holidays),
        extra_days=frozenset(extra),
    )


def calendar_days() -> list[tuple[dt.date, str]]:
    """The admin's holidays and make-up days, from the shared cache (one small query when it
    is cold: the calendar is read on every new lead and every lead page)."""
    days = cache.get(CACHE_KEY)
    if days is None:
        days = list(CalendarDay.objects.values_list("day", "kind"))
        cache.set(CACHE_KEY, days, CACHE_SECONDS)
    return days


def calendar_changed(**kwargs: object) -> None:
    """post_save / post_delete of a CalendarDay (connected in LeadsConfig.ready)."""
    cache.delete(CACHE_KEY)


def sla_minutes(score: str, cal: Calendar | None = None) -> int | None:
    """The first-contact deadline for a score in working minutes (None: no SLA)."""
    rule = parse_sla(settings.LEAD_SLA).get(score)  # first: a bad setting is its own error
    if rule is None:
        return None
    number, unit = rule
    cal = cal or calendar()
    return number * {"m": 1, "h": 60, "d": cal.day_minutes}[unit]


def sla_due(score: str, created: dt.datetime,
            cal: Calendar | None = None) -> dt.datetime | None:
    if score not in parse_sla(settings.LEAD_SLA):
        return None
    cal = cal or calendar()
    minutes = sla_minutes(score, cal)
    return None if minutes is None else cal.add(created, minutes)


def record_first_contact(lead, actor, now: dt.datetime, cal: Calendar | None = None
                         ) -> list[str]:
    """Set the lead's first contact (once) and its response time in working minutes, the
    SLA's measure; the fields to save (none when it was contacted before)."""
    if lead.first_contact_at is not None:
        return []
    lead.first_contact_at, lead.first_contact_by = now, actor
    lead.first_response_minutes = max(0, (cal or calendar()).between(lead.created_at, now))
    return ["first_contact_at", "first_contact_by", "first_response_minutes"]
