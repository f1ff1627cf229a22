// Reporting a player (举报): the dialog a seat's report button opens, posted to POST /api/reports.

import { t } from "./i18n.js";
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

/** What the dialog's form posts: the player, the hand, the reason and the words given. */
export function reportBody(form, name, handId) {
  const text = form.elements.text.value.trim();
  return { player: name, hand_id: handId || null, reason: form.elements.reason.value, text: text || null };
}
