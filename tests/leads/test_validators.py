import pytest
from django.core.exceptions import ValidationError

from selector.leads.validators import no_control_characters, normalize_phone, single_line


@pytest.mark.parametrize(("raw", "expected"), [
    ("13812345678", "+8613812345678"),
    ("138 1234 5678", "+8613812345678"),
    ("138-1234-5678", "+8613812345678"),
    ("+86 138 1234 5678", "+8613812345678"),
    ("+86-13812345678", "+8613812345678"),
    ("0086 13812345678", "+8613812345678"),
    ("8613812345678", "+8613812345678"),
    ("19912345678", "+8619912345678"),
    ("+14155552671", "+14155552671"),
    ("+44 20 7946 0958", "+442079460958"),
    ("+85291234567", "+85291234567"),
    ("１３８１２３４５６７８", "+8613812345678"),
    ("(138)1234-5678", "+8613812345678"),
    ("0755-2345 6789", "+8675523456789"),
    ("+86 10 1234 5678", "+861012345678"),
    ("0086 755 12345678", "+8675512345678"),
    ("+１４１５５５５２６７１", "+14155552671"),
])
def test_it_normalises_valid_numbers(raw, expected):
    assert normalize_phone(raw) == expected


@pytest.mark.parametrize("raw", [
    "", "   ", "12812345678", "1381234567", "138123456789", "23812345678",
    "+8612812345678", "4155552671", "+123456789012345",
    "+1234567", "+1234567890123456", "+0123456789", "++8613812345678", "138 1234 567x",
    "(415) 555-2671", "+86 138\x001234 5678", "1" * 41,
])
def test_it_refuses_bad_numbers(raw):
    with pytest.raises(ValidationError):
        normalize_phone(raw)


@pytest.mark.parametrize("value", ["a\x00b", "a\x07", "\x1b[31m", "x\x7f"])
def test_it_refuses_control_characters(value):
    with pytest.raises(ValidationError):
        no_control_characters(value)


@pytest.mark.parametrize("value", ["a\nb", "a\rb", "a\u2028b"])
def test_single_line_refuses_line_breaks(value):
    with pytest.raises(ValidationError):
        single_line(value)


def test_plain_text_passes():
    no_control_characters("张伟\t<script>alert(1)</script>\n")
    single_line("张伟 <b>")
