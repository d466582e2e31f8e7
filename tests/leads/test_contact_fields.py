"""Every field's bad values: empty, too long, wrong format, NUL bytes; markup is stored
verbatim and shown escaped."""

import pytest

from selector.leads.models import Lead

from .conftest import contact_data

URL = "/contact/"
REQUIRED = ["name", "company", "consent"]
OPTIONAL = ["email", "role", "timeline", "message"]
MAX_LENGTH = {"name": 100, "company": 200, "phone": 40, "email": 254, "role": 100,
              "wechat": 50, "message": 2000}
TEXT_FIELDS = ["name", "company", "phone", "email", "role", "wechat", "message"]
SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'


def _refused(visitor, field, value, data=None):
    response = visitor.post(URL, data or contact_data(visitor, **{field: value}))
    # Post/Redirect/Get: back to the form, whose GET shows the error beside the field.
    assert response.status_code == 303, (field, value)
    page = visitor.get(URL)
    assert field in page.context["form"].errors, page.context["form"].errors
    assert Lead.objects.count() == 0
    return page


@pytest.mark.parametrize("field", ["name", "company"])
@pytest.mark.parametrize("value", ["", "   "])
def test_required_fields_refuse_empty_values(visitor, field, value):
    _refused(visitor, field, value)


@pytest.mark.parametrize("field", REQUIRED)
def test_required_fields_refuse_a_missing_key(visitor, field):
    data = contact_data(visitor)
    del data[field]
    _refused(visitor, field, None, data=data)


@pytest.mark.parametrize("field", OPTIONAL)
def test_optional_fields_may_be_left_out(visitor, field):
    data = contact_data(visitor)
    del data[field]
    assert visitor.post(URL, data).status_code == 302
    assert getattr(Lead.objects.get(), field) == ""


def test_a_phone_or_a_wechat_id_is_enough(visitor):
    from .conftest import attach, make_session

    visitor.post(URL, contact_data(visitor, wechat=None))
    assert Lead.objects.get().phone == "+8613812345678"
    attach(visitor, make_session())
    visitor.post(URL, contact_data(visitor, phone=None))
    assert Lead.objects.order_by("pk").last().wechat == "zhangwei_ai"
    assert Lead.objects.count() == 2


@pytest.mark.parametrize("blank", ["", "   "])
def test_neither_phone_nor_wechat_is_refused_with_one_message(visitor, blank):
    page = _refused(visitor, "phone", None, data=contact_data(visitor, phone=blank, wechat=blank))
    errors = page.context["form"].errors
    assert list(errors) == ["phone"]
    assert "WeChat" in str(errors["phone"]) or "微信" in str(errors["phone"])


def test_the_minimal_form_is_name_phone_company_consent(visitor):
    data = {k: v for k, v in contact_data(visitor).items()
            if k in {"name", "company", "phone", "consent", "started", "website"}}
    assert visitor.post(URL, data).status_code == 302
    lead = Lead.objects.get()
    assert (lead.email, lead.role, lead.timeline, lead.wechat) == ("", "", "", "")
    assert lead.score == "warm"  # 256 GPUs, balanced budget, timeline unknown


@pytest.mark.parametrize(("field", "limit"), MAX_LENGTH.items())
def test_every_text_field_refuses_one_character_too_many(visitor, field, limit):
    _refused(visitor, field, "a" * (limit + 1))


@pytest.mark.parametrize(("field", "limit"), [(f, n) for f, n in MAX_LENGTH.items()
                                              if f not in {"phone", "email"}])
def test_every_free_text_field_accepts_its_maximum(visitor, field, limit):
    response = visitor.post(URL, contact_data(visitor, **{field: "字" * limit}))
    assert response.status_code == 302
    assert getattr(Lead.objects.get(), field) == "字" * limit


def test_the_longest_valid_email_is_accepted(visitor):
    email = f"{'a' * 64}@{'b' * 63}.{'c' * 63}.{'d' * 57}.com"
    assert len(email) == 254
    assert visitor.post(URL, contact_data(visitor, email=email)).status_code == 302
    assert Lead.objects.get().email == email


