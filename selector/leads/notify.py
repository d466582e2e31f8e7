"""What sales receive about a new lead: the e-mail and the group-robot webhook payload.

Every message carries the deep link to the lead's staff page and human labels in the
lead's language (the e-mail: both languages).

Webhook privacy decision: a WeCom / DingTalk / Feishu group is read by more people than the
sales mailbox and its messages are stored by a third party, so the webhook carries no
personal data: only the report number, score, company name, recommendation, cluster size,
timeline, language and source. Name, phone, e-mail, WeChat ID and the message go only in
the e-mail to SALES_NOTIFY_EMAILS (and the staff workspace).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote_plus, urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from selector.core.explain import FABRIC_SHORT
from selector.core.siteurl import site_url
from selector.domain import Fabric
from selector.leads import people
from selector.leads.deliveries import Uncertain
from selector.leads.models import Lead

WEBHOOK_HOSTS = {
    "qyapi.weixin.qq.com": "wecom",
    "oapi.dingtalk.com": "dingtalk",
    "open.feishu.cn": "feishu",
    "open.larksuite.com": "feishu",
}
# Characters that let user text turn into Markdown links, emphasis or mentions.
_MARKDOWN = re.compile(r"[\\`*_{}\[\]()<>#+!|~@>\r\n]")
# What chat clients turn into a clickable link in plain text: a scheme ("https:",
# "mailto:") and a dot before a domain label ("evil.example", "www.x.cn"). User text gets
# full-width look-alikes (U+FF1A, U+FF0E): it reads the same and nobody can click it.
_SCHEME = re.compile(r"(?<=[A-Za-z]):")
_DOT = re.compile(r"(?<=[^\W_])\.(?=[A-Za-z])")
# A Feishu open_id ("ou_" and hex) or user_id (letters, digits): never quotes or brackets.
FEISHU_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def webhook_kind(url: str) -> str:
    """wecom / dingtalk / feishu from settings.LEAD_WEBHOOK_KIND, else from the URL host;
    "generic" (a plain JSON summary) otherwise."""
    if settings.LEAD_WEBHOOK_KIND:
        return settings.LEAD_WEBHOOK_KIND.strip().lower()
    host = (urlsplit(url).hostname or "").lower()
    return WEBHOOK_HOSTS.get(host, "generic")


def _plain(value: str, limit: int = 80) -> str:
    """User text made plain for a chat group: no Markdown, no mention, no clickable link."""
    text = _MARKDOWN.sub(" ", value or "")
    text = _DOT.sub("\uff0e", _SCHEME.sub("\uff1a", text))
    return text[:limit].strip()


def staff_url(lead: Lead) -> str:
    """The deep link to the lead's page in the sales workspace."""
    # The workspace's default language (no /en/ prefix), whatever language is active.
    with translation.override(settings.LANGUAGE_CODE):
        return site_url() + reverse("staff:lead_detail", args=[lead.public_id])


def labels(lead: Lead) -> dict[str, str]:
    """The lead's codes as words, in the active language."""
    try:
        recommendation = str(FABRIC_SHORT[Fabric(lead.recommendation)])
    except ValueError:
        recommendation = lead.recommendation
    return {"score": str(lead.get_score_display()),
            "timeline": str(lead.get_timeline_display()),
            "language": dict(settings.LANGUAGES).get(lead.language, lead.language),
            "recommendation": recommendation,
            "status": str(lead.get_status_display())}


def summary(lead: Lead) -> dict:
    """The non-personal facts about a lead that may leave for a chat group."""
    return {
        "report_number": lead.report_number,
        "score": lead.score,
        "company": lead.company,
        "recommendation": lead.recommendation,
        "gpus": lead.answers.get("gpus"),
        "timeline": lead.timeline,
        "language": lead.language,
        "utm_source": lead.utm_source,
        "url": staff_url(lead),
    }


@dataclass(frozen=True)
class Message:
    """One group-robot message: a title, plain lines (user text already made plain), the
    link to open, and whom to @mention (mobile numbers; names for the text; the Feishu ids,
    one per name, "" where unknown: ``people.mentions`` gives all three)."""

    title: str
    lines: tuple[str, ...]
    link: str
    link_text: str
    mobiles: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    feishu_ids: tuple[str, ...] = ()
    event: str = "lead.created"
    facts: dict[str, Any] = field(default_factory=dict)


