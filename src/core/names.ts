/**
 * The key two names are merged under: case-insensitive, whitespace collapsed, typographic
 * apostrophes folded, so "HubSpot  CRM", "hubspot crm" and "Levi’s"/"Levi's" each meet.
 */
export function nameKey(name: string): string {
  return name
    .normalize("NFKC")
    .replace(/[’‘`´]/g, "'")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/**
 * Orders names alphabetically, case-insensitively, by code unit — not localeCompare, whose
 * result differs between ICU builds and would reorder lists between server and browser.
 */
export function compareNames(a: string, b: string): number {
  const ka = nameKey(a);
  const kb = nameKey(b);
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Of two spellings of the same name, the one worth showing: mixed case beats all-lower or all-caps. */
export function betterCasing(current: string, candidate: string): string {
  return casingScore(candidate) > casingScore(current) ? candidate : current;
}

// 2: has capitals and lowercase ("HubSpot CRM"); 1: capitals only ("HUBSPOT"); 0: none.
function casingScore(name: string): number {
  const upper = /\p{Lu}/u.test(name);
  const lower = /\p{Ll}/u.test(name);
  return upper && lower ? 2 : upper ? 1 : 0;
}
