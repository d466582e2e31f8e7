"""``makemessages`` that also extracts ``N_("...")``: the pure domain (selector.domain) has
no Django import, so it marks the remarks of its citations with its own no-op ``N_``
(gettext_noop, selector.domain.tuning.model) and the pages translate them with gettext.
Every run of ``manage.py makemessages`` (``make messages``, tests/test_i18n.py) goes
through this command, so the keyword is given in one place."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
