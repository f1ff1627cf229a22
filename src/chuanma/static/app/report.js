// Reporting a player (举报): the dialog a seat's report button opens (at the table, and beside the
// players of a replayed hand), posted to POST /api/reports.

import { api } from "./api.js";
import { errorText, t } from "./i18n.js";
import { openModal } from "./settle.js";
import { esc } from "./util.js";

export const REASONS = ["cheating", "collusion", "abuse", "bot", "other"];
export const MAX_TEXT = 500;

/** The dialog reporting the player ``name``, about the hand ``handId`` (or none). */
export function reportHTML(name, handId) {
  return `<h2>${esc(t("report.title", { name }))}</h2>
    <form data-report>
      <p><label for="report-reason">${esc(t("report.reason"))}</label>
        <select id="report-reason" name="reason">${REASONS.map((r) => `<option value="${r}">${esc(t("report.r." + r))}</option>`).join("")}</select></p>
      <p><label for="report-text">${esc(t("report.text", { n: MAX_TEXT }))}</label>
        <textarea id="report-text" name="text" rows="3" maxlength="${MAX_TEXT}"></textarea></p>
      ${handId ? `<p class="muted">${esc(t("report.hand", { hand: handId }))}</p>` : ""}
      <p><button type="submit" class="btn btn-primary" data-testid="report-send">${esc(t("report.send"))}</button>
        <button type="button" class="btn" data-close>${esc(t("report.cancel"))}</button></p>
    </form>`;
}

/** What the dialog's form posts: the player (id or name), the hand, the reason and the words given. */
export function reportBody(form, player, handId) {
  const text = form.elements.text.value.trim();
  return { player, hand_id: handId || null, reason: form.elements.reason.value, text: text || null };
}

/** Open the dialog reporting ``name`` (posted as ``player``: their id or name) about ``handId``;
 * ``tell`` shows what came of it (sent, or the server's refusal). */
export function showReport(player, name, handId, tell) {
  const modal = openModal(reportHTML(name, handId), { label: t("report.title", { name }) });
  modal.el.querySelector("[data-report]").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await api("/api/reports", { method: "POST", body: reportBody(ev.target, player, handId) });
      modal.close();
      tell(t("report.sent"));
    } catch (exc) {
      tell(errorText(exc.code, exc.message));
    }
  });
}
