"""Input rules for the contact step: phone normalisation and text hygiene."""

import re

import phonenumbers
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from phonenumbers import CountryCodeSource, PhoneNumberType

# Numbers without a country code are read as Chinese numbers (mobiles and landlines with
# their area code, e.g. 0755-2345 6789).
DEFAULT_REGION = "CN"
MAX_PHONE_INPUT = 40
# C0/C1 control characters (NUL included) other than tab, CR and LF.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_LINE_BREAK = re.compile(r"[\r\n\u2028\u2029]")
# What people type around the digits: spaces, dashes, dots, brackets, slashes (half- and
# full-width). Anything else (letters, "x" extensions, a second "+") is refused.
_PHONE_CHARS = re.compile(r"^[+＋]?[0-9０-９\s\-‐–—－.．()（）/]+$")
# The country code in brackets, as business cards print it: "(+86)138-0013-8000".
_BRACKETED_CODE = re.compile(r"^[(（]\s*([+＋]\s*[0-9０-９]{1,3})\s*[)）]")


def normalize_phone(value: str) -> str:
    """The number in E.164 ("+8613812345678"), or ValidationError.

    Parsed by Google's libphonenumber rules (the ``phonenumbers`` package) with China as
    the default region: mobiles (138 1234 5678, (138)1234-5678, full-width digits, the
    business card's (+86)138-0013-8000),
    landlines with their area code (0755-2345 6789, 010 1234 5678) and numbers of any
    country after + and the country code. The number must be a valid number of its
    country, not only the right length.
    """
    raw = _BRACKETED_CODE.sub(r"\1 ", (value or "").strip())
    if not raw or len(raw) > MAX_PHONE_INPUT or not _PHONE_CHARS.match(raw):
        raise ValidationError(_INVALID_PHONE, code="invalid_phone")
    if raw.startswith("00"):
        raw = "+" + raw[2:]  # the international call prefix written out
    try:
        number = phonenumbers.parse(raw, DEFAULT_REGION, keep_raw_input=True)
    except phonenumbers.NumberParseException:
        raise ValidationError(_INVALID_PHONE, code="invalid_phone") from None
    if not phonenumbers.is_valid_number(number):
        raise ValidationError(_INVALID_PHONE, code="invalid_phone")
    if (number.country_code_source == CountryCodeSource.FROM_DEFAULT_COUNTRY
            and not phonenumbers.normalize_digits_only(raw).startswith("0")
            and phonenumbers.number_type(number) != PhoneNumberType.MOBILE):
        # A Chinese landline is written with its trunk 0 (0755 ..., 010 ...); without it,
        # "(415) 555-2671" is more likely a foreign number missing its + and country code.
        raise ValidationError(_INVALID_PHONE, code="invalid_phone")
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def phone_text(e164: str) -> str:
    """How a stored number reads: "+8613800138000" -> "+86 138 0013 8000" (libphonenumber's
    international format: the lead page, the sales e-mail, the export). Anything that does
    not parse is shown as it is."""
    try:
        number = phonenumbers.parse(e164, None)
    except phonenumbers.NumberParseException:
        return e164
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)


_INVALID_PHONE = _("Enter a phone number we can call: a mobile such as 138 1234 5678, a "
                   "landline with its area code such as 0755-2345 6789, or + and the country "
                   "code for a number outside mainland China.")


def no_control_characters(value: str) -> None:
    if _CONTROL.search(value or ""):
        raise ValidationError(_("Remove the invisible control characters from this field."),
                              code="control_characters")


def single_line(value: str) -> None:
    if _LINE_BREAK.search(value or ""):
        raise ValidationError(_("This field must fit on one line."), code="line_break")
