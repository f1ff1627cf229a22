// Small helpers shared by the pages.

import { t } from "./i18n.js";

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe for HTML (element content and quoted attributes). */
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** A whole number with thousands separators. */
export function fmt(n) {
  return Number(n).toLocaleString("en-US");
}

/** A seat's display name: "You" for the viewer's own seat, else the player's name. */
export function seatName(players, seat, me) {
  if (seat === me) return t("seat.you");
  return players?.[seat]?.name || `#${seat + 1}`;
}

/** Base64url of a text's UTF-8 bytes (for handing a record to the verifier page in its address). */
export function base64url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
