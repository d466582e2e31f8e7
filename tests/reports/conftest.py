from io import BytesIO

from pypdf import PdfReader


def pdf_text(pdf: bytes) -> str:
    reader = PdfReader(BytesIO(pdf))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def squash(text: str) -> str:
    """Text without any white space, so wrapped lines still match."""
    return "".join(text.split())
