// The player's own account (docs/client.md, Account): change the password, an e-mail address for
// password resets, export my data, delete the account; and the strings of the reset page.
import { api } from "./api.js";
import { addStrings, t } from "./i18n.js";
import { esc } from "./util.js";

addStrings({
  zh: {
    "account.title": "账号设置", "account.old": "当前密码", "account.new": "新密码",
    "account.change": "修改密码", "account.changed": "密码已修改：其他设备已退出登录。",
    "account.email": "电子邮箱（用于找回密码，可不填）", "account.email_save": "保存邮箱", "account.email_saved": "邮箱已保存。",
    "account.export": "导出我的数据（JSON）", "account.delete": "删除账号",
    "account.delete_intro": "删除后无法恢复：密码、邮箱和登录记录被清除，筹码归零，用户名可被别人使用。",
    "account.delete_confirm": "确定删除这个账号？此操作无法撤销。",
    "reset.title": "设置新密码", "reset.go": "设置密码", "reset.done": "新密码已设置，请登录。", "reset.login": "去登录",
    "reset.no_link": "这个链接不完整：请打开邮件或管理员给你的完整链接。",
    "err.code.wrong_password": "密码不对", "err.code.seated": "你在牌桌上或在排队：先离开（等这一局打完）",
    "err.code.bad_email": "邮箱格式不对", "err.code.bad_link": "这不是有效的重置链接：请重新申请",
    "err.code.link_used": "这个链接已经用过了：请重新申请", "err.code.link_expired": "这个链接已过期：请重新申请",
  },
  en: {
    "account.title": "Account", "account.old": "Current password", "account.new": "New password",
    "account.change": "Change password", "account.changed": "Password changed: your other devices are logged out.",
    "account.email": "E-mail (for password resets, optional)", "account.email_save": "Save e-mail", "account.email_saved": "E-mail saved.",
    "account.export": "Export my data (JSON)", "account.delete": "Delete account",
    "account.delete_intro": "This cannot be undone: your password, e-mail and logins are erased, your chips go, and your name is free for others.",
    "account.delete_confirm": "Delete this account? This cannot be undone.",
    "reset.title": "Set a new password", "reset.go": "Set password", "reset.done": "Your new password is set: log in.", "reset.login": "Log in",
    "reset.no_link": "This link is incomplete: open the whole link from the e-mail or the operator.",
    "err.code.wrong_password": "That is not your password", "err.code.seated": "You are at a table or in a queue: leave first (after the hand)",
    "err.code.bad_email": "Not an e-mail address", "err.code.bad_link": "Not a valid reset link: ask for a new one",
    "err.code.link_used": "This link was used already: ask for a new one", "err.code.link_expired": "This link has expired: ask for a new one",
  },
});

function field(id, label, type = "password", autocomplete = "current-password") {
  return `<div><label for="${id}">${esc(t(label))}</label><input id="${id}" type="${type}" maxlength="256" autocomplete="${autocomplete}"></div>`;
}

/** The account section of a registered player (nothing for a guest: it claims a name first);
 * open when it was, or with the status of what was done. */
export function accountHTML(user, done = "", open = false) {
  if (user.kind !== "player") return "";
  return `<details data-testid="account"${done || open ? " open" : ""}><summary>${esc(t("account.title"))}</summary>
    ${done ? `<p role="status">${esc(t(done))}</p>` : ""}
    <form id="password-form" class="field-row">${field("old-password", "account.old")}
      ${field("new-password", "account.new", "password", "new-password")}
      <div><button class="btn" type="submit">${esc(t("account.change"))}</button></div></form>
    <form id="email-form" class="field-row">${field("email", "account.email", "email", "email")}
      ${field("email-password", "account.old")}
      <div><button class="btn" type="submit">${esc(t("account.email_save"))}</button></div></form>
    <p><a href="/api/me/export" download>${esc(t("account.export"))}</a></p>
    <p class="muted">${esc(t("account.delete_intro"))}</p>
    <form id="delete-form" class="field-row">${field("delete-password", "account.old")}
      <div><button class="btn" type="submit">${esc(t("account.delete"))}</button></div></form>
  </details>`;
}

/** Submit one of the account's forms; resolves to the status to show ("" : not an account form),
 * or "deleted" once the account is gone. Refusals throw the server's ApiError. */
export async function accountSubmit(form) {
  const value = (id) => form.querySelector(`#${id}`).value;
  if (form.id === "password-form") {
    await api("/api/me/password", { method: "POST", body: { old: value("old-password"), new: value("new-password") } });
    return "account.changed";
  }
  if (form.id === "email-form") {
    await api("/api/me/email", { method: "PUT", body: { email: value("email").trim(), password: value("email-password") } });
    return "account.email_saved";
  }
  if (form.id === "delete-form") {
    if (!window.confirm(t("account.delete_confirm"))) return "";
    await api("/api/me/delete", { method: "POST", body: { password: value("delete-password") } });
    return "deleted";
  }
  return "";
}
