"""Links to a lead's PDF report. Placeholder until the reports app implements signed links."""


def customer_report_url(lead) -> str:
    """A signed, expiring, unguessable URL for the customer's download ("" until built)."""
    return ""
