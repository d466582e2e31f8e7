"""Managers see the deliveries about leads that are waiting or failed (/staff/deliveries/,
selector.leads.deliveries); sales reps do not."""

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from selector.leads import deliveries
from selector.leads.models import Delivery
from tests.conftest import make_lead
from tests.staff.conftest import login


def test_managers_see_what_is_waiting_or_failed(client, manager, sales):
    late, failed, sent = make_lead(), make_lead(), make_lead()
    deliveries.expect(late, Delivery.Kind.REPORT_EMAIL)
    Delivery.objects.filter(lead=late).update(created_at=timezone.now() - timedelta(hours=1))
    row = deliveries.expect(failed, Delivery.Kind.SALES_ROBOT)
    deliveries.give_up(row, "uncertain")
    Delivery.objects.filter(pk=deliveries.expect(sent, Delivery.Kind.SALES_EMAIL).pk).update(
        status="sent")
    url = reverse("staff:deliveries")
    page = login(client, manager).get(url).content.decode()
    assert late.report_number in page and failed.report_number in page
    assert sent.report_number not in page
    assert "超时" in page  # waiting for more than 15 minutes
    assert "接收方服务器没有应答：可能已送达" in page
    only_failed = client.get(url, {"status": "failed"}).content.decode()
    assert failed.report_number in only_failed and late.report_number not in only_failed
    only_waiting = client.get(url, {"status": "waiting"}).content.decode()
    assert late.report_number in only_waiting and failed.report_number not in only_waiting
    assert login(client, sales).get(url).status_code == 403