def new_lead_message(lead: Lead) -> Message:
    """The new-lead message in the robot's language (LEAD_WEBHOOK_LANGUAGE, whatever the
    lead's: the group's keyword must be in every message), with human labels (the lead's
    language among them) and the deep link. The owner a routing rule gave the lead is
    @mentioned (selector.leads.routing); a lead in the pool says so."""
    owner = lead.owner
    with translation.override(settings.LEAD_WEBHOOK_LANGUAGE):
        words = labels(lead)
        title = _("New lead %(number)s (%(score)s)") % {
            "number": lead.report_number, "score": words["score"]}
        lines = [
            _("Company: %(company)s") % {"company": _plain(lead.company)},
            _("Recommendation: %(fabric)s · %(gpus)s GPUs") % {
                "fabric": words["recommendation"], "gpus": lead.answers.get("gpus")},
            _("Timeline: %(timeline)s · language: %(language)s") % {
                "timeline": words["timeline"], "language": words["language"]},
        ]
        if lead.utm_source:
            lines.append(_("Source: %(source)s") % {"source": _plain(lead.utm_source)})
        duplicates = list(lead.duplicate_flags.select_related("other")[:3])
        if duplicates:
            lines.append(_("Possible duplicate of %(numbers)s") % {
                "numbers": ", ".join(f.other.report_number for f in duplicates)})
        if owner is not None:
            lines.append(_("Owner: %(owner)s") % {
                "owner": _plain(people.display_name(owner), 40)})
        else:
            lines.append(_("In the pool: any rep may claim it."))
        link_text = str(_("Open the lead"))
    return Message(title=str(title), lines=tuple(str(x) for x in lines),
                   link=staff_url(lead), link_text=link_text, facts=summary(lead),
                   **people.mentions([owner]))


def payload(message: Message, kind: str) -> dict[str, Any]:
    """The robot's JSON. Mentions: WeCom text messages take ``mentioned_mobile_list``
    (its markdown messages cannot mention by mobile); DingTalk takes ``at.atMobiles`` and
    needs "@<mobile>" in the text; Feishu's custom robots mention by open_id or user_id with
    ``<at user_id="ou_…">name</at>`` in a text message (Feishu Open Platform, 自定义机器人
    使用指南, open.feishu.cn/document/client-docs/bot-v3/add-custom-bot, read 2026-12-04),
    so a name whose staff profile has a Feishu id is mentioned and any other is written
    as plain text. Names are plain (``_plain``: no "<", ">" or "@"), ids are checked
    (``FEISHU_ID``), so user text never forms a tag."""
    ids = message.feishu_ids + ("",) * (len(message.names) - len(message.feishu_ids))
    feishu_mentions = " ".join(
        f'<at user_id="{fid}">{_plain(n, 40)}</at>' if FEISHU_ID.fullmatch(fid)
        else f"@{_plain(n, 40)}" for n, fid in zip(message.names, ids, strict=False))
    body = "\n".join(message.lines)
    if kind == "wecom":
        content = "\n".join(x for x in (message.title, body, f"{message.link_text}: "
                                          f"{message.link}") if x)
        wecom: dict[str, object] = {"content": content}
        if message.mobiles:
            wecom["mentioned_mobile_list"] = list(message.mobiles)
        return {"msgtype": "text", "text": wecom}
    if kind == "dingtalk":
        at_line = " ".join(f"@{m}" for m in message.mobiles)
        text = "\n\n".join(x for x in (
            f"#### {message.title}", body.replace("\n", "\n\n"),
            f"[{message.link_text}]({message.link})", at_line) if x)
        return {"msgtype": "markdown", "markdown": {"title": message.title, "text": text},
                "at": {"atMobiles": list(message.mobiles), "isAtAll": False}}
    if kind == "feishu":
        text = "\n".join(x for x in (message.title, body, feishu_mentions,
                                       f"{message.link_text}: {message.link}") if x)
        return {"msg_type": "text", "content": {"text": text}}
    return {"event": message.event, "lead": message.facts, "title": message.title,
            "text": body, "url": message.link, "mentions": list(message.mobiles)}


