"""What the server tells browsers and checks of them: security headers on every HTTP response, the
``Origin`` of a WebSocket, and which clients count as local (``/metrics``).
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
from collections.abc import Collection
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chuanma.fairness.page import PAGE_NAME, verifier_page_html

VERIFY_PATH = f"/static/{PAGE_NAME}"
"""The verifier page: one file whose script and style are inline (it also works saved to disk)."""


def _inline_hashes(page: str, tag: str) -> str:
    """The CSP sources allowing exactly the inline ``<tag>`` elements of ``page``."""
    bodies = re.findall(rf"<{tag}>(.*?)</{tag}>", page, flags=re.DOTALL)
    return " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(b.encode()).digest()).decode()}'" for b in bodies)


def _verify_policy() -> str:
    page = verifier_page_html()
    return (f"default-src 'none'; script-src {_inline_hashes(page, 'script')}; "
            f"style-src {_inline_hashes(page, 'style')}; connect-src 'self'; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")


POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
          "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
"""The client's and the portal's pages: their own modules only (no inline script); styles may be
inline (the pages set ``style`` attributes and add the tiles' rules in a ``<style>``), images also
``data:`` (the tiles' drawings); ``connect-src 'self'`` covers the page's own ``ws(s)://``."""
COMMON = {"x-content-type-options": "nosniff", "referrer-policy": "same-origin", "x-frame-options": "DENY"}


class SecurityHeaders:
    """ASGI middleware: a Content-Security-Policy, ``nosniff``, a same-origin referrer policy and frame
    denial on every HTTP response, and ``Cache-Control: no-store`` on the API's (balances, tokens and
    hands are no one's to keep); a route's own value for a header is kept. A ``HEAD`` request is
    answered as its ``GET`` would be, without the body (the routes are declared for ``GET`` only)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.verify_policy = _verify_policy()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = self.verify_policy if scope["path"] == VERIFY_PATH else POLICY
        defaults = {**COMMON, "content-security-policy": policy}
        if scope["path"].startswith("/api/"):
            defaults["cache-control"] = "no-store"
        head = scope["method"] == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in defaults.items():
                    headers.setdefault(name, value)
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def origin_allowed(origin: str | None, host: str | None, extra: Collection[str]) -> bool:
    """Whether a WebSocket handshake with this ``Origin`` may go on: none (not a browser), the
    server's own (the same host and port as the ``Host`` header) or one of ``extra`` (lower-case)."""
    if origin is None:
        return True
    if origin.lower() in extra:
        return True
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


def loopback(address: str | None) -> bool:
    """Whether ``address`` (a client's IP) is on the loopback interface."""
    try:
        return address is not None and ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False
