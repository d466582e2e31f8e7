"""The result page's context: the planner's view-model (the one presenter the PDF, the staff
page and the API also use), plus what only the wizard needs (which step changes an answer,
the FAQ and comparison rows)."""

from __future__ import annotations

from django.urls import reverse

from selector.content.queries import block, comparison_rows, faq_entries
from selector.content.snapshot import current
from selector.core.sharing import share_token
from selector.domain import Recommendation
from selector.planner import downloads
from selector.planner.presenter import present
from selector.wizard.steps import STEP_OF_FIELD, STEPS


def result_context(rec: Recommendation) -> dict:
    # The result page carries no Organization node (the page's company comes from the site
    # context processor), so the view-model needs no company.
    vm = present(rec, id_prefix="diagram")
    rows = comparison_rows()
    return {
        "vm": vm,
        "rec": rec,
        "decision": rec.decision,
        "recommendation_label": vm.recommendation_label,
        "recommendation_short": vm.recommendation_short,
        "runner_up_label": vm.runner_up_label,
        "rule_title": vm.rule_title,
        "seed_quote": vm.seed_quote,
        "seed_quote_translation": vm.seed_quote_translation,
        "article": block("article"),  # where the quote comes from
        "reasons": vm.reasons,
        "answer_rows": [(row, STEP_OF_FIELD.get(row.field, STEPS[0]).identifier)
                        for row in vm.answer_rows],
        "what_ifs": vm.what_ifs,
        "highlight": vm.highlight,
        "is_standard": vm.is_standard,
        "comparison_rows": rows,
        # The cached plan markup holds the comparison table too: any content edit must show
        # at once, so its cache key has the content's stamp (every column of every row).
        "content_stamp": current().stamp,
        "faqs": faq_entries(rec.faq_topics),
        "build_downloads": build_downloads(rec),
    }


def build_downloads(rec: Recommendation) -> dict | None:
    """``includes/build_downloads.html``'s context: the downloads of the recommended plan
    through the signed share link (a function of the answers, as the cached plan markup)."""
    plan = rec.recommended.plan
    if plan is None:
        return None
    token = share_token(rec.answers)
    return downloads.download_context(plan, {
        "csv": reverse("wizard:shared_cabling_csv", args=[token]),
        "xlsx": reverse("wizard:shared_cabling_xlsx", args=[token]),
        "configs": reverse("wizard:shared_configs_zip", args=[token])})
