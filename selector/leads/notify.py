"""What sales receive about a new lead: the e-mail and the group-robot webhook payload.

Webhook privacy decision: a WeCom / DingTalk / Feishu group is read by more people than the
sales mailbox and its messages are stored by a third party, so the webhook carries no
personal data: only the report number, score, company name, recommendation, cluster size,
timeline, language and source. Name, phone, e-mail, WeChat ID and the message go only in
the e-mail to SALES_NOTIFY_EMAILS (and the staff workspace).
"""

from __future__ import annotations

import json
import re
import urllib.request
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import translation

from selector.leads.models import Lead

WEBHOOK_HOSTS = {
    "qyapi.weixin.qq.com": "wecom",
    "oapi.dingtalk.com": "dingtalk",
    "open.feishu.cn": "feishu",
    "open.larksuite.com": "feishu",
}
# Characters that let user text turn into Markdown links, emphasis or mentions.
_MARKDOWN = re.compile(r"[\\`*_{}\[\]()<>#+!|~@>\r\n]")


def webhook_kind(url: str) -> str:
    """wecom / dingtalk / feishu from settings.LEAD_WEBHOOK_KIND, else from the URL host;
    "generic" (a plain JSON summary) otherwise."""
    if settings.LEAD_WEBHOOK_KIND:
        return settings.LEAD_WEBHOOK_KIND.strip().lower()
    host = (urlsplit(url).hostname or "").lower()
    return WEBHOOK_HOSTS.get(host, "generic")


def _plain(value: str, limit: int = 80) -> str:
    return _MARKDOWN.sub(" ", value or "")[:limit].strip()


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
    }


def webhook_payload(lead: Lead, kind: str) -> dict:
    facts = summary(lead)
    with translation.override("zh-hans"):
        lines = [
            f"新线索 New lead {facts['report_number']} ({lead.get_score_display()})",
            f"公司 Company: {_plain(facts['company'])}",
            f"推荐 Recommendation: {facts['recommendation']} · GPU: {facts['gpus']}",
            f"时间 Timeline: {lead.get_timeline_display()} · {facts['language']}",
        ]
    if facts["utm_source"]:
        lines.append(f"来源 Source: {_plain(facts['utm_source'])}")
    text = "\n".join(lines)
    title = f"新线索 New lead {facts['report_number']}"
    if kind == "wecom":
        return {"msgtype": "markdown", "markdown": {"content": text}}
    if kind == "dingtalk":
        return {"msgtype": "markdown", "markdown": {"title": title, "text": text}}
    if kind == "feishu":
        return {"msg_type": "text", "content": {"text": text}}
    return {"event": "lead.created", "lead": facts, "text": text}


def post_webhook(lead: Lead) -> None:
    """POST the summary; raises on a network error, an HTTP error or a robot's error code."""
    url = settings.LEAD_WEBHOOK_URL
    if urlsplit(url).scheme not in {"http", "https"}:
        raise ValueError("LEAD_WEBHOOK_URL must be http(s)")
    kind = webhook_kind(url)
    body = json.dumps(webhook_payload(lead, kind), ensure_ascii=False).encode()
    request = urllib.request.Request(  # noqa: S310 (scheme checked above)
        url, data=body, method="POST",
        headers={"Content-Type": "application/json; charset=utf-8"})
    with urllib.request.urlopen(request, timeout=settings.LEAD_WEBHOOK_TIMEOUT) as response:  # noqa: S310
        reply = response.read(65536)
    # The robots answer HTTP 200 with an error code in the body (errcode / code != 0).
    try:
        data = json.loads(reply or b"{}")
    except ValueError:
        return
    if isinstance(data, dict):
        code = data.get("errcode", data.get("code", data.get("StatusCode", 0)))
        if code not in (0, None, "0"):
            raise RuntimeError(f"webhook answered error code {code}")


def send_email(lead: Lead) -> None:
    """Bilingual (Chinese first) plain text + HTML e-mail to SALES_NOTIFY_EMAILS. User text
    is escaped by the HTML template; the subject carries no user text (no header tricks)."""
    context = {"lead": lead, "site_url": settings.SITE_URL}
    with translation.override("zh-hans"):
        context["score_zh"] = lead.get_score_display()
        context["timeline_zh"] = lead.get_timeline_display()
    with translation.override("en"):
        context["score_en"] = lead.get_score_display()
        context["timeline_en"] = lead.get_timeline_display()
    subject = (f"新线索 New lead {lead.report_number} · {context['score_zh']} "
               f"{context['score_en']} · {lead.recommendation}")
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string("leads/email/new_lead.txt", context),
        to=list(settings.SALES_NOTIFY_EMAILS),
    )
    message.attach_alternative(render_to_string("leads/email/new_lead.html", context),
                               "text/html")
    message.send()