def signed(url: str, data: dict[str, Any], kind: str, secret: str,
           now: float) -> tuple[str, dict[str, Any]]:
    """The robot's signature, as each platform documents it (read 2026-12-02):

    - DingTalk 加签 (open.dingtalk.com/document/robots/customize-robot-security-settings):
      HmacSHA256 with the secret as key over ``timestamp + "\n" + secret`` (timestamp in
      milliseconds), Base64, URL-encoded, appended as ``&timestamp=…&sign=…``.
    - Feishu 签名校验 (open.feishu.cn/document/client-docs/bot-v3/add-custom-bot):
      HmacSHA256 with ``timestamp + "\n" + secret`` as the key over an empty message
      (timestamp in seconds), Base64, sent as ``timestamp`` and ``sign`` in the body.

    Both refuse a timestamp more than an hour off. WeCom's group robots have no signature
    (the key in the URL is the secret); a generic receiver gets the body unchanged."""
    if kind == "dingtalk":
        stamp = str(round(now * 1000))
        digest = hmac.new(secret.encode(), f"{stamp}\n{secret}".encode(), hashlib.sha256)
        sign = quote_plus(base64.b64encode(digest.digest()))
        return f"{url}&timestamp={stamp}&sign={sign}", data
    if kind == "feishu":
        stamp = str(int(now))
        digest = hmac.new(f"{stamp}\n{secret}".encode(), b"", hashlib.sha256)
        return url, {"timestamp": stamp, "sign": base64.b64encode(digest.digest()).decode(),
                     **data}
    return url, data


def post_message(message: Message) -> None:
    """POST a message to LEAD_WEBHOOK_URL; raises on a network error, an HTTP error or a
    robot's error code."""
    url = settings.LEAD_WEBHOOK_URL
    if urlsplit(url).scheme not in {"http", "https"}:
        raise ValueError("LEAD_WEBHOOK_URL must be http(s)")
    kind = webhook_kind(url)
    data = payload(message, kind)
    if settings.LEAD_WEBHOOK_SECRET:
        url, data = signed(url, data, kind, settings.LEAD_WEBHOOK_SECRET, time.time())
    body = json.dumps(data, ensure_ascii=False).encode()
    request = urllib.request.Request(  # noqa: S310 (scheme checked above)
        url, data=body, method="POST",
        headers={"Content-Type": "application/json; charset=utf-8"})
    try:
        with urllib.request.urlopen(request, timeout=settings.LEAD_WEBHOOK_TIMEOUT) as response:  # noqa: S310
            reply = response.read(65536)
    except urllib.error.URLError:
        raise  # connecting or sending failed (urllib wraps those): nothing went out
    except TimeoutError as exc:
        # The request went out and no answer came in time: the robot may have posted it.
        raise Uncertain("webhook did not answer") from exc
    # The robots answer HTTP 200 with an error code in the body (errcode / code != 0).
    try:
        data = json.loads(reply or b"{}")
    except ValueError:
        return
    if isinstance(data, dict):
        code = data.get("errcode", data.get("code", data.get("StatusCode", 0)))
        if code not in (0, None, "0"):
            raise RuntimeError(f"webhook answered error code {code}")


def post_webhook(lead: Lead) -> None:
    """The new-lead message to the group robot."""
    post_message(new_lead_message(lead))


def send_email(lead: Lead) -> None:
    sales_email(lead).send()


def sales_email(lead: Lead) -> EmailMultiAlternatives:
    """Bilingual (Chinese first) plain text + HTML e-mail to SALES_NOTIFY_EMAILS. User text
    is escaped by the HTML template; the subject carries no user text (no header tricks)."""
    context: dict[str, Any] = {"lead": lead, "site_url": site_url(), "url": staff_url(lead),
               "duplicates": [f.other.report_number for f in
                              lead.duplicate_flags.select_related("other")[:3]]}
    with translation.override("zh-hans"):
        context["zh"] = labels(lead)
    with translation.override("en"):
        context["en"] = labels(lead)
    subject = (f"新线索 New lead {lead.report_number} · {context['zh']['score']} "
               f"{context['en']['score']} · {context['zh']['recommendation']}")
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string("leads/email/new_lead.txt", context),
        to=list(settings.SALES_NOTIFY_EMAILS),
    )
    message.attach_alternative(render_to_string("leads/email/new_lead.html", context),
                               "text/html")
    return message
