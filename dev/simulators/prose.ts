/**
 * The answer's text, split into segments that each cite zero or more pages, written for the kind
 * of question asked. `notesAt` is where extra remarks belong (before the closing line).
 */
import type { SourcePage } from "./catalogue.ts";
import { isProductName } from "./catalogue-names.ts";
import type { Intent, Side } from "./intent.ts";
import type { Plan, RankedProduct } from "./plan.ts";
import type { Rng } from "./random.ts";

export interface Segment {
  text: string;
  /** Pages this span cites; empty for uncited text. */
  sources: SourcePage[];
  /** The passage "quoted" from the cited page (Anthropic's cited_text). */
  citedText?: string;
}

/**
 * How the picks are laid out: a numbered or bulleted list with bold names, a markdown table,
 * a heading per pick, or a paragraph per pick led by its bold name.
 */
export type ListShape = "list" | "table" | "headings" | "paragraphs";

export interface Style {
  shape: ListShape;
  /** How a product's name is written. */
  nameOf(product: RankedProduct): string;
}

export function writeProse(
  rng: Rng,
  query: string,
  intent: Intent,
  plan: Plan,
  cited: readonly SourcePage[],
  style: Style,
): { segments: Segment[]; notesAt: number } {
  const segments = body(rng, query, intent, plan, cited, style);
  const last = segments.at(-1);
  return { segments, notesAt: last && CLOSING.test(last.text) ? segments.length - 1 : segments.length };
}

// ---------------------------------------------------------------------------------------------

function body(rng: Rng, query: string, intent: Intent, plan: Plan, cited: readonly SourcePage[], style: Style): Segment[] {
  const label = plan.category?.label ?? "options";
  const { products } = plan;
  switch (intent.kind) {
    case "plain": {
      const [first = "", ...rest] = intent.reply.paragraphs;
      return [cite(first, cited), ...rest.map((paragraph) => plain(`\n\n${paragraph}`))];
    }
    case "category": {
      const [featured] = intent.featured;
      const intro = featured
        ? `Here's what recent reviews say about ${featured.name}, and how it compares with its closest rivals:`
        : cited.length > 0
          ? rng.pick([
              `Based on current reviews and buyer's guides, here are the ${label} that come up most often for "${query}":`,
              `Here's a roundup of the top ${label} for "${query}", drawing on recent expert testing and user reviews:`,
              `I looked through several recent reviews for "${query}". These ${label} are the most consistently recommended:`,
            ])
          : `Here are some of the most popular ${label} for "${query}", based on what reviewers have generally recommended:`;
      return [plain(intro), ...productLines(rng, products, cited, style), ...closing(products, style)];
    }
    case "versus":
      return versus(rng, intent.sides, plan, cited, style);
    case "alternatives": {
      const x = intent.side.placement?.product.name ?? intent.side.typed;
      if (!intent.side.placement) {
        const lead = `I couldn't find reliable information about ${x}, so I can't say which tools are closest to it.`;
        if (products.length === 0) return [plain(`${lead} If you can tell me what it does or share its website, I can suggest comparable options.`)];
        return [plain(`${lead} These are the ${label} reviewers recommend most in general:`), ...productLines(rng, products, cited, style)];
      }
      const intro = rng.pick([
        `If ${x} isn't the right fit, these are the ${label} reviewers most often suggest instead:`,
        `Looking for alternatives to ${x}? These ${label} come up most often:`,
      ]);
      const [first, second] = products;
      const end =
        first && second
          ? [
              plain(
                `\n\nOverall, ${style.nameOf(first)} is the closest like-for-like replacement for ${x}, while ${style.nameOf(second)} is worth a look if you want something different.`,
              ),
            ]
          : [];
      return [plain(intro), ...productLines(rng, products, cited, style), ...end];
    }
    case "unknown": {
      const lead = `I couldn't find reliable information about ${intent.name}. No reviews, official site or listings turned up in my searches, so it may be very new, regional, or spelled differently.`;
      if (products.length === 0) return [plain(`${lead}\n\nIf you can share a link or tell me what it does, I can look again or suggest comparable options.`)];
      return [
        plain(`${lead}\n\nIf you're comparing ${label}, these are the established options reviewers recommend most:`),
        ...productLines(rng, products, cited, style),
        plain(`\n\nOnce you find ${intent.name}'s official site, compare its pricing and features against these.`),
      ];
    }
    case "generic": {
      const topic = intent.topic;
      return [
        plain(`I couldn't find a reliable, up-to-date ranking of ${topic}, so rather than guess at specific products, here's how to choose well:`),
        plain(
          `\n\n1. **Start from how you'll use it**: the best ${topic} for one person can be wrong for another.\n2. **Read recent, independent reviews** and long-term owner feedback, not just star ratings.\n3. **Compare the total cost**, including accessories, subscriptions or shipping.\n4. **Check the return policy and warranty** before you buy.`,
        ),
        plain("\n\nIf you tell me your budget and what matters most, I can look for specific options."),
      ];
    }
  }
}

