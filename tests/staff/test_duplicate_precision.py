"""Issue 24, finding 4: a duplicate flag is the same person. On a labelled sample that
seed_demo makes (devtools.demo.labelled_duplicates: a long tail of companies with many
colleagues, people submitting again with the phone in another format, the e-mail in
capitals, a new phone, only the WeChat ID), at least 95 % of the flags the real matcher
raises name the same person; before issue 24 a company alone raised one (57 % of open
leads carried the badge). Colleagues are links on the lead page, not flags."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from devtools import demo
from selector.leads.models import DuplicateFlag, Lead
from tests.conftest import make_lead

from .conftest import login


@pytest.mark.parametrize("seed", [7, 24])
def test_flags_name_the_same_person(db, seed):
    figures = demo.duplicate_precision(demo.labelled_duplicates(people=300, seed=seed))
    assert figures["flags"] >= 40, figures  # the sample has real duplicates to find
    assert figures["precision"] >= 0.95, figures
    assert figures["recall"] >= 0.9, figures


def test_a_colleague_is_a_link_on_the_lead_page_not_a_badge(client, sales, content):
    from selector.leads.duplicates import flag

    first = make_lead(name="李娜", company="深圳星河智算科技有限公司",
                      company_key="深圳星河智算科技", phone="+8613900000001",
                      email="li.na@xinghe.example")
    colleague = make_lead(name="王磊", company="深圳星河智算科技（南山）有限公司",
                          company_key="深圳星河智算科技", phone="+8613900000002",
                          email="wang.lei@xinghe.example")
    flag(colleague)
    assert not DuplicateFlag.objects.exists()
    assert not Lead.objects.filter(possible_duplicate=True).exists()
    body = login(client, sales).get(
        reverse("staff:lead_detail", args=[colleague.public_id])).content.decode()
    assert 'data-testid="colleagues"' in body
    assert reverse("staff:lead_detail", args=[first.public_id]) in body and "李娜" in body
    listed = client.get(reverse("staff:lead_list")).content.decode()
    assert "badge dup" not in listed


def test_seed_demo_prints_the_precision(db, capsys):
    call_command("seed_demo", leads=0, duplicate_sample=60, seed=3)
    out = capsys.readouterr().out
    assert "Duplicate sample:" in out and "precision" in out


def test_the_migration_drops_company_only_flags_and_keeps_the_same_name(db):
    import importlib

    from django.apps import apps

    migration = importlib.import_module(
        "selector.leads.migrations.0020_reveals_first_response")
    a = make_lead(name="李娜", possible_duplicate=True)
    b = make_lead(name="王磊", possible_duplicate=True)  # a colleague
    c = make_lead(name="李 娜", possible_duplicate=True)  # the same name
    d = make_lead(name="赵强", possible_duplicate=True)
    e = make_lead(name="钱七", phone="+8613911112222", possible_duplicate=True)
    DuplicateFlag.objects.create(lead=b, other=a, reasons=["company"], similarity=1.0)
    DuplicateFlag.objects.create(lead=c, other=a, reasons=["company"], similarity=1.0)
    DuplicateFlag.objects.create(lead=e, other=d, reasons=["phone", "company"])
    migration.company_only_flags(apps, None)
    assert sorted(DuplicateFlag.objects.values_list("lead", "reasons")) == sorted(
        [(c.pk, ["name"]), (e.pk, ["phone", "company"])])
    assert set(Lead.objects.filter(possible_duplicate=True).values_list("pk", flat=True)) \
        == {a.pk, c.pk, d.pk, e.pk}
