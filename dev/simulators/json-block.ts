/**
 * The structured block at the end of an answer, as models write it: usually a ```json fence, but
 * sometimes unfenced, Python-quoted, followed by more text, with trailing commas, typographic
 * quotes or capitalised keys.
 */
import type { Segment } from "./prose.ts";
import type { Rng } from "./random.ts";

export interface Structured {
  products: { name: string; rank: number; details: string }[];
  companies: { name: string; products: string[] }[];
}

/** The unusual styles `formatVariety` draws from. */
const VARIETY = ["unfenced", "single_quoted", "trailing_text"] as const;
/** What the messy-JSON noise draws from: the above and worse. */
const MESSY = [...VARIETY, "trailing_commas", "smart_quotes", "capitalised_keys"] as const;

export type BlockStyle = "fenced" | (typeof MESSY)[number];

/** Fenced, unless formatVariety (its probability) or messy JSON noise says otherwise. */
export function blockStyle(rng: Rng, formatVariety: number, messy: boolean): BlockStyle {
  if (messy) return rng.pick(MESSY);
  return rng.chance(formatVariety) ? rng.pick(VARIETY) : "fenced";
}

export function jsonBlock(rng: Rng, structured: Structured, style: BlockStyle): Segment {
  const json = JSON.stringify(structured, null, 2);
  const lead = rng.pick(["\n\nHere is the structured summary:\n\n", "\n\n", "\n\nStructured data:\n\n"]);
  const fenced = (body: string) => `${lead}\`\`\`json\n${body}\n\`\`\``;
  switch (style) {
    case "fenced":
      return plain(fenced(json));
    case "unfenced":
      return plain(`${lead}${json}`);
    case "single_quoted":
      return plain(fenced(singleQuoted(structured)));
    case "trailing_text":
      return plain(`${lead}${JSON.stringify(structured)}\n\nLet me know if you'd like me to compare any of these in more detail.`);
    case "trailing_commas":
      return plain(fenced(json.replace(/(["\d\]}])(\n\s*[\]}])/g, "$1,$2")));
    case "smart_quotes":
      return plain(fenced(json.replace(/"((?:[^"\\]|\\.)*)"/g, "“$1”")));
    case "capitalised_keys":
      return plain(fenced(json.replace(/"(products|companies|name|rank|details)":/g, (_, key: string) => `"${key[0]?.toUpperCase()}${key.slice(1)}":`)));
  }
}

// ---------------------------------------------------------------------------------------------

function plain(text: string): Segment {
  return { text, sources: [] };
}

/** Python-repr-like JSON with single-quoted strings. */
function singleQuoted(value: unknown): string {
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(singleQuoted).join(", ")}]`;
  if (value && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${singleQuoted(k)}: ${singleQuoted(v)}`)
      .join(", ")}}`;
  return String(value);
}
