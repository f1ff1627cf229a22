// A refused hand in the page's language: the score endpoint's facts (a code and its numbers,
// chuanma.errors.ERROR_CODES) worded from the calc.err.* strings, never the server's English.
import { getLang, optionText, t } from "/static/app/i18n.js";
import { tileName } from "/static/app/tiles.js";

/** The sentence for facts ({code, ...}); options are /api/presets' (a rule option is named as the
 * calculator labels it). */
export function refusalText(facts, options) {
  const lang = getLang();
  const option = options.find((o) => o.name === facts.option);
  const vars = {
    ...facts,
    tile: facts.tile && tileName(facts.tile, lang),
    expected: facts.expected?.join(lang === "zh" ? " 或 " : " or "),
    situation: facts.situation && t(`sit.${facts.situation}`),
    option: option ? optionText(option) : t("calc.options"),
  };
  return t(`calc.err.${facts.code}`, vars);
}
