"""Share links: the answers (and nothing else) signed with the project's secret key, so a
link reproduces a result read-only for anyone and cannot be forged or edited."""

from __future__ import annotations

from django.core import signing

from selector.domain import Answers, InvalidAnswers

SALT = "selector.wizard.share.v1"
MAX_TOKEN_LENGTH = 400


def share_token(answers: Answers) -> str:
    return signing.dumps(answers.to_dict(), salt=SALT, compress=True)


def answers_from_token(token: str) -> Answers | None:
    """The signed answers, or None for a tampered, truncated or outdated token."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    try:
        data = signing.loads(token, salt=SALT)
        return Answers.from_dict(data)
    except (signing.BadSignature, InvalidAnswers, ValueError, TypeError):
        return None
