"""The sales workspace (/staff/), one module per page. Thin function views: every one is
wrapped in ``staff_required`` and reaches a lead only through ``get_lead_for_user``; writes
go through selector.staff.services."""
