import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { RenameSearch } from "#src/contract/history.ts";
import { BrandEntry, BrandLensSettings, LensQuery, SaveBrandLens } from "#src/contract/lens.ts";
import { Location } from "#src/contract/location.ts";
import { SearchRequest } from "#src/contract/search-request.ts";
import { CreateToken } from "#src/contract/tokens.ts";
import { CreateTracker, Tracker, UpdateTracker } from "#src/contract/trackers.ts";
import { CreateBatch, GenerateVariants, SaveVariants } from "#src/contract/variants.ts";
import { hasInvisible, visibleJson, visibleText, withoutInvisible } from "#src/core/display-text.ts";
import { parseVariants } from "#src/core/variants.ts";

/*
 * Issue 34, names shown as written: a name or a question with a character that changes how it
 * reads without being seen (a line break, the right-to-left override U+202E, a zero-width space)
 * is refused where it is written, naming the field and the character; text stored before that,
 * or a provider's, is shown with that character made visible.
 */

const RLO = "\u202E";
const FLAG_ENGLAND = "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}";
const CODER = "👩‍💻";

describe("visibleText and hasInvisible (src/core/display-text.ts)", () => {
  test("one line as written: line breaks and tabs of every kind a space, any other invisible character named", () => {
    expect(visibleText(`CRM${RLO}watch`)).toBe("CRM⟨U+202E⟩watch");
    expect(visibleText("a\r\nb\tc\u2028d\u2029e\u0085f\u000bg")).toBe("a b c d e f g");
    expect(visibleText("Hub\u200bSpot\u00ad \ufeffx \u0000 \u001b[2J")).toBe("Hub⟨U+200B⟩Spot⟨U+00AD⟩ ⟨U+FEFF⟩x ⟨U+0000⟩ ⟨U+001B⟩[2J");
    expect(visibleText("plain, as written: Ünïcödé 中文 العربية")).toBe("plain, as written: Ünïcödé 中文 العربية");
  });

  test("emoji stay as written: the zero-width joiner they are made of, a subdivision flag's tags; tags hiding words are named", () => {
    expect(visibleText(`${CODER} team ${FLAG_ENGLAND}`)).toBe(`${CODER} team ${FLAG_ENGLAND}`);
    expect(hasInvisible(`${CODER} ${FLAG_ENGLAND}`)).toBe(false);
    // Tag characters spelling "hi" outside a flag: a way to hide words from a reader, not from a model.
    expect(visibleText("ok\u{E0068}\u{E0069}")).toBe("ok⟨U+E0068⟩⟨U+E0069⟩");
    expect(hasInvisible("ok\u{E0068}")).toBe(true);
  });

  test("hasInvisible: controls, format characters and the line and paragraph separators", () => {
    for (const char of ["\n", "\r", "\t", RLO, "\u200b", "\u200e", "\u2066", "\ufeff", "\u2028", "\u2029", "\u0085", "\u0000"])
      expect({ char, found: hasInvisible(`a${char}b`) }).toEqual({ char, found: true });
    expect(hasInvisible("HubSpot's CRM — 100% (beta)")).toBe(false);
  });

  test("visibleJson escapes them inside strings: the same value when parsed, seen when printed; JSON's own layout stays", () => {
    const value = { name: `CRM${RLO}watch\n2`, emoji: `${CODER} ${FLAG_ENGLAND}`, tag: "x\u{E0041}" };
    const json = visibleJson(JSON.stringify(value, null, 2));
    expect(JSON.parse(json)).toEqual(value);
    expect(json).toContain('"CRM\\u202ewatch\\n2"');
    expect(json).toContain('"x\\udb40\\udc41"');
    expect(json).toContain(`${CODER} ${FLAG_ENGLAND}`);
    expect(hasInvisible(json.replaceAll("\n", ""))).toBe(false);
  });

  test("a model's variants are kept as a person's input must be: breaks a space, invisible characters left out", () => {
    const parsed = parseVariants({ variants: [{ query: `best\u200b crm${RLO}\nfor agencies`, reasoning: `why\u2028not${RLO}` }] }, "crm");
    expect(parsed).toEqual([{ query: "best crm for agencies", reasoning: "why not" }]);
    expect(withoutInvisible(`${CODER} ${FLAG_ENGLAND}\u200b`)).toBe(`${CODER} ${FLAG_ENGLAND}`);
  });
});

/** The first issue's message, or "ok". */
function told(schema: v.GenericSchema, input: unknown): string {
  const parsed = v.safeParse(schema, input);
  return parsed.success ? "ok" : parsed.issues[0].message;
}

const refused = (field: string, code: string) => `${field} must not contain ${code} (an invisible control or format character)`;

