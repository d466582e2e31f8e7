"""Input rules for the contact step: phone normalisation and text hygiene."""

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Mainland mobile: 1[3-9] + 9 digits, optionally after +86 / 0086 / 86 with spaces or dashes.
_MAINLAND = re.compile(r"^(?:(?:\+|00)?86)?(1[3-9][0-9]{9})$")
# International: strict E.164, "+" then 8 to 15 digits, first digit not 0.
_E164 = re.compile(r"^\+[1-9][0-9]{7,14}$")
_SEPARATORS = re.compile(r"[\s\-]")
# C0/C1 control characters (NUL included) other than tab, CR and LF.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_LINE_BREAK = re.compile(r"[\r\n\u2028\u2029]")


def normalize_phone(value: str) -> str:
    """Return the phone number in E.164 ("+8613812345678") or raise ValidationError.

    Spaces and dashes are ignored. A mainland mobile may be written with or without
    +86/0086; anything else must already be E.164 (no national trunk prefixes).
    """
    compact = _SEPARATORS.sub("", value or "")
    if match := _MAINLAND.match(compact):
        return "+86" + match.group(1)
    if compact.startswith("+86") or compact.startswith("0086"):
        # A Chinese number that is not a mobile (landlines are not accepted here).
        raise ValidationError(_("Enter a mainland mobile number such as 138 1234 5678."),
                              code="invalid_phone")
    if _E164.match(compact):
        return compact
    raise ValidationError(
        _("Enter a mainland mobile number (138 1234 5678) or an international number "
          "starting with + and the country code."),
        code="invalid_phone")


def no_control_characters(value: str) -> None:
    if _CONTROL.search(value or ""):
        raise ValidationError(_("Remove the invisible control characters from this field."),
                              code="control_characters")


def single_line(value: str) -> None:
    if _LINE_BREAK.search(value or ""):
        raise ValidationError(_("This field must fit on one line."), code="line_break")
