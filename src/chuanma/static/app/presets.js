// The presets as /api/presets serves them (chuanma.portal.reference.preset_catalog): one shape for the
// lobby, the table, the calculator and the rules page: {presets: [{name, zh, en, variant, changes}],
// options: [{name, kind, description, ..., values: {preset: value}, scoring}]}.

/** Every option's value in the preset `name` ({option: value}; empty for an unknown preset). */
export function presetValues(catalog, name) {
  return Object.fromEntries((catalog?.options || []).filter((o) => name in o.values).map((o) => [o.name, o.values[name]]));
}

/** Every preset's id, in the server's order. */
export function presetIds(catalog) {
  return (catalog?.presets || []).map((p) => p.name);
}