describe("inputs refuse invisible characters, naming the field and the character (src/contract)", () => {
  const tracker = { name: "CRM watch", queries: ["best crm"], brand: { name: "HubSpot" }, schedule: { cron: "0 9 * * 1", timezone: "UTC" } };

  test("a tracker: its name, queries, brand and competitors with their other names, and the place it asks from", () => {
    expect(told(CreateTracker, { ...tracker, name: `CRM${RLO}watch` })).toBe(refused("name", "U+202E"));
    expect(told(CreateTracker, { ...tracker, name: "CRM\nwatch" })).toBe(refused("name", "U+000A"));
    expect(told(CreateTracker, { ...tracker, queries: ["best crm", "best\u200bcrm for agencies"] })).toBe(refused("Search query", "U+200B"));
    expect(told(CreateTracker, { ...tracker, brand: { name: `Hub${RLO}Spot` } })).toBe(refused("brand.name", "U+202E"));
    expect(told(CreateTracker, { ...tracker, brand: { name: "HubSpot", aliases: ["Hub\u2028Spot"] } })).toBe(refused("brand.aliases", "U+2028"));
    expect(told(CreateTracker, { ...tracker, competitors: [{ name: "Sales\u200dforce\u200b" }] })).toBe(refused("competitors.name", "U+200B"));
    expect(told(CreateTracker, { ...tracker, competitors: [{ name: "Pipedrive", aliases: ["\u2066Pipe"] }] })).toBe(refused("competitors.aliases", "U+2066"));
    expect(told(CreateTracker, { ...tracker, location: { country: "DE", city: `Ber${RLO}lin` } })).toBe(refused("location.city", "U+202E"));
    expect(told(UpdateTracker, { name: `x${RLO}` })).toBe(refused("name", "U+202E"));
    expect(told(UpdateTracker, { brand: { name: `x${RLO}` } })).toBe(refused("brand.name", "U+202E"));
  });

  test("the brand lens, a search, a token, a saved search's title, variants", () => {
    expect(told(SaveBrandLens, { brand: { name: `Acme${RLO}` }, competitors: [] })).toBe(refused("brand.name", "U+202E"));
    expect(told(SaveBrandLens, { brand: null, competitors: [{ name: "Rival", aliases: ["R\ufeffR"] }] })).toBe(refused("competitors.aliases", "U+FEFF"));
    expect(told(LensQuery, { brand: `Acme${RLO}` })).toBe(refused("brand", "U+202E"));
    expect(told(LensQuery, { competitor: ["Rival", `Other${RLO}`] })).toBe(refused("competitor", "U+202E"));
    expect(told(SearchRequest, { query: `best crm${RLO}` })).toBe(refused("Search query", "U+202E"));
    expect(told(SearchRequest, { query: "best crm", options: { location: { country: "DE", region: "Bay\u200bern" } } })).toBe(
      refused("location.region", "U+200B"),
    );
    expect(told(CreateToken, { name: `ci${RLO}` })).toBe(refused("A token name", "U+202E"));
    expect(told(RenameSearch, { title: "my\tsearch" })).toBe(refused("title", "U+0009"));
    expect(told(GenerateVariants, { query: `crm${RLO}` })).toBe(refused("Search query", "U+202E"));
    expect(told(SaveVariants, { query: "crm", variants: [{ query: `crm for${RLO} agencies` }] })).toBe(refused("A variant", "U+202E"));
    expect(told(CreateBatch, { query: "crm", variants: [{ query: "crm\u200b" }] })).toBe(refused("Search query", "U+200B"));
  });

  test("a line break at either end is trimmed, not refused; emoji, flags and every script are names as written", () => {
    expect(v.parse(CreateTracker, { ...tracker, name: "  CRM watch\r\n" }).name).toBe("CRM watch");
    // Persian and the Indic scripts write some words with the zero-width non-joiner (U+200C): "می‌خواهم".
    for (const name of [`${CODER} team ${FLAG_ENGLAND}`, "Ünïcödé GmbH", "中文 品牌", "شركة عربية", "Hill's", "می\u200cخواهم"])
      expect({ name, told: told(CreateTracker, { ...tracker, name, brand: { name } }) }).toEqual({ name, told: "ok" });
  });

  test("what is read back is never refused: a name stored before the rule is read as it is, to be shown visibly", () => {
    const stored = { name: `Acme${RLO}\nInjected`, aliases: ["A\u200bA"], domains: [] };
    expect(v.parse(BrandEntry, stored)).toEqual(stored);
    expect(v.parse(BrandLensSettings, { brand: stored, competitors: [stored] }).brand).toEqual(stored);
    expect(v.parse(Location, { country: "DE", city: `Ber${RLO}lin` }).city).toBe(`Ber${RLO}lin`);
    expect(Tracker.entries.name).toMatchObject({ type: "string" });
  });
});