@pytest.mark.parametrize("field", TEXT_FIELDS)
def test_every_text_field_refuses_nul_bytes(visitor, field):
    base = {"phone": "13812345678", "email": "a@example.com"}.get(field, "abc")
    _refused(visitor, field, base[:2] + "\x00" + base[2:])


@pytest.mark.parametrize("field", ["name", "company", "role", "wechat", "email"])
def test_single_line_fields_refuse_line_breaks(visitor, field):
    _refused(visitor, field, "first\nsecond")


def test_the_message_may_have_several_lines(visitor):
    assert visitor.post(URL, contact_data(visitor, message="一\r\n二")).status_code == 302
    assert Lead.objects.get().message == "一\n二"


@pytest.mark.parametrize("value", ["not-an-email", "a@", "@example.com", "a b@example.com",
                                   "a@example", "a@@example.com"])
def test_the_email_must_be_valid(visitor, value):
    _refused(visitor, "email", value)


@pytest.mark.parametrize("value", ["12345", "+86 10 8888", "phone", "4155552671",
                                   "(415) 555-2671", "+1234567", "138 1234 567x",
                                   "12812345678", "+86 138 1234 5678 ext 9"])
def test_the_phone_must_be_a_number_we_can_call(visitor, value):
    _refused(visitor, "phone", value)


@pytest.mark.parametrize(("raw", "stored"), [
    ("0086 139 0000 1111", "+8613900001111"),
    ("+44 20 7946 0958", "+442079460958"),
    ("１３８１２３４５６７８", "+8613812345678"),  # full-width digits (Chinese IME)
    ("(138)1234-5678", "+8613812345678"),
    ("（138）1234－5678", "+8613812345678"),
    ("0755-2345 6789", "+8675523456789"),  # Shenzhen landline with its area code
    ("010 8888 8888", "+861088888888"),
    ("+86 10 8888 8888", "+861088888888"),
    ("+1 415 555 2671", "+14155552671"),
    ("(+86)138-0013-8000", "+8613800138000"),  # as business cards print it
    ("（＋86）138 0013 8000", "+8613800138000"),
])
def test_the_phone_is_stored_normalised(visitor, raw, stored):
    visitor.post(URL, contact_data(visitor, phone=raw))
    assert Lead.objects.get().phone == stored


@pytest.mark.parametrize("value", ["soon", "0-3M", "1"])
def test_the_timeline_must_be_one_of_the_choices(visitor, value):
    _refused(visitor, "timeline", value)


@pytest.mark.parametrize("field", ["name", "company", "role", "wechat", "message"])
@pytest.mark.parametrize("payload", [SCRIPT, IMG])
def test_markup_is_stored_verbatim_and_shown_escaped(visitor, field, payload):
    value = payload if field != "wechat" else payload[:50]
    response = visitor.post(URL, contact_data(visitor, **{field: value}))
    assert response.status_code == 302
    lead = Lead.objects.get()
    assert getattr(lead, field) == value
    html = visitor.get(response["Location"]).content.decode()
    assert "<script>alert" not in html and "<img src=x" not in html
    if field == "name":
        assert "&lt;script&gt;" in html or "&quot;&gt;&lt;img" in html


@pytest.mark.parametrize("payload", [SCRIPT, IMG])
def test_markup_echoed_back_in_a_refused_form_is_escaped(visitor, payload):
    data = contact_data(visitor, name=payload, company=payload, role=payload, message=payload,
                        email="bad")
    html = visitor.post(URL, data, follow=True).content.decode()
    assert "<script>alert" not in html
    assert "<img src=x" not in html


def test_a_huge_post_is_refused_without_an_error_page(visitor):
    response = visitor.post(URL, contact_data(visitor, message="x" * 200_000, name="y" * 10_000),
                            follow=True)
    assert response.status_code == 200
    assert {"message", "name"} <= set(response.context["form"].errors)
    assert Lead.objects.count() == 0
