"""What a player does to their own account (docs/server.md, Accounts): change the password, give
an e-mail address, set a new password with a one-time link (:mod:`chuanma.server.resets`), have
one e-mailed, export their data, delete the account (:mod:`chuanma.server.deletions`).

Each change that needs the password checks it first (Argon2, off the event loop); a refusal is an
:class:`~chuanma.server.accounts.AccountError` (or a
:class:`~chuanma.server.deletions.DeletionError`) and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, func, select, update

from chuanma.server.accounts import AccountError, Accounts, check_password
from chuanma.server.deletions import erase
from chuanma.server.mail import Smtp
from chuanma.server.resets import MAILED_LINK_SECONDS, issue, redeem, usable
from chuanma.server.schema import bans, hand_players, ledger, logins, password_resets, ratings, tokens, users
from chuanma.server.store import Row

log = logging.getLogger("chuanma.server.account_care")
EMAIL = re.compile(r"[^@\s]{1,64}@[^@\s]+\.[^@\s.]{2,}")
"""An e-mail address, roughly: something, ``@``, a domain with a dot (no space)."""
MAX_EMAIL = 254
MAILED_PER_ADDRESS = 5
"""The most accounts one e-mail address's request sends links to."""
SUBJECT = "chuanma: set a new password"
YOUR_TABLES = (ledger, logins, tokens, password_resets, bans, hand_players)
"""The tables whose rows belong to one account (by ``user_id``), exported whole but their secrets."""
SECRETS = frozenset({"digest", "password_hash"})
"""What an export never holds: the token digests and the password hash."""


def check_email(email: object) -> str:
    if not isinstance(email, str) or len(email) > MAX_EMAIL or not EMAIL.fullmatch(email.strip()):
        raise AccountError("email: an address such as name@example.com", "bad_email")
    return email.strip()


def registered(user: Row) -> None:
    """Refuse an account without a password (a guest: it claims a name and a password first)."""
    if user["kind"] != "player":
        raise AccountError("only a registered account has a password: claim a name first", "not_registered")


@dataclass
class AccountCare:
    """The player's own account, over the :class:`Accounts` of a server; e-mail through ``smtp``."""

    accounts: Accounts
    smtp: Smtp | None = None
    public_url: str | None = None
    """The server's address as its players reach it (the e-mailed links point there)."""
    _sending: set[asyncio.Task[None]] = field(default_factory=set, init=False)

    async def _confirmed(self, user: Row, password: object) -> None:
        """Refuse unless ``password`` is the account's (read again: the caller's row may be old)."""
        registered(user)
        stored = await self.accounts.store.user(int(user["id"]))
        if stored is None or not await self.accounts.passwords.verify(
                stored["password_hash"], password if isinstance(password, str) else ""):
            raise AccountError("password: that is not your password", "wrong_password")

    async def change_password(self, user: Row, old: object, new: object, token: str) -> None:
        """Set a new password (the old one confirmed); every other session of the account ends."""
        await self._confirmed(user, old)
        password_hash = await self.accounts.passwords.hash(check_password(new))
        await self.accounts.store.write(lambda conn: conn.execute(
            update(users).where(users.c.id == user["id"]).values(password_hash=password_hash)))
        await self.accounts.logout(token, everywhere=True, keep_this=True)

    async def set_email(self, user: Row, password: object, email: object) -> str | None:
        """Give the account an e-mail address (``None`` or ``""``: none), the password confirmed."""
        address = None if email in (None, "") else check_email(email)
        await self._confirmed(user, password)
        await self.accounts.store.write(lambda conn: conn.execute(
            update(users).where(users.c.id == user["id"]).values(email=address)))
        return address

    async def reset(self, token: object, password: object) -> int:
        """Set the password of the link ``token``'s account (:func:`~chuanma.server.resets.redeem`);
        returns the account's id."""
        if not isinstance(token, str) or not 0 < len(token) <= 64:
            raise AccountError("link: not a password-reset link of this server (ask for a new one)", "bad_link")
        new = check_password(password)
        await self.accounts.store.read(lambda conn: usable(conn, token, self.accounts.clock.now()))  # no hash spent
        password_hash = await self.accounts.passwords.hash(new)
        now = self.accounts.clock.now()
        return await self.accounts.store.write(lambda conn: redeem(conn, token, password_hash, now))

    def mailing(self) -> tuple[Smtp, str]:
        """Where the e-mailed links go out from, and the server's address they point to; refused
        (``no_mail``) on a server without both."""
        if self.smtp is None or self.public_url is None:
            raise AccountError("this server sends no e-mail: ask an operator for a password-reset link", "no_mail")
        return self.smtp, self.public_url

    def forgot(self, email: str) -> None:
        """E-mail a link to each registered account of ``email`` (at most :data:`MAILED_PER_ADDRESS`),
        in the background: the caller's answer is the same whether there is one or not."""
        task = asyncio.create_task(self._mail_links(*self.mailing(), email))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _mail_links(self, smtp: Smtp, base: str, email: str) -> None:
        now = self.accounts.clock.now()

        def work(conn: Connection) -> list[tuple[str, str]]:
            found = conn.execute(select(users.c.id, users.c.username).where(
                func.lower(users.c.email) == email.lower(), users.c.kind == "player")
                .order_by(users.c.id).limit(MAILED_PER_ADDRESS)).all()
            return [(str(r.username), issue(conn, int(r.id), now, MAILED_LINK_SECONDS).url(base)) for r in found]
        try:
            for name, url in await self.accounts.store.write(work):
                await smtp.deliver(email, SUBJECT, f"Someone asked to set a new password for the account {name}.\n\n"
                                   f"To set one, open this link within the hour (it works once):\n{url}\n\n"
                                   "If it was not you, ignore this message: your password stays as it is.\n")
        except Exception:  # the caller was answered already: an SMTP server away is the log's
            log.exception("password-reset mail not sent")

    async def export(self, user_id: int) -> dict[str, Any]:
        """Everything the database holds of the account (but its secrets): the account, each of its
        tables' rows, its ratings and its hands (ids, with their record's and replay's links)."""
        def work(conn: Connection) -> dict[str, Any]:
            account = conn.execute(select(users).where(users.c.id == user_id)).one()._mapping
            out: dict[str, Any] = {"account": {k: v for k, v in account.items() if k not in SECRETS}}
            for table in YOUR_TABLES:
                columns = [c for c in table.c if c.name not in SECRETS]
                out[table.name] = [dict(r._mapping) for r in conn.execute(
                    select(*columns).where(table.c.user_id == user_id))]
            out["ratings"] = [dict(r._mapping) for r in conn.execute(
                select(ratings).where(ratings.c.subject == f"user:{user_id}"))]
            return out
        data = await self.accounts.store.read(work)
        data["hands"] = [{**h, "record": f"/api/hands/{h['id']}/record", "replay": f"/replay/{h['id']}"}
                         for h in await self.accounts.store.hands_of(user_id, limit=None)]
        return data

    async def delete(self, user: Row, password: object) -> None:
        """Make the account a tombstone (:func:`~chuanma.server.deletions.erase`), the password
        confirmed; refused while the player is queued or seated."""
        if user["role"] != "player":
            raise AccountError(f"you are a {user['role']}: an operator makes you a player first "
                               "(chuanma admin role NAME player)", "is_staff")
        await self._confirmed(user, password)
        now = self.accounts.clock.now()
        await self.accounts.store.write(lambda conn: erase(conn, int(user["id"]), now))
