"""The quote services: lines from the frozen plan priced from the price list (never
invented), versions frozen once sent, approval enforced, sending moves the lead, the
customer's answer recorded once."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from selector.content.models import UnitPrice
from selector.leads.models import LeadEvent
from selector.leads.snapshots import lead_recommendation
from selector.quotes import services
from selector.quotes.models import LineKind, Quote, QuoteEvent, QuoteLine, QuoteSettings, Status
from selector.quotes.money import quote_totals
from selector.quotes.services import LineData, QuoteError
from tests.conftest import make_lead

pytestmark = pytest.mark.django_db


def lines_of(quote):
    return [(ln.kind, ln.part_key, ln.quantity, ln.unit_price, ln.discount_percent)
            for ln in QuoteLine.objects.filter(quote=quote).order_by("position")]


def set_threshold(percent):
    rules = QuoteSettings.current()
    rules.approval_threshold = Decimal(percent)
    rules.save()


def discounted(quote, actor, percent):
    return services.quote_edit(quote=quote, actor=actor, total_discount_percent=Decimal(percent))


def sent_quote(lead, actor):
    quote = services.quote_from_lead(lead=lead, actor=actor)
    quote = services.quote_submit(quote=quote, actor=actor)
    return services.quote_send(quote=quote, actor=actor)


def test_lines_come_from_the_frozen_plan_priced_from_the_price_list(owned_lead, sales, price_all):
    quote = services.quote_from_lead(lead=owned_lead, actor=sales)
    plan = lead_recommendation(owned_lead).recommended.plan
    counts: dict[str, int] = {}
    kinds = {}
    for line in plan.bom:  # one quote line per part, its tiers added up
        counts[line.key] = counts.get(line.key, 0) + line.count
        kinds[line.key] = line.kind
    assert lines_of(quote) == [(kinds[k], k, counts[k], price_all[k], Decimal("0.00"))
                               for k in counts]
    assert {kinds[k] for k in counts} >= {LineKind.SWITCH, LineKind.MODULE, LineKind.CABLE}
    expected = quote_totals(((counts[k], price_all[k], Decimal(0)) for k in counts),
                            total_discount_percent=Decimal(0), vat_rate=Decimal("0.13"))
    quote.refresh_from_db()
    assert (quote.version, quote.status, quote.currency, quote.vat_rate) == (
        1, Status.DRAFT, "CNY", Decimal("0.1300"))
    assert quote.net_amount == expected.net == sum(counts[k] * price_all[k] for k in counts)
    assert quote.total_amount == expected.total and quote.complete
    assert quote.valid_until == timezone.localdate() + datetime.timedelta(days=30)
    assert QuoteEvent.objects.filter(quote=quote, kind="created", actor=sales).count() == 1


def test_a_part_without_a_price_starts_unpriced_and_blocks_sending(owned_lead, sales, price_all):
    switch_key = next(iter(price_all))
    UnitPrice.objects.filter(item_key=switch_key).delete()
    quote = services.quote_from_lead(lead=owned_lead, actor=sales)
    line = QuoteLine.objects.get(quote=quote, part_key=switch_key)
    assert line.unit_price is None
    quote.refresh_from_db()
    assert not quote.complete
    with pytest.raises(QuoteError) as refused:
        services.quote_submit(quote=quote, actor=sales)
    assert refused.value.code == "unpriced"
    assert Quote.objects.get(pk=quote.pk).status == Status.DRAFT


def test_no_price_list_no_prices(owned_lead, sales):
    quote = services.quote_from_lead(lead=owned_lead, actor=sales)
    assert all(price is None for *_, price, _ in lines_of(quote))
    quote.refresh_from_db()
    assert quote.total_amount == Decimal("0.00") and not quote.complete


def test_a_second_click_returns_the_same_draft(owned_lead, sales, price_all):
    first = services.quote_from_lead(lead=owned_lead, actor=sales)
    second = services.quote_from_lead(lead=owned_lead, actor=sales)
    assert first.pk == second.pk and Quote.objects.filter(lead=owned_lead).count() == 1


def test_only_those_who_work_on_the_lead_make_quotes(owned_lead, sales2, manager, price_all):
    with pytest.raises(PermissionDenied):
        services.quote_from_lead(lead=owned_lead, actor=sales2)
    assert not Quote.objects.exists()
    assert services.quote_from_lead(lead=owned_lead, actor=manager).created_by == manager


def test_a_sent_quote_is_frozen_and_editing_makes_the_next_version(owned_lead, sales, price_all):
    v1 = sent_quote(owned_lead, sales)
    frozen_lines, frozen_total = lines_of(v1), v1.total_amount
    extra = LineData(kind=LineKind.SERVICE, description="安装调试 Installation and tuning",
                     quantity=1, unit_price=Decimal("12000.00"))
    v1_lines = [services._line_data(ln) for ln in v1.lines.all()]
    v2 = services.quote_edit(quote=v1, actor=sales, lines=[*v1_lines, extra])
    assert (v2.version, v2.status, v2.based_on_id) == (2, Status.DRAFT, v1.pk)
    v1.refresh_from_db()
    assert lines_of(v1) == frozen_lines and v1.total_amount == frozen_total
    assert v1.status == Status.SENT
    assert v2.net_amount == v1.net_amount + Decimal("12000.00")
    # Editing v1 again changes the open v2; no v3.
    again = services.quote_edit(quote=v1, actor=sales, total_discount_percent=Decimal("1"))
    assert again.pk == v2.pk and Quote.objects.filter(lead=owned_lead).count() == 2
    assert list(Quote.objects.filter(lead=owned_lead).values_list("version", flat=True)
                .order_by("version")) == [1, 2]


def test_editing_an_approved_quote_takes_it_back_to_draft(owned_lead, sales, price_all):
    quote = services.quote_submit(quote=services.quote_from_lead(lead=owned_lead, actor=sales),
                                  actor=sales)
    assert quote.status == Status.APPROVED
    quote = discounted(quote, sales, "0")
    assert quote.status == Status.DRAFT and quote.version == 1
    with pytest.raises(QuoteError):
        services.quote_send(quote=quote, actor=sales)


def test_a_discount_above_the_threshold_needs_an_approver(owned_lead, sales, sales2, manager,
                                                          price_all):
    set_threshold("10")
    quote = discounted(services.quote_from_lead(lead=owned_lead, actor=sales), sales, "15")
    assert quote.needs_approval and quote.discount_percent == Decimal("15.00")
    quote = services.quote_submit(quote=quote, actor=sales)
    assert quote.status == Status.PENDING_APPROVAL
    with pytest.raises(QuoteError) as refused:
        services.quote_send(quote=quote, actor=sales)
    assert refused.value.code == "not_approved"
    with pytest.raises(PermissionDenied):  # another rep is no approver
        services.quote_approve(quote=quote, actor=sales2)
    assert Quote.objects.get(pk=quote.pk).status == Status.PENDING_APPROVAL
    quote = services.quote_approve(quote=quote, actor=manager)
    assert (quote.status, quote.approved_by) == (Status.APPROVED, manager)
    quote = services.quote_send(quote=quote, actor=sales)
    assert quote.status == Status.SENT
    assert list(QuoteEvent.objects.filter(quote=quote).values_list("kind", flat=True)) == [
        "created", "edited", "submitted", "approved", "sent"]


def test_a_discount_within_the_threshold_is_approved_at_once(owned_lead, sales, price_all):
    set_threshold("10")
    quote = discounted(services.quote_from_lead(lead=owned_lead, actor=sales), sales, "10")
    quote = services.quote_submit(quote=quote, actor=sales)
    assert quote.status == Status.APPROVED and quote.approved_by is None


def test_a_refused_approval_goes_back_to_draft_with_the_note(owned_lead, sales, manager,
                                                             price_all):
    quote = discounted(services.quote_from_lead(lead=owned_lead, actor=sales), sales, "20")
    quote = services.quote_submit(quote=quote, actor=sales)
    quote = services.quote_approve(quote=quote, actor=manager, approve=False, note="最多 8%")
    assert quote.status == Status.DRAFT
    assert QuoteEvent.objects.get(quote=quote, kind="rejected").data["note"] == "最多 8%"


def test_approvers_approve_their_own_discount_and_nobody_else_does(catalogue, manager, roles):
    lead = make_lead(gpus=64, snapshot=True, owner=manager)
    quote = services.quote_from_lead(lead=lead, actor=manager)
    quote = services.quote_edit(quote=quote, actor=manager, lines=[LineData(
        kind=LineKind.SERVICE, description="Tuning", quantity=1, unit_price=Decimal("100"),
        discount_percent=Decimal("50"))])
    quote = services.quote_submit(quote=quote, actor=manager)
    assert (quote.status, quote.approved_by) == (Status.APPROVED, manager)


def test_changing_an_approved_discount_voids_the_approval(owned_lead, sales, manager, price_all):
    quote = discounted(services.quote_from_lead(lead=owned_lead, actor=sales), sales, "20")
    quote = services.quote_approve(quote=services.quote_submit(quote=quote, actor=sales),
                                   actor=manager)
    quote = discounted(quote, sales, "30")
    assert quote.status == Status.DRAFT and quote.approved_by is None
    assert services.quote_submit(quote=quote, actor=sales).status == Status.PENDING_APPROVAL


def test_sending_moves_the_lead_to_proposal_with_the_total(owned_lead, sales, price_all):
    quote = sent_quote(owned_lead, sales)
    owned_lead.refresh_from_db()
    assert owned_lead.status == "proposal" and owned_lead.deal_value == quote.total_amount
    status = LeadEvent.objects.get(lead=owned_lead, kind=LeadEvent.Kind.STATUS_CHANGED)
    assert status.data == {"from": "qualified", "to": "proposal",
                           "deal_value": str(quote.total_amount), "note": "V1"}
    activity = LeadEvent.objects.get(lead=owned_lead, kind=LeadEvent.Kind.ACTIVITY)
    assert activity.data["type"] == "quote" and activity.data["outcome"] == "sent"
    assert activity.data["note"] == f"V1 · ¥{quote.total_amount}"


def test_a_closed_lead_is_not_quoted(owned_lead, sales, price_all):
    quote = services.quote_submit(quote=services.quote_from_lead(lead=owned_lead, actor=sales),
                                  actor=sales)
    type(owned_lead).objects.filter(pk=owned_lead.pk).update(status="lost")
    with pytest.raises(QuoteError) as refused:
        services.quote_send(quote=quote, actor=sales)
    assert refused.value.code == "lead_closed"
    owned_lead.refresh_from_db()
    assert owned_lead.status == "lost" and owned_lead.deal_value is None


def test_lines_are_validated(owned_lead, sales, price_all):
    quote = services.quote_from_lead(lead=owned_lead, actor=sales)
    before = lines_of(quote)
    for bad in (LineData(kind="gift", description="x", quantity=1, unit_price=None),
                LineData(kind="service", description="", quantity=1, unit_price=None),
                LineData(kind="service", description="x", quantity=0, unit_price=None),
                LineData(kind="service", description="x", quantity=1,
                         unit_price=Decimal("-1")),
                LineData(kind="service", description="x", quantity=1,
                         unit_price=Decimal("1.001")),
                LineData(kind="service", description="x", quantity=1, unit_price=None,
                         discount_percent=Decimal("100.01"))):
        with pytest.raises(ValidationError):
            services.quote_edit(quote=quote, actor=sales, lines=[bad])
        assert lines_of(quote) == before


def test_the_customer_accepts_once(owned_lead, sales, price_all):
    quote = sent_quote(owned_lead, sales)
    for _ in range(2):  # a double submit
        services.quote_accept(quote=quote, name="李娜", title="采购经理", consent="我接受",
                              ip="203.0.113.9")
    quote.refresh_from_db()
    assert quote.status == Status.ACCEPTED and quote.accepted_name == "李娜"
    assert quote.accepted_ip == "203.0.113.9" and quote.accepted_consent == "我接受"
    assert QuoteEvent.objects.filter(quote=quote, kind="accepted").count() == 1
    assert LeadEvent.objects.filter(lead=owned_lead, data__outcome="accepted").count() == 1


def test_an_older_or_expired_version_cannot_be_accepted(owned_lead, sales, price_all):
    v1 = sent_quote(owned_lead, sales)
    v2 = services.quote_edit(quote=v1, actor=sales, total_discount_percent=Decimal("0"))
    v2 = services.quote_send(quote=services.quote_submit(quote=v2, actor=sales), actor=sales)
    with pytest.raises(QuoteError) as refused:
        services.quote_accept(quote=v1, name="李娜", title="", consent="yes")
    assert refused.value.code == "superseded"
    Quote.objects.filter(pk=v2.pk).update(valid_until=timezone.localdate()
                                          - datetime.timedelta(days=1))
    with pytest.raises(QuoteError) as refused:
        services.quote_accept(quote=v2, name="李娜", title="", consent="yes")
    assert refused.value.code == "expired"
    assert services.quotes_expire() == 1
    assert Quote.objects.get(pk=v2.pk).status == Status.EXPIRED
    assert not Quote.objects.filter(status=Status.ACCEPTED).exists()


def test_a_request_for_changes_reaches_the_lead(owned_lead, sales, price_all):
    quote = sent_quote(owned_lead, sales)
    services.quote_request_changes(quote=quote, message="请把交换机数量改为 20 台", name="李娜")
    quote.refresh_from_db()
    assert quote.status == Status.CHANGES_REQUESTED
    note = LeadEvent.objects.get(lead=owned_lead, kind=LeadEvent.Kind.NOTE)
    assert note.data["text"] == "V1 · 李娜: 请把交换机数量改为 20 台"
    with pytest.raises(QuoteError):
        services.quote_accept(quote=quote, name="李娜", title="", consent="yes")


def test_views_are_counted(owned_lead, sales, price_all):
    quote = sent_quote(owned_lead, sales)
    services.quote_viewed(quote=quote, ip="203.0.113.9")
    services.quote_viewed(quote=quote, ip="203.0.113.9")
    quote.refresh_from_db()
    assert quote.view_count == 2 and quote.first_viewed_at <= quote.last_viewed_at
    assert QuoteEvent.objects.filter(quote=quote, kind="viewed").count() == 2


def test_versions_list_their_totals_and_differences(owned_lead, sales, price_all):
    from django.utils import translation

    from selector.quotes.versions import version_rows

    v1 = sent_quote(owned_lead, sales)
    kept = [services._line_data(ln) for ln in v1.lines.all()]
    changed = LineData(kind=kept[0].kind, description=kept[0].description,
                       quantity=kept[0].quantity + 1, unit_price=kept[0].unit_price,
                       part_key=kept[0].part_key)
    extra = LineData(kind=LineKind.SUPPORT, description="三年维保", quantity=3,
                     unit_price=Decimal("5000.00"))
    v2 = services.quote_edit(quote=v1, actor=sales, lines=[changed, *kept[2:], extra])
    with translation.override("en"):
        rows = version_rows(owned_lead)
    assert [row.quote.version for row in rows] == [2, 1]
    assert rows[0].delta == v2.total_amount - v1.total_amount and rows[1].delta is None
    assert rows[0].changes == ["1 line added", "1 line removed", "1 line changed"]


def test_the_expiry_tick_expires_due_quotes_and_keeps_one_tick_waiting(
        owned_lead, sales, price_all, settings):
    """`quotes_expire --schedule` (serve-prod) starts an hourly chain on the task worker:
    one tick waiting at a time, however often it is started; the tick expires what is due
    and puts the next one in line."""
    from django.core.management import call_command
    from django_tasks_db.models import DBTaskResult

    from selector.quotes import expiry as quote_tasks

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    quote = sent_quote(owned_lead, sales)
    Quote.objects.filter(pk=quote.pk).update(
        valid_until=timezone.localdate() - datetime.timedelta(days=1))
    waiting = DBTaskResult.objects.filter(task_path=quote_tasks.expire_tick.module_path,
                                          status="READY")
    call_command("quotes_expire", "--schedule", verbosity=0)
    call_command("quotes_expire", "--schedule", verbosity=0)
    assert waiting.count() == 1
    first = waiting.get()
    DBTaskResult.objects.filter(pk=first.pk).update(status="RUNNING")  # a worker claims it
    before = timezone.now()
    assert quote_tasks.expire_tick.call() == 1
    assert Quote.objects.get(pk=quote.pk).status == Status.EXPIRED
    nxt = waiting.get()  # the tick put the next one in line, an hour on
    assert nxt.pk != first.pk
    assert nxt.run_after >= before + datetime.timedelta(seconds=quote_tasks.EXPIRE_TICK_SECONDS)


def test_without_a_deferring_backend_the_schedule_says_to_use_cron(settings):
    from io import StringIO

    from django.core.management import call_command

    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    out = StringIO()
    call_command("quotes_expire", "--schedule", stdout=out)
    assert "cron" in out.getvalue()
