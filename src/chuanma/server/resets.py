"""One-time password-reset links (docs/server.md, Accounts): an operator's (``chuanma admin reset-link``,
``POST /api/admin/players/ID/reset-link``) or one e-mailed on ``POST /api/password/forgot``.

A link carries a random token; the database keeps only its SHA-256 (:func:`token_digest`), when it
expires and when it was used. Setting a new password with it (:func:`redeem`) uses it up, with
every other link of the account, and ends every session of the account, in one transaction.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import Connection, select, update

from chuanma.server.accounts import AccountError, token_digest
from chuanma.server.schema import password_resets, tokens, users

OPERATOR_LINK_SECONDS = 86_400.0
"""How long an operator's link works: a day (it is handed on by the operator, not mailed at once)."""
MAILED_LINK_SECONDS = 3_600.0
"""How long an e-mailed link works: an hour."""
PAGE = "/reset"
"""The page that sets a new password with a link (``static/reset.html``); the token follows ``#``,
so it is never sent to the server with the page's request, nor in a Referer."""


@dataclass(frozen=True, slots=True)
class ResetLink:
    """A link made: its token (shown once, never stored) and when it expires."""

    token: str
    expires: float

    def url(self, base: str) -> str:
        """The link on the server at ``base`` (``https://example.com``)."""
        return f"{base.rstrip('/')}{PAGE}#{self.token}"


def issue(conn: Connection, user_id: int, now: float, seconds: float) -> ResetLink:
    """In the transaction of ``conn``: a new link for ``user_id``, working for ``seconds``."""
    link = ResetLink(secrets.token_urlsafe(32), now + seconds)
    conn.execute(password_resets.insert().values(digest=token_digest(link.token), user_id=user_id, created_at=now,
                                                 expires=link.expires, used_at=None))
    return link


def usable(conn: Connection, token: str, now: float) -> int:
    """The account of the link ``token``; a link unknown, used or expired is refused (:class:`AccountError`)."""
    row = conn.execute(select(password_resets).where(password_resets.c.digest == token_digest(token))).first()
    if row is None:
        raise AccountError("link: not a password-reset link of this server (ask for a new one)", "bad_link")
    if row.used_at is not None:
        raise AccountError("link: already used (ask for a new one)", "link_used")
    if row.expires <= now:
        raise AccountError("link: expired (ask for a new one)", "link_expired")
    return int(row.user_id)


def redeem(conn: Connection, token: str, password_hash: str, now: float) -> int:
    """In the transaction of ``conn``: set the password of the link ``token``'s account, use up its
    links and end its sessions; returns the account's id. A link not :func:`usable` is refused,
    and nothing changes."""
    user_id = usable(conn, token, now)
    taken = conn.execute(update(password_resets).where(password_resets.c.digest == token_digest(token),
                                                       password_resets.c.used_at.is_(None)).values(used_at=now))
    if taken.rowcount != 1:  # used meanwhile, by a request at the same time
        raise AccountError("link: already used (ask for a new one)", "link_used")
    conn.execute(update(users).where(users.c.id == user_id).values(password_hash=password_hash))
    conn.execute(update(password_resets).where(password_resets.c.user_id == user_id,
                                               password_resets.c.used_at.is_(None)).values(used_at=now))
    conn.execute(tokens.delete().where(tokens.c.user_id == user_id))
    return user_id
