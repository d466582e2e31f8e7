"""The wizard's step forms. Which answers each step asks, their form fields (shared with
the API, so both refuse the same input with the same translated messages), help texts and
inputs come from the answer-field registry, ``selector.core.answers``; a step form adds
only what is the step's own (rule R3 on the workload step)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from selector.core.answers import BY_NAME, AnswerFieldsMetaclass, of_step

# Longest raw value a field looks at; anything longer is refused before parsing
# (a 10 KB "number" is an error, not work for int()).
MAX_RAW_LENGTH = 20
REQUIRED = _("This field is required.")

__all__ = ["MAX_RAW_LENGTH", "REQUIRED", "StepForm", "step_form_fields"]


def step_form_fields(step: str) -> tuple[str, ...]:
    return tuple(field.name for field in of_step(step))


class StepForm(forms.Form, metaclass=AnswerFieldsMetaclass):
    """Base for step forms: inputs describe themselves by their help and error slots
    (aria-describedby), too-long or NUL-containing values are refused up front. A step
    form names its step's answers in ``answer_fields``."""

    answers_in_wizard = True
    answer_fields: tuple[str, ...] = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            entry = BY_NAME[name]
            entry.style(field)
            auto_id = self.auto_id % name
            field.widget.attrs["aria-describedby"] = f"{auto_id}_why {auto_id}_error"
            default = getattr(field, "default", None)  # an optional choice's default
            if default is not None and not self.is_bound and not self.initial.get(name):
                self.initial[name] = default

    def full_clean(self):
        super().full_clean()
        if not self.is_bound:
            return
        for name in self.fields:
            raw = self.data.get(self.add_prefix(name), "")
            if name in self.errors:
                continue
            if len(str(raw)) > MAX_RAW_LENGTH or "\x00" in str(raw):
                self.add_error(name, forms.ValidationError(
                    self.fields[name].error_messages.get("invalid")
                    or self.fields[name].error_messages["invalid_choice"], code="invalid"))
            elif BY_NAME[name].must_answer and str(raw).strip() == "":
                self.add_error(name, forms.ValidationError(REQUIRED, code="required"))

    def answers(self) -> dict:
        """The cleaned values as stored on WizardSession.answers (JSON-safe)."""
        return {name: self.cleaned_data[name] for name in self.fields}


class ScaleForm(StepForm):
    answer_fields = step_form_fields("scale")


class WorkloadForm(StepForm):
    answer_fields = step_form_fields("workload")

    def __init__(self, *args, ask_throughput: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        if not ask_throughput:  # rule R3: only 2 to 7 servers are asked
            del self.fields["throughput_limited"]


class BudgetForm(StepForm):
    answer_fields = step_form_fields("budget")


class DeterminismForm(StepForm):
    answer_fields = step_form_fields("determinism")


class NicSpeedForm(StepForm):
    """The hardware: NIC speed (must be answered, "not sure" allowed), NICs per server,
    the longest link, a switch vendor, the platform and the leaf oversubscription
    (optional: empty keeps the defaults)."""

    answer_fields = step_form_fields("nic-speed")
