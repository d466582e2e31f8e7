"""Posts to a group robot paced under the platform's documented rate, across every worker.

The platforms' limits, per robot (read 2026-12-02):

- WeCom: "每个机器人发送的消息不能超过20条/分钟" (at most 20 messages a minute per robot),
  群机器人配置说明, https://developer.work.weixin.qq.com/document/path/91770 ("消息发送频率限制").
- DingTalk: "每个机器人每分钟最多发送20条。如果超过20条，会限流10分钟" (at most 20 a minute;
  beyond that the robot is throttled for 10 minutes), 自定义机器人接入,
  https://open.dingtalk.com/document/group/custom-robot-access ("消息发送频率限制").
- Feishu / Lark custom bots: 100 calls a minute and 5 a second per bot ("Group bot webhook:
  Max 100 calls/minute"; "Send to same user or group: Max 5 calls/second", Flashduty's Lark
  integration guide, https://docs.flashcat.cloud/en/flashduty/lark-integration-guide,
  summarising Feishu's documentation).

``reserve(url)`` takes a slot: 0 when the post may go now (the slot is recorded), else the
seconds until the next free one, and then nothing is recorded: the caller re-enqueues its
task with ``run_after`` (queued, not dropped). ``reserve(url, book=True)`` (the new-lead
messages) books that next free slot for the caller instead, so each waiting message wakes
once, at its own slot. The window is a sliding one of the last
posts (leads.RobotPace, locked while read and written, so two workers never take the same
last slot), with a second of margin for clocks. A post that fails still used its slot.
"""

from __future__ import annotations

import hashlib
import time

from django.db import IntegrityError, transaction

from selector.leads.models import RobotPace
from selector.leads.notify import webhook_kind

MARGIN = 1.0
# kind -> ((posts, seconds), ...)
LIMITS: dict[str, tuple[tuple[int, float], ...]] = {
    "wecom": ((20, 60.0),),
    "dingtalk": ((20, 60.0),),
    "feishu": ((5, 1.0), (100, 60.0)),
}


def robot_key(url: str) -> str:
    return hashlib.sha256(url.encode()).hexdigest()


def reserve(url: str, now: float | None = None, *, book: bool = False) -> float:
    """A slot for one post to the robot at ``url`` (see the module doc). Posts go first come,
    first served: after every slot already booked. With ``book``, when there is no slot now
    the next free one is booked for the caller, who re-enqueues its task for that moment and
    then posts without asking again (``booked_slot_is_due``): one wait per message, instead
    of every waiting message waking at the same freed slot and all but one waiting again."""
    limits = LIMITS.get(webhook_kind(url), ())
    if not limits:
        return 0.0  # a generic webhook: no documented limit
    now = time.time() if now is None else now
    key = robot_key(url)
    if not RobotPace.objects.filter(pk=key).exists():
        try:
            with transaction.atomic():
                RobotPace.objects.create(robot=key)
        except IntegrityError:
            pass  # another worker created it meanwhile
    horizon = max(seconds for _count, seconds in limits) + MARGIN
    with transaction.atomic():
        row = RobotPace.objects.select_for_update().get(pk=key)
        sent = sorted(t for t in row.sent if t > now - horizon)
        at = max([now, *sent[-1:]])  # after the last booked slot
        moved = True
        while moved:
            moved = False
            for count, seconds in limits:
                recent = [t for t in sent if t > at - seconds - MARGIN]
                if len(recent) >= count and recent[-count] + seconds + MARGIN > at:
                    at, moved = recent[-count] + seconds + MARGIN, True
        if at <= now:
            sent.append(now)
        elif book:
            sent.append(at)
        row.sent = sent
        row.save(update_fields=["sent"])
    return max(0.0, at - now)


def booked_slot_is_due(slot: float, now: float | None = None) -> bool:
    """Whether a slot booked by ``reserve(book=True)`` may be used now: not before it and at
    most MARGIN after (a later post could bunch up with the next slots: booked again)."""
    now = time.time() if now is None else now
    return bool(slot) and slot - MARGIN <= now <= slot + MARGIN
