"""The workspace's forms draw their widgets with Django's Jinja2 widget templates
(selector.staff.forms.WIDGET_RENDERER). The markup must be what the template language
drew before: the same elements, attributes, option labels (translated in the active
language), values and error messages, user text escaped. Only the spelling of entities
and the white space between tags may differ (&#34; for &quot;), which a browser reads
as the same document."""

from __future__ import annotations

import inspect
from html.parser import HTMLParser

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from selector.staff import forms as staff_forms
from tests.conftest import make_lead

from .conftest import login

HOSTILE = "<script>alert('x')</script> & \"quoted\" 王伟"


class _Dom(HTMLParser):
    """Tags with their attributes (entities decoded), and text with white space folded:
    what a browser builds from the markup."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items: list[tuple] = []

    def handle_starttag(self, tag, attrs):
        self.items.append(("<", tag, tuple(sorted(attrs))))

    def handle_endtag(self, tag):
        self.items.append((">", tag))

    def handle_data(self, data):
        text = " ".join(data.split())
        if text:
            self.items.append(("text", text))


def dom(html: str) -> list[tuple]:
    parser = _Dom()
    parser.feed(str(html))
    parser.close()
    return parser.items


def workspace_forms():
    return sorted((cls for _name, cls in inspect.getmembers(staff_forms, inspect.isclass)
                   if issubclass(cls, forms.BaseForm) and cls.__module__ == staff_forms.__name__
                   and cls is not staff_forms.StaffForm), key=lambda cls: cls.__name__)


def test_every_workspace_form_uses_the_jinja2_widgets():
    found = workspace_forms()
    assert len(found) >= 14
    for cls in found:
        assert cls.default_renderer is staff_forms.WIDGET_RENDERER, cls.__name__


def _instances(user, lead, data, renderer=None):
    """Each workspace form, unbound and bound to ``data`` (hostile text in every field),
    drawn by ``renderer`` (None: the form's own)."""
    request = RequestFactory().post("/staff/login/", data)
    request.user = user
    request.session = {}
    built = {
        "LoginForm": lambda **kw: staff_forms.LoginForm(request, **kw),
        "LeadFilterForm": lambda **kw: staff_forms.LeadFilterForm(user=user, **kw),
        "AssignForm": lambda **kw: staff_forms.AssignForm(user=user, lead=lead, **kw),
        "MfaResetForm": lambda **kw: staff_forms.MfaResetForm(actor=user, **kw),
        "BulkForm": lambda **kw: staff_forms.BulkForm(owners=[(str(user.pk), HOSTILE)], **kw),
    }
    for cls in workspace_forms():
        make = built.get(cls.__name__, cls)
        yield make(renderer=renderer), make(data=data, renderer=renderer)


def _render_everything(form) -> str:
    """Every way a template shows a form: each widget, its label and errors, and the
    whole form with its non-field errors."""
    parts = [str(form), str(form.non_field_errors())]
    for field in form:
        parts += [str(field), field.label_tag(), str(field.errors), str(field.help_text)]
    return "\n".join(parts)


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_jinja2_widgets_are_the_template_languages_markup(manager, language):
    lead = make_lead(name=HOSTILE, company=HOSTILE)
    data = {name: HOSTILE for name in (
        "q", "status", "score", "owner", "source", "campaign", "created_from", "follow_up",
        "sort", "lost_reason", "deal_value", "note", "kind", "outcome", "due", "other",
        "keep", "text", "reason", "code", "username", "password", "period", "mobile",
        "language", "user", "leads")}
    data.update({"status": "lost", "kind": "call", "note": HOSTILE})
    with translation.override(language):
        jinja = list(_instances(manager, lead, data))
        django = list(_instances(manager, lead, data, renderer=DjangoTemplates()))
        assert len(jinja) == len(django) == len(workspace_forms())
        invalid = 0
        for pair, other in zip(jinja, django, strict=True):
            for form, before in zip(pair, other, strict=True):
                assert form.renderer is staff_forms.WIDGET_RENDERER
                name = type(form).__name__
                if form.is_bound:
                    assert form.is_valid() == before.is_valid(), name
                    invalid += not form.is_valid()
                drawn, expected = _render_everything(form), _render_everything(before)
                assert dom(drawn) == dom(expected), name
                assert "<script>" not in drawn, name
                if form.is_bound and "&lt;script&gt;" in expected:
                    # The same text, escaped; the entities spelled the Jinja2 way.
                    assert "&lt;script&gt;" in drawn and drawn != expected, name
        assert invalid >= 12  # error messages are compared too


def _texts_after(items, tag) -> set[str]:
    return {text[1] for start, text in zip(items, items[1:], strict=False)
            if start[:2] == ("<", tag) and text[0] == "text"}


@pytest.mark.parametrize(("prefix", "labels", "options"), [
    ("", ["丢单原因", "下一步行动", "结果"], ["新线索", "已联系", "电话", "价格", "无人接听"]),
    ("/en", ["Why was it lost?", "Next action", "Outcome"],
     ["New", "Contacted", "Call", "Price", "No answer"]),
])
def test_the_lead_pages_widgets_speak_the_pages_language(client, manager, prefix, labels,
                                                         options):
    lead = make_lead(owner=manager)
    items = dom(login(client, manager).get(
        prefix + reverse("staff:lead_detail", args=[lead.public_id])).content.decode())
    assert set(labels) <= _texts_after(items, "label")
    assert set(options) <= _texts_after(items, "option")


def test_a_rejected_note_comes_back_escaped_in_the_textarea(client, manager):
    lead = make_lead(owner=manager)
    response = login(client, manager).post(
        reverse("staff:lead_status", args=[lead.public_id]),
        {"status": "lost", "lost_reason": "other", "note": "", "deal_value": HOSTILE})
    body = response.content.decode()
    assert response.status_code == 400
    assert "<script>alert" not in body
    # The deal value's error, and the typed value kept in its input, escaped.
    field = [item for item in dom(body) if item[0] == "<" and ("name", "deal_value") in item[2]]
    assert len(field) == 1 and ("value", HOSTILE) in field[0][2]
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &#34;quoted&#34;" in body
