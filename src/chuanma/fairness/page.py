"""The static, self-contained verifier page shipped with the package."""

from __future__ import annotations

from contextlib import AbstractContextManager
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

PAGE_NAME = "verify.html"


def verifier_page() -> Traversable:
    """The packaged ``verify.html`` (open it with ``.read_text()`` or serve its bytes)."""
    return resources.files("chuanma").joinpath("static", PAGE_NAME)


def verifier_page_html() -> str:
    """The page's HTML text."""
    return verifier_page().read_text(encoding="utf-8")


def verifier_page_path() -> AbstractContextManager[Path]:
    """A context manager giving a real file path of the page (for servers that need one)."""
    return resources.as_file(verifier_page())
