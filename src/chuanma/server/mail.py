"""Sending e-mail over SMTP (the standard library's :mod:`smtplib`, in a worker thread, off the
event loop): the password-reset links of ``POST /api/password/forgot`` (docs/server.md, E-mail)."""

from __future__ import annotations

import asyncio
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage

SECURITY = ("starttls", "ssl", "none")
"""How the connection to the SMTP server is secured: STARTTLS after connecting (port 587), TLS
from the start (port 465), or not at all (a relay on the same host only)."""
TIMEOUT = 20.0
"""Seconds one SMTP conversation may take."""


@dataclass(frozen=True, slots=True)
class Smtp:
    """Where mail goes out: the SMTP server, its login (if any) and the sender's address."""

    host: str
    port: int
    sender: str
    security: str = "starttls"
    user: str | None = None
    password: str | None = None

    def send(self, to: str, subject: str, body: str) -> None:
        """Send one plain-text message (blocking: see :meth:`deliver`)."""
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = self.sender, to, subject
        message.set_content(body)
        context = ssl.create_default_context()
        if self.security == "ssl":
            client: smtplib.SMTP = smtplib.SMTP_SSL(self.host, self.port, timeout=TIMEOUT, context=context)
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT)
        with client:
            if self.security == "starttls":
                client.starttls(context=context)
            if self.user is not None:
                client.login(self.user, self.password or "")
            client.send_message(message)

    async def deliver(self, to: str, subject: str, body: str) -> None:
        """:meth:`send` in a worker thread."""
        await asyncio.to_thread(self.send, to, subject, body)
