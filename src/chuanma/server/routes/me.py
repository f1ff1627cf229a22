"""The player's own account: password, e-mail, a password reset by link, export, deletion
(docs/server.md, Accounts); each calls :class:`~chuanma.server.account_care.AccountCare`."""

# no ``from __future__ import annotations``: FastAPI reads the routes' annotations
from collections.abc import Awaitable
from typing import TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from chuanma.server.account_care import check_email
from chuanma.server.accounts import AccountError, token_digest
from chuanma.server.deletions import DeletionError
from chuanma.server.resets import PAGE
from chuanma.server.routes.accounts import limit_logins
from chuanma.server.routes.deps import COOKIE, ApiError, ServerDep, User, token_of, within
from chuanma.server.routes.service import STATIC

router = APIRouter()
T = TypeVar("T")
STATUS = {"wrong_password": 403, "not_registered": 403, "is_staff": 409, "seated": 409, "no_mail": 503,
          "link_used": 410, "link_expired": 410}
"""The status of each refusal (400 for the others: bad input)."""


def refusal(exc: AccountError | DeletionError) -> ApiError:
    """A refusal as the API answers it."""
    return ApiError(STATUS.get(exc.code, 400), exc.code, str(exc))


async def answered(action: Awaitable[T]) -> T:
    """The action's result, or its :func:`refusal`."""
    try:
        return await action
    except (AccountError, DeletionError) as exc:
        raise refusal(exc) from None


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PasswordChange(Body):
    old: str = Field(max_length=256)
    new: str = Field(max_length=256)


class Email(Body):
    password: str = Field(max_length=256)
    email: str | None = Field(max_length=300)
    """``null`` or ``""``: no address."""


class Confirm(Body):
    password: str = Field(max_length=256)


class Forgot(Body):
    email: str = Field(max_length=300)


class Reset(Body):
    token: str = Field(max_length=100)
    password: str = Field(max_length=256)


@router.post("/api/me/password")
async def change_password(body: PasswordChange, request: Request, user: User, server: ServerDep) -> dict[str, bool]:
    """A new password, the old one given: every other session of the account is logged out."""
    token = token_of(request)
    assert token is not None
    await answered(server.care.change_password(user, body.old, body.new, token))
    await server.host.log_out(int(user["id"]), "password changed", token_digest(token), others=True)
    return {"ok": True}


@router.put("/api/me/email")
async def email(body: Email, user: User, server: ServerDep) -> dict[str, str | None]:
    return {"email": await answered(server.care.set_email(user, body.password, body.email))}


@router.get("/api/me/export")
async def export(request: Request, user: User, server: ServerDep) -> JSONResponse:
    """Everything the server holds of the account, as a JSON file to download."""
    await within(server.read_limit, request, "rate_limited", "too many reads; wait a minute")
    data = await server.care.export(int(user["id"]))
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="chuanma-{user["id"]}.json"'})


@router.post("/api/me/delete")
async def delete(body: Confirm, user: User, server: ServerDep) -> JSONResponse:
    """Delete the account (the password confirmed; not while at a table): it cannot be undone."""
    await answered(server.care.delete(user, body.password))
    await server.host.log_out(int(user["id"]), "account deleted", None)
    response = JSONResponse({"ok": True})
    response.delete_cookie(COOKIE)
    return response


@router.post("/api/password/forgot", status_code=202)
async def forgot(body: Forgot, request: Request, server: ServerDep) -> dict[str, str]:
    """E-mail a one-time link to the accounts of this address, if any: the answer never says."""
    try:
        address = check_email(body.email)
        server.care.mailing()
    except AccountError as exc:
        raise refusal(exc) from None
    await within(server.forgot_limit, request, "rate_limited", "too many password-reset requests; wait an hour")
    if not await server.forgot_limit.allow(f"to:{address.lower()}"):
        raise ApiError(429, "rate_limited", "too many password-reset requests for this address; wait an hour")
    server.care.forgot(address)
    return {"message": "if an account has this address, a link to set a new password is on its way"}


@router.post("/api/password/reset")
async def reset(body: Reset, request: Request, server: ServerDep) -> dict[str, bool]:
    """Set a new password with a one-time link's token: every session of the account ends."""
    await limit_logins(request, server)
    user_id = await answered(server.care.reset(body.token, body.password))
    await server.host.log_out(user_id, "password reset", None)
    return {"ok": True}


@router.get(PAGE, response_class=FileResponse, include_in_schema=False)
async def reset_page() -> FileResponse:
    """The page a password-reset link opens (``static/reset.html``): it posts to ``/api/password/reset``."""
    return FileResponse(STATIC / "reset.html", headers={"Cache-Control": "no-cache"})
