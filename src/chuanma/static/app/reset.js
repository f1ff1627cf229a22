// The page of a password-reset link (/reset#TOKEN): a new password, posted with the link's token.
import { api } from "./api.js";
import { applyI18n, errorText, getLang, t } from "./i18n.js";
import "./account.js";

const token = location.hash.slice(1);
const form = document.querySelector("#reset-form");
const status = document.querySelector("#reset-status");
document.documentElement.lang = getLang() === "zh" ? "zh-CN" : "en";
applyI18n(document);
if (!token) { status.textContent = t("reset.no_link"); form.hidden = true; }
form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    await api("/api/password/reset", { method: "POST", body: { token, password: form.querySelector("#password").value } });
    form.hidden = true;
    status.innerHTML = "";
    status.append(t("reset.done"), " ");
    const login = document.createElement("a");
    login.href = "/";
    login.textContent = t("reset.login");
    status.append(login);
  } catch (exc) {
    status.textContent = errorText(exc.code, exc.message);
  }
});
