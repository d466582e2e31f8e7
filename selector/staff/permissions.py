"""The role rules of the sales workspace, written once. Views, templates and tests ask
these functions; nothing else looks at groups or permission codenames.

Roles are Django groups created by migration 0002_roles:

- **sales**: see every lead; take an unassigned lead; work on their own leads (status,
  activities, next action, notes); add notes to unassigned ones.
- **managers**: everything sales can, on every lead, plus assign to anyone, bulk actions,
  export and delete on the customer's request.

Anyone else (even ``is_staff`` admin editors without a role) is an outsider: the workspace
does not exist for them. Superusers count as managers.
"""

from __future__ import annotations

from selector.leads import people

SALES_GROUP = "sales"
MANAGERS_GROUP = "managers"

VIEW = "leads.view_lead"
CHANGE = "leads.change_lead"
ASSIGN = "leads.assign_lead"  # custom: assign any lead to anyone
EXPORT = "leads.export_lead"  # custom: CSV / XLSX export
DELETE = "leads.delete_lead"
APPROVE_QUOTE = "quotes.approve_quote"  # a quote's discount above the threshold

SALES_PERMISSIONS = ("view_lead", "change_lead")
MANAGER_PERMISSIONS = ("view_lead", "change_lead", "assign_lead", "export_lead", "delete_lead")
CUSTOM_PERMISSIONS = {"assign_lead": "Can assign leads to anyone",
                      "export_lead": "Can export leads"}


def is_staff_member(user) -> bool:
    return bool(user.is_authenticated and user.is_active and user.has_perm(VIEW))


def is_manager(user) -> bool:
    return is_staff_member(user) and user.has_perm(ASSIGN)


def can_view(user, lead) -> bool:
    return is_staff_member(user)


def can_work_on(user, lead) -> bool:
    """Change status, log activities, set the next action: the lead must be yours (or you
    a manager). An unassigned lead is taken first."""
    if not (is_staff_member(user) and user.has_perm(CHANGE)):
        return False
    return is_manager(user) or (lead.owner_id is not None and lead.owner_id == user.pk)


def can_note(user, lead) -> bool:
    """Notes: on your own leads and on unassigned ones (managers: any)."""
    if not (is_staff_member(user) and user.has_perm(CHANGE)):
        return False
    return is_manager(user) or lead.owner_id in (None, user.pk)


def can_take(user, lead) -> bool:
    return (is_staff_member(user) and user.has_perm(CHANGE) and lead.owner_id is None
            and lead.merged_into_id is None)


# How long a revealed contact stays visible to a rep who does not own the lead.
CONTACT_REVEAL_MINUTES = 30


def sees_contact(user, lead) -> bool:
    """Phone, e-mail and WeChat ID without revealing them: the lead's owner (a rep who took
    it) and managers. Other reps see the company and the plan, and may reveal the contact
    (audited, for CONTACT_REVEAL_MINUTES: selector.staff.access.contact_visible); PIPL's
    "minimum necessary" (Art. 6)."""
    if not is_staff_member(user):
        return False
    return is_manager(user) or (lead.owner_id is not None and lead.owner_id == user.pk)


def can_reveal_contact(user, lead) -> bool:
    return is_staff_member(user) and lead.merged_into_id is None


def can_merge(user) -> bool:
    return is_manager(user) and user.has_perm(CHANGE)


def can_assign(user, lead, owner=None) -> bool:
    """Set ``lead.owner`` to ``owner`` (None: release). Sales may take an unassigned lead or
    release their own; managers may assign anyone."""
    if is_manager(user):
        return True
    if not (is_staff_member(user) and user.has_perm(CHANGE)):
        return False
    if owner is not None and owner.pk == user.pk:
        return lead.owner_id in (None, user.pk)  # take it (or keep it)
    return owner is None and lead.owner_id == user.pk  # release your own


def can_delete(user, lead=None) -> bool:
    return is_staff_member(user) and user.has_perm(DELETE)


def can_export(user) -> bool:
    return is_staff_member(user) and user.has_perm(EXPORT)


def can_bulk_edit(user) -> bool:
    """Bulk changes on any lead, and hand-overs: managers."""
    return is_manager(user) and user.has_perm(CHANGE)


def can_bulk_change(user) -> bool:
    """The lead list's bulk change: managers on any lead, reps on the leads they may work
    on (their own: access.workable_scope), each lead still checked by the services."""
    return is_staff_member(user) and user.has_perm(CHANGE)


def can_approve_quotes(user) -> bool:
    """Approve a discount above the company's threshold: managers, and the approvers the
    company names in the admin (the "Can approve quote discounts" permission)."""
    return is_staff_member(user) and (is_manager(user) or user.has_perm(APPROVE_QUOTE))


def can_see_quotes(user, lead) -> bool:
    """A lead's quotes (what it was offered, at what price): its owner, managers and the
    approvers only; other reps see the lead but not its quotes."""
    if not is_staff_member(user):
        return False
    mine = lead.owner_id is not None and lead.owner_id == user.pk
    return mine or is_manager(user) or can_approve_quotes(user)


def can_edit_quotes(user, lead) -> bool:
    """Make, change and send a lead's quotes: whoever may work on the lead."""
    return can_work_on(user, lead)


# Per-lead actions understood by access.get_lead_for_user.
ACTIONS = {
    "view": can_view,
    "work": can_work_on,
    "quotes": can_see_quotes,
    "note": can_note,
    "assign": can_assign,
    "delete": can_delete,
}


# How the team names a colleague (selector.leads.people, where the robots need it too).
display_name = people.display_name
