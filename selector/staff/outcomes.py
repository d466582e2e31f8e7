"""Activity types and the outcomes each can have (the timeline shows both). A leaf module:
the forms, the services and the lead page read it, and the services import the tasks,
which read the lead list's filters (forms), so it cannot live in the services."""

from selector.leads.models import NextActionKind

ACTIVITY_OUTCOMES = {
    NextActionKind.CALL: ("reached", "no_answer", "busy", "wrong_number", "callback"),
    NextActionKind.WECHAT: ("replied", "sent", "added", "not_added"),
    NextActionKind.EMAIL: ("replied", "sent", "bounced"),
    NextActionKind.VISIT: ("held", "postponed", "cancelled"),
    NextActionKind.QUOTE: ("sent", "accepted", "rejected", "revised"),
}
