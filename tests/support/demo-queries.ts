/**
 * Queries a first-time visitor tries in the keyless demo, with what a right answer holds: the
 * search form's three examples, everyday shopping queries, comparisons, brand and product
 * queries, and questions that are not about products. tests/integration/demo-queries.test.ts
 * checks them through the real search path; scripts/demo-queries.ts prints what came back.
 */
export type DemoExpectation =
  /** Products of this catalogue category only; `named` among them in every answer, `absent` never. */
  | { kind: "products"; category: string; named?: string[]; companies?: string[]; absent?: string[]; first?: string }
  /** A plain or honest answer: no products, no companies; the text says `says`; `foundNothing`: it cites no page. */
  | { kind: "none"; says: RegExp; foundNothing?: true }
  /** An honest "couldn't find X": X is never a product; any products are from `category`. */
  | { kind: "unknown"; name: string; category?: string };

export interface DemoQuery {
  query: string;
  why: string;
  expect: DemoExpectation;
}

export const demoQueries: DemoQuery[] = [
  { query: "best CRM for startups", why: "placeholder example", expect: { kind: "products", category: "crm-software" } },
  { query: "top running shoes 2026", why: "placeholder example", expect: { kind: "products", category: "running-shoes" } },
  {
    query: "Notion vs Confluence",
    why: "placeholder example (comparison)",
    expect: { kind: "products", category: "team-wikis", named: ["Notion", "Confluence"], companies: ["Notion Labs", "Atlassian"] },
  },
  { query: "what is the capital of France", why: "not about products", expect: { kind: "none", says: /Paris/ } },
  { query: "how do I boil an egg", why: "not about products (how-to)", expect: { kind: "none", says: /boil/i } },
  { query: "what is a CRM", why: "definition, not a shopping list", expect: { kind: "none", says: /customer relationship/i } },
  { query: "alternatives to Figma", why: "alternatives", expect: { kind: "products", category: "design-tools", absent: ["Figma"] } },
  { query: "Slack vs Microsoft Teams", why: "comparison", expect: { kind: "products", category: "team-chat", named: ["Slack", "Microsoft Teams"] } },
  { query: "iPhone vs Pixel", why: "comparison by product line", expect: { kind: "products", category: "smartphones", companies: ["Apple", "Google"] } },
  {
    query: "Zoom vs Google Meet",
    why: "comparison, a brand that is an ordinary word",
    expect: { kind: "products", category: "video-conferencing", named: ["Zoom Workplace", "Google Meet"] },
  },
  { query: "best mechanical keyboards", why: "everyday category", expect: { kind: "products", category: "keyboards" } },
  { query: "best noise cancelling headphones", why: "everyday category", expect: { kind: "products", category: "noise-cancelling-headphones" } },
  { query: "cheapest car insurance for young drivers", why: "service with a qualifier", expect: { kind: "products", category: "car-insurance" } },
  { query: "best password manager for families", why: "software with a qualifier", expect: { kind: "products", category: "password-managers" } },
  { query: "best espresso machine under 500", why: "price cap, synonym of the category", expect: { kind: "products", category: "coffee-machines" } },
  { query: "best laptop for video editing", why: "qualifier names another category's words", expect: { kind: "products", category: "laptops" } },
  { query: "best online bank for freelancers", why: "finance", expect: { kind: "products", category: "online-banks" } },
  { query: "best budget travel backpack", why: "travel, budget", expect: { kind: "products", category: "travel-backpacks" } },
  { query: "best VPN for Netflix", why: "the old fallback category, asked for", expect: { kind: "products", category: "vpns" } },
  { query: "best meal kit for families", why: "the old fallback category, asked for", expect: { kind: "products", category: "meal-kit-delivery" } },
  { query: "best Sony headphones", why: "brand in the query", expect: { kind: "products", category: "noise-cancelling-headphones", companies: ["Sony"] } },
  {
    query: "Sony WH-1000XM6 review",
    why: "product in the query",
    expect: { kind: "products", category: "noise-cancelling-headphones", first: "Sony WH-1000XM6" },
  },
  { query: "Zorblax CRM reviews", why: "unknown product", expect: { kind: "unknown", name: "Zorblax", category: "crm-software" } },
  {
    query: "best left handed scissors",
    why: "product question outside the catalogue",
    expect: { kind: "none", says: /left handed scissors/i, foundNothing: true },
  },
];
