"""The one rescheduling rule of the periodic ticks (selector.core.ticks): whoever starts a
tick chain and however often, one run of each tick waits at a time, after the delay it was
given; a backend that cannot defer gets nothing."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from selector.core.ticks import enqueue_unless_waiting
from selector.quotes.expiry import expire_tick, schedule_expiry
from selector.staff.tasks import schedule_tick, tick

pytestmark = pytest.mark.django_db

TICKS = [(tick, schedule_tick), (expire_tick, schedule_expiry)]


@pytest.mark.parametrize(("task_obj", "schedule"), TICKS, ids=["staff", "quotes"])
def test_one_tick_waits_however_often_it_is_started(settings, task_obj, schedule):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    before = timezone.now()
    assert all(schedule(delay=600) for _ in range(3))
    assert enqueue_unless_waiting(task_obj, delay=5)
    waiting = DBTaskResult.objects.filter(task_path=task_obj.module_path, status="READY")
    assert waiting.count() == 1
    run_after = waiting.get().run_after
    assert run_after >= before + datetime.timedelta(seconds=600)
    # Other tasks' rows do not count as "waiting" for this one.
    other = next(t for t, _ in TICKS if t is not task_obj)
    assert enqueue_unless_waiting(other)
    assert waiting.count() == 1
    assert DBTaskResult.objects.filter(task_path=other.module_path, status="READY").count() == 1


@pytest.mark.parametrize(("task_obj", "schedule"), TICKS, ids=["staff", "quotes"])
def test_a_backend_that_cannot_defer_gets_nothing(settings, task_obj, schedule):
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    assert schedule() is False
    assert enqueue_unless_waiting(task_obj) is False
    assert not DBTaskResult.objects.exists()