/** Each known side described and cited, an unknown side said to be unknown, then a verdict. */
function versus(rng: Rng, sides: Side[], plan: Plan, cited: readonly SourcePage[], style: Style): Segment[] {
  const known = plan.products.filter((p) => sides.some((side) => side.placement?.product.name === p.name));
  const unknown = sides.filter((side) => !side.placement).map((side) => side.typed);
  const extras = plan.products.filter((p) => !known.includes(p));
  if (known.length === 0)
    return [
      plain(
        `I couldn't find reliable information about either ${unknown.join(" or ")}, so I can't compare them. If you can share links or tell me what they do, I can look again.`,
      ),
    ];
  const names = sides.map((side) => side.placement?.product.name ?? side.typed);
  const intro =
    unknown.length === 0
      ? rng.pick([
          `${names.join(" and ")} are both popular ${plan.category?.label ?? "choices"}, but they suit different needs. Here's how they compare:`,
          `Here's how ${names.join(" and ")} compare, based on recent reviews and comparisons:`,
        ])
      : `Here's what I found for ${names.join(" vs ")}:`;
  const citeFor = assignCitations(rng, known.length, cited);
  const segments: Segment[] = [plain(intro)];
  known.forEach((product, i) => segments.push(...line(`\n\n**${style.nameOf(product)}**${maker(product)}: `, product, citeFor[i] ?? [])));
  for (const name of unknown)
    segments.push(
      plain(`\n\nI couldn't find reliable information about ${name}, so I can't compare it fairly; it may be very new, regional, or spelled differently.`),
    );
  const [first, second] = known;
  if (first && second)
    segments.push(
      plain(
        `\n\n**Bottom line:** ${style.nameOf(first)} is the safer pick for most people, while ${style.nameOf(second)} is the better choice if its strengths above match how you work.`,
      ),
    );
  if (extras.length > 0)
    segments.push(
      plain(
        `\n\nIf neither fits, ${extras.map((p) => `**${style.nameOf(p)}**${maker(p)}`).join(" and ")} ${extras.length > 1 ? "are" : "is"} also worth a look.`,
      ),
    );
  return segments;
}

/** The products in the style's shape; every cited page is used at least once. */
function productLines(rng: Rng, products: readonly RankedProduct[], cited: readonly SourcePage[], style: Style): Segment[] {
  const citeFor = assignCitations(rng, products.length, cited);
  switch (style.shape) {
    case "table": {
      const header = plain("\n\n| # | Product | Maker | Why it stands out |\n|---|---|---|---|");
      return [header, ...products.flatMap((p, i) => line(`\n| ${p.rank} | ${style.nameOf(p)} | ${p.company} | `, p, citeFor[i] ?? [], " |"))];
    }
    case "headings":
      return products.flatMap((p, i) => line(`\n\n### ${p.rank}. ${style.nameOf(p)}\n\n`, p, citeFor[i] ?? []));
    case "paragraphs":
      return products.flatMap((p, i) => line(`\n\n**${style.nameOf(p)}**${maker(p)} — `, p, citeFor[i] ?? []));
    case "list": {
      const bullet = rng.chance(0.7) ? (p: RankedProduct) => `${p.rank}. ` : () => "- ";
      return products.flatMap((p, i) => line(`\n\n${bullet(p)}**${style.nameOf(p)}**${maker(p)}: `, p, citeFor[i] ?? []));
    }
  }
}

/** A product's claim after its head, the claim citing its pages. */
function line(head: string, product: RankedProduct, sources: SourcePage[], tail = "."): Segment[] {
  const claim = `${product.details}${tail}`;
  if (sources.length === 0) return [plain(head + claim)];
  return [plain(head), { text: claim, sources, citedText: `${product.name}: ${product.details}. ${sources[0]?.title ?? ""}`.slice(0, 150) }];
}

function closing(products: readonly RankedProduct[], style: Style): Segment[] {
  const [first, second] = products;
  if (!first || !second) return [];
  return [
    plain(
      `\n\nOverall, ${style.nameOf(first)} is the most widely recommended pick, with ${style.nameOf(second)} a close second; the right choice depends on your budget and priorities.`,
    ),
  ];
}

/** " (Maker)", left out when the maker is also a product's name ("HelloFresh"), as it would read as that product. */
function maker(product: RankedProduct): string {
  return isProductName(product.company) ? "" : ` (${product.company})`;
}

function plain(text: string): Segment {
  return { text, sources: [] };
}

function cite(text: string, sources: readonly SourcePage[]): Segment {
  return { text, sources: [...sources], ...(sources.length > 0 ? { citedText: text.slice(0, 150) } : {}) };
}

/** Every cited page is used at least once; some lines cite nothing. */
function assignCitations(rng: Rng, lines: number, cited: readonly SourcePage[]): SourcePage[][] {
  const out: SourcePage[][] = Array.from({ length: lines }, () => []);
  if (lines === 0) return out;
  const order = rng.shuffle(out.map((_, i) => i));
  cited.forEach((page, i) => out[order[i % lines] ?? 0]?.push(page));
  for (const list of out) if (list.length > 0 && cited.length > 1 && rng.chance(0.2)) list.push(rng.pick(cited.filter((p) => !list.includes(p))));
  return out.map((list) => [...new Set(list)]);
}

const CLOSING = /^\n\n(?:Overall|\*\*Bottom line|Once you find|If neither fits)/;
