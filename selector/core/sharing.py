"""Share links: the answers (and nothing else) signed with the project's secret key, so a
link reproduces a result read-only for anyone and cannot be forged or edited."""

from __future__ import annotations

from django.core import signing

from selector.domain import Answers, InvalidAnswers

SALT = "selector.wizard.share.v1"
MAX_TOKEN_LENGTH = 400


class _StableSigner(signing.TimestampSigner):
    """``signing.dumps`` with the timestamp fixed at 0: the same answers always give the same
    link (links never expired; ``signing.loads`` reads old and new tokens alike). A link that
    changed every second made every report draw a new QR code (~20 ms of segno's mask
    search per render) and every PDF of the same lead differ."""

    def timestamp(self) -> str:
        return signing.b62_encode(0)


def share_token(answers: Answers) -> str:
    return _StableSigner(salt=SALT).sign_object(answers.to_dict(), compress=True)


def answers_from_token(token: str) -> Answers | None:
    """The signed answers, or None for a tampered, truncated or outdated token."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    try:
        data = signing.loads(token, salt=SALT)
        return Answers.from_dict(data)
    except (signing.BadSignature, InvalidAnswers, ValueError, TypeError):
        return None
