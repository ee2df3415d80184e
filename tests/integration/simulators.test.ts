// The provider simulators, driven only through the official SDKs in the exact request shapes our
// adapters send. Anything asserted here is something a real adapter can rely on.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import Perplexity from "@perplexity-ai/perplexity_ai";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import { extractionRequest, withExtractionInstructions } from "#src/core/extraction/extract.ts";
import { parseVariants, variantsRequest } from "#src/core/variants.ts";
import { anthropicAdapter } from "#src/server/services/providers/anthropic.ts";
import { geminiAdapter } from "#src/server/services/providers/gemini.ts";
import { openaiAdapter } from "#src/server/services/providers/openai.ts";
import { perplexityAdapter } from "#src/server/services/providers/perplexity.ts";
import type { AdapterConfig, ProviderAdapter } from "#src/server/services/providers/types.ts";
import { catalogue } from "#dev/simulators/catalogue.ts";
import { DEMO_RUN_EFFECTS, startSimulator, type RunEffects, type Simulator } from "#dev/simulators/index.ts";
import { matchCategory } from "#dev/simulators/matching.ts";
import { createRunEffects } from "#dev/simulators/run-effects.ts";
import { waitFor } from "#tests/support/wait.ts";

const INSTRUCTION =
  'List the products and companies you recommend. After your answer, add a fenced ```json block with {"products":[{"name","rank","details"}],"companies":[{"name","products"}]}.';
const prompt = (query: string) => `${query}\n\n${INSTRUCTION}`;
const runningShoeCompanies = new Set(catalogue.find((c) => c.id === "running-shoes")?.products.map((p) => p.company));
const runningShoeProducts = new Set(catalogue.find((c) => c.id === "running-shoes")?.products.map((p) => p.name));

let sim: Simulator;
beforeAll(() => {
  sim = startSimulator({ latency: { kind: "fixed", ms: 2 }, seed: 20261121 });
});
afterAll(async () => {
  await sim.stop();
});
beforeEach(() => {
  sim.clearFaults();
});

const openai = (apiKey = "sk-test") => new OpenAI({ apiKey, baseURL: sim.baseUrls.openai, maxRetries: 0 });
const anthropic = (apiKey = "sk-ant-test") => new Anthropic({ apiKey, baseURL: sim.baseUrls.anthropic, maxRetries: 0 });
const gemini = (apiKey = "AIza-test") => new GoogleGenAI({ apiKey, apiVersion: "v1beta", httpOptions: { baseUrl: sim.baseUrls.gemini } });

function openaiSearch(query: string, options: { signal?: AbortSignal; client?: OpenAI } = {}) {
  return (options.client ?? openai()).responses.create(
    { model: "gpt-5-mini", input: prompt(query), tools: [{ type: "web_search", search_context_size: "medium" }], include: ["web_search_call.action.sources"] },
    { signal: options.signal },
  );
}

const anthropicTools: Anthropic.Messages.ToolUnion[] = [{ type: "web_search_20250305", name: "web_search", max_uses: 3 }];

function anthropicSearch(query: string, options: { signal?: AbortSignal; messages?: Anthropic.Messages.MessageParam[] } = {}) {
  return anthropic().messages.create(
    {
      model: "claude-sonnet-4-6",
      max_tokens: 4096,
      messages: options.messages ?? [{ role: "user", content: prompt(query) }],
      tools: anthropicTools,
      tool_choice: { type: "tool", name: "web_search" },
    },
    { signal: options.signal },
  );
}

function geminiSearch(query: string, options: { signal?: AbortSignal; client?: GoogleGenAI } = {}) {
  return (options.client ?? gemini()).models.generateContent({
    model: "gemini-2.5-flash",
    contents: prompt(query),
    config: { tools: [{ googleSearch: {} }], ...(options.signal ? { abortSignal: options.signal } : {}) },
  });
}

/** The products of the answer's ```json block. */
function jsonBlock(text: string): { products: { name: string; rank: number; details: string }[]; companies: { name: string; products: string[] }[] } {
  const fenced = /```json\n([\s\S]*?)\n```/.exec(text);
  if (!fenced?.[1]) throw new Error(`no json block in: ${text.slice(-300)}`);
  return JSON.parse(fenced[1]);
}

async function rejection(promise: Promise<unknown>): Promise<Error & { status?: number; headers?: Headers }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { status?: number };
  }
  throw new Error("expected the call to fail");
}

describe("search answers", () => {
  test("OpenAI: web_search_call items with sources, then a message with url_citation annotations", async () => {
    const response = await openaiSearch("best running shoes for beginners");
    expect(response.object).toBe("response");
    expect(response.model).toBe("gpt-5-mini");
    expect(response._request_id).toMatch(/^req_/);
    const calls = response.output.filter((item) => item.type === "web_search_call");
    expect(calls.length).toBeGreaterThanOrEqual(1);
    const retrieved = new Set<string>();
    for (const call of calls) {
      if (call.type !== "web_search_call" || call.action.type !== "search") throw new Error("expected a search action");
      expect(call.action.query).toBeString();
      expect(call.action.queries?.length).toBeGreaterThanOrEqual(1);
      for (const source of call.action.sources ?? []) retrieved.add(source.url);
    }
    const message = response.output.find((item) => item.type === "message");
    if (message?.type !== "message") throw new Error("no message");
    const part = message.content[0];
    if (part?.type !== "output_text") throw new Error("no output_text");
    const cited = new Set<string>();
    for (const annotation of part.annotations) {
      if (annotation.type !== "url_citation") throw new Error("unexpected annotation");
      expect(retrieved.has(annotation.url)).toBe(true);
      expect(annotation.title).toBeString();
      expect(annotation.end_index).toBeGreaterThan(annotation.start_index);
      expect(part.text.slice(annotation.start_index, annotation.end_index).trim().length).toBeGreaterThan(10);
      cited.add(annotation.url);
    }
    expect(cited.size).toBeGreaterThanOrEqual(2);
    expect(retrieved.size).toBeGreaterThan(cited.size);
    expect(response.usage?.input_tokens).toBeGreaterThan(0);
    expect(response.usage?.output_tokens).toBeGreaterThan(0);
    const block = jsonBlock(response.output_text);
    expect(block.products.length).toBeGreaterThanOrEqual(5);
    expect(block.products.map((p) => p.rank)).toEqual(block.products.map((_, i) => i + 1));
  });

  test("OpenAI: sources only when include asks for them", async () => {
    const response = await openai().responses.create({
      model: "gpt-5-mini",
      input: prompt("best crm"),
      tools: [{ type: "web_search", search_context_size: "low" }],
    });
    const call = response.output.find((item) => item.type === "web_search_call");
    if (call?.type !== "web_search_call" || call.action.type !== "search") throw new Error("expected a search action");
    expect(call.action.sources).toBeUndefined();
  });

  test("Anthropic: server_tool_use + web_search_tool_result per search, text blocks with and without citations", async () => {
    const message = await anthropicSearch("best running shoes for beginners");
    expect(message.model).toBe("claude-sonnet-4-6");
    expect(message.stop_reason).toBe("end_turn");
    const uses = message.content.filter((block) => block.type === "server_tool_use");
    const results = message.content.filter((block) => block.type === "web_search_tool_result");
    expect(uses.length).toBeGreaterThanOrEqual(1);
    expect(uses.length).toBeLessThanOrEqual(3);
    expect(results.length).toBe(uses.length);
    expect(message.usage.server_tool_use?.web_search_requests).toBe(uses.length);
    const retrieved = new Set<string>();
    for (const [i, use] of uses.entries()) {
      if (use.type !== "server_tool_use") throw new Error("unreachable");
      expect((use.input as { query: string }).query).toBeString();
      expect(use.caller).toEqual({ type: "direct" });
      const result = results[i];
      if (result?.type !== "web_search_tool_result" || !Array.isArray(result.content)) throw new Error("expected results");
      expect(result.tool_use_id).toBe(use.id);
      for (const item of result.content) {
        expect(item.encrypted_content.length).toBeGreaterThan(50);
        retrieved.add(item.url);
      }
    }
    const texts = message.content.filter((block) => block.type === "text");
    expect(texts.some((block) => block.type === "text" && block.citations === null)).toBe(true);
    const cited = new Set<string>();
    for (const block of texts) {
      if (block.type !== "text") continue;
      for (const citation of block.citations ?? []) {
        if (citation.type !== "web_search_result_location") throw new Error("unexpected citation type");
        expect(retrieved.has(citation.url)).toBe(true);
        expect(citation.cited_text.length).toBeGreaterThan(0);
        expect(citation.encrypted_index).toBeString();
        cited.add(citation.url);
      }
    }
    expect(cited.size).toBeGreaterThanOrEqual(2);
    expect(retrieved.size).toBeGreaterThan(cited.size);
    const text = texts.map((block) => (block.type === "text" ? block.text : "")).join("");
    expect(jsonBlock(text).products.length).toBeGreaterThanOrEqual(5);
  });

  test("Anthropic: never more searches than max_uses", async () => {
    for (let i = 0; i < 5; i++) {
      const message = await anthropic().messages.create({
        model: "claude-sonnet-4-6",
        max_tokens: 2048,
        messages: [{ role: "user", content: prompt("best vpn") }],
        tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 1 }],
        tool_choice: { type: "tool", name: "web_search" },
      });
      expect(message.content.filter((block) => block.type === "server_tool_use").length).toBe(1);
    }
  });

  test("Gemini: text, grounding metadata, and redirects that resolve to real https URLs", async () => {
    const response = await geminiSearch("best running shoes for beginners");
    expect(response.modelVersion).toBe("gemini-2.5-flash");
    expect(response.responseId).toBeString();
    expect(response.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
    const metadata = response.candidates?.[0]?.groundingMetadata;
    expect(metadata?.webSearchQueries?.length).toBeGreaterThanOrEqual(1);
    expect(metadata?.searchEntryPoint?.renderedContent).toContain("<div");
    const chunks = metadata?.groundingChunks ?? [];
    expect(chunks.length).toBeGreaterThanOrEqual(6);
    for (const chunk of chunks) {
      const uri = chunk.web?.uri ?? "";
      expect(uri.startsWith(`${sim.origin}/grounding-api-redirect/`)).toBe(true);
      const redirect = await fetch(uri, { redirect: "manual" });
      expect(redirect.status).toBe(302);
      const location = redirect.headers.get("location") ?? "";
      expect(location).toMatch(/^https:\/\//);
      expect(new URL(location).hostname.replace(/^www\./, "")).toBe(chunk.web?.title ?? "");
    }
    const head = await fetch(chunks[0]?.web?.uri ?? "", { method: "HEAD", redirect: "manual" });
    expect(head.status).toBe(302);
    expect((await fetch(`${sim.origin}/grounding-api-redirect/AUZIYQgarbled`, { redirect: "manual" })).status).toBe(404);
    const tampered = (chunks[0]?.web?.uri ?? "").replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect((await fetch(tampered, { redirect: "manual" })).status).toBe(404);

    const supports = metadata?.groundingSupports ?? [];
    expect(supports.length).toBeGreaterThanOrEqual(2);
    const bytes = new TextEncoder().encode(response.text ?? "");
    for (const support of supports) {
      const { startIndex = 0, endIndex = 0, text } = support.segment ?? {};
      expect(new TextDecoder().decode(bytes.slice(startIndex, endIndex))).toBe(text ?? "");
      for (const index of support.groundingChunkIndices ?? []) expect(index).toBeLessThan(chunks.length);
    }
    const citedChunks = new Set(supports.flatMap((s) => s.groundingChunkIndices ?? []));
    expect(chunks.length).toBeGreaterThan(citedChunks.size);
    expect(jsonBlock(response.text ?? "").products.length).toBeGreaterThanOrEqual(5);
  });

  test("Gemini: the v1 path works too", async () => {
    const client = new GoogleGenAI({ apiKey: "AIza-test", apiVersion: "v1", httpOptions: { baseUrl: sim.baseUrls.gemini } });
    const response = await geminiSearch("best password manager", { client });
    expect(response.text).toContain("```json");
    expect(sim.requests.at(-1)?.path).toBe("/v1/models/gemini-2.5-flash:generateContent");
  });

  test("a running-shoes query yields running-shoe brands from every provider", async () => {
    const [o, a, g] = await Promise.all([
      openaiSearch("What are the best running shoes?"),
      anthropicSearch("What are the best running shoes?"),
      geminiSearch("What are the best running shoes?"),
    ]);
    const anthropicText = a.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    for (const text of [o.output_text, anthropicText, g.text ?? ""]) {
      const block = jsonBlock(text);
      for (const product of block.products) expect(runningShoeProducts.has(product.name)).toBe(true);
      for (const company of block.companies) expect(runningShoeCompanies.has(company.name)).toBe(true);
    }
  });

  test("repeated answers differ, and popular products come back most often", async () => {
    const local = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 7 });
    try {
      const client = new GoogleGenAI({ apiKey: "k", apiVersion: "v1beta", httpOptions: { baseUrl: local.baseUrls.gemini } });
      const runs = await Promise.all(Array.from({ length: 40 }, () => geminiSearch("best running shoes", { client })));
      const lists = runs.map((r) => jsonBlock(r.text ?? "").products.map((p) => p.name));
      expect(new Set(lists.map((l) => l.join("|"))).size).toBeGreaterThan(30);
      expect(new Set(runs.map((r) => r.candidates?.[0]?.groundingMetadata?.webSearchQueries?.join("|"))).size).toBeGreaterThan(3);
      const count = (name: string) => lists.filter((l) => l.includes(name)).length;
      expect(count("Nike Pegasus 41")).toBeGreaterThan(count("Saucony Ride 17"));
      expect(count("Brooks Ghost 16")).toBeGreaterThan(count("Saucony Ride 17"));
    } finally {
      await local.stop();
    }
  });

  test("a product query outside the catalogue gets an honest answer about its own words, never another category's products", async () => {
    const response = await openaiSearch("zxqv frobnicator recommendations");
    expect(response.output_text).toContain("zxqv frobnicator");
    expect(jsonBlock(response.output_text).products).toEqual([]);
  });

  test("the log records provider, path, kind and body", async () => {
    sim.clearLog();
    await openaiSearch("best crm");
    const [entry] = sim.requests;
    expect(entry?.provider).toBe("openai");
    expect(entry?.path).toBe("/v1/responses");
    expect(entry?.kind).toBe("search");
    expect((entry?.body as { input: string }).input).toBe(prompt("best crm"));
  });
});

describe("extraction calls", () => {
  const answer = "Top picks: the Hoka Clifton 9 is great, and Nike Pegasus 41 is a classic. Brooks also makes the Brooks Ghost 16.";
  const schema = {
    type: "object",
    properties: {
      products: {
        type: "array",
        items: {
          type: "object",
          properties: { name: { type: "string" }, rank: { type: "number" }, details: { type: "string" } },
          required: ["name", "rank", "details"],
          additionalProperties: false,
        },
      },
      companies: {
        type: "array",
        items: {
          type: "object",
          properties: { name: { type: "string" }, products: { type: "array", items: { type: "string" } } },
          required: ["name", "products"],
          additionalProperties: false,
        },
      },
    },
    required: ["products", "companies"],
    additionalProperties: false,
  };
  const extractionPrompt = `Extract every product and company named in this answer.\n\n${answer}`;
  const expected = {
    products: ["Hoka Clifton 9", "Nike Pegasus 41", "Brooks Ghost 16"],
    companies: [
      { name: "Hoka", products: ["Hoka Clifton 9"] },
      { name: "Nike", products: ["Nike Pegasus 41"] },
      { name: "Brooks", products: ["Brooks Ghost 16"] },
    ],
  };
  type Extracted = { products: { name: string; rank: number; details: string }[]; companies: { name: string; products: string[] }[] };
  const check = (value: Extracted) => {
    expect(value.products.map((p) => p.name)).toEqual(expected.products);
    expect(value.products.map((p) => p.rank)).toEqual([1, 2, 3]);
    expect(value.products[0]?.details).toBeString();
    expect(value.companies).toEqual(expected.companies);
  };

  test("OpenAI: json_schema text format → output_text is the JSON", async () => {
    const response = await openai().responses.create({
      model: "gpt-5-mini",
      input: extractionPrompt,
      text: { format: { type: "json_schema", name: "extraction", schema, strict: true } },
    });
    expect(response.output.some((item) => item.type === "web_search_call")).toBe(false);
    check(JSON.parse(response.output_text));
    expect(sim.requests.at(-1)?.kind).toBe("extraction");
  });

  test("Anthropic: forced record_extraction tool → tool_use input", async () => {
    const message = await anthropic().messages.create({
      model: "claude-sonnet-4-6",
      max_tokens: 2048,
      messages: [{ role: "user", content: extractionPrompt }],
      tools: [{ name: "record_extraction", description: "Record the products and companies", input_schema: schema as Anthropic.Messages.Tool.InputSchema }],
      tool_choice: { type: "tool", name: "record_extraction" },
    });
    expect(message.stop_reason).toBe("tool_use");
    const block = message.content[0];
    if (block?.type !== "tool_use") throw new Error("expected tool_use");
    expect(block.name).toBe("record_extraction");
    check(block.input as Extracted);
    expect(sim.requests.at(-1)?.kind).toBe("extraction");
  });

  test("Gemini: responseJsonSchema → text is the JSON", async () => {
    const response = await gemini().models.generateContent({
      model: "gemini-2.5-flash",
      contents: extractionPrompt,
      config: { responseMimeType: "application/json", responseJsonSchema: schema },
    });
    expect(response.candidates?.[0]?.groundingMetadata).toBeUndefined();
    check(JSON.parse(response.text ?? ""));
    expect(sim.requests.at(-1)?.kind).toBe("extraction");
  });
});

describe("variants calls", () => {
  const models = { openai: "gpt-5-mini", anthropic: "claude-sonnet-4-6", gemini: "gemini-2.5-flash", perplexity: "perplexity/sonar" } satisfies Record<
    ProviderId,
    string
  >;
  const builders = { openai: openaiAdapter, anthropic: anthropicAdapter, gemini: geminiAdapter, perplexity: perplexityAdapter } satisfies Record<
    ProviderId,
    (config: AdapterConfig) => ProviderAdapter
  >;
  /** The app's own adapter for a provider, pointed at a simulator. */
  const adapter = (id: ProviderId, on: Simulator = sim) =>
    builders[id]({ apiKey: "simulated-key", baseURL: on.baseUrls[id], model: models[id], simulated: true });
  const productNames = catalogue.flatMap((c) => c.products.map((p) => p.name));

  /** Five variants of a query through the real adapter, each new and with a reasoning; the request logged as "variants". */
  async function variantsOf(id: ProviderId, query: string, on: Simulator = sim) {
    const variants = parseVariants((await adapter(id, on).structured(variantsRequest(query), AbortSignal.timeout(10_000))).value, query);
    expect(on.requests.at(-1)?.kind).toBe("variants");
    expect(variants).toHaveLength(5);
    for (const variant of variants) {
      expect(variant.query.toLowerCase()).not.toBe(query.toLowerCase());
      expect(variant.reasoning.trim().length).toBeGreaterThan(0);
    }
    return variants;
  }

  for (const id of providerIds) {
    test(`${id}: "best running shoes" → five variants about running shoes`, async () => {
      const aboutRunning = (query: string) =>
        /\b(running|shoes?|runners?)\b/i.test(query) || [...runningShoeCompanies, ...runningShoeProducts].some((name) => query.includes(name));
      for (const { query } of await variantsOf(id, "best running shoes")) expect(aboutRunning(query) ? "" : query).toBe("");
    });

    test(`${id}: "Notion vs Confluence" → variants from the query's own words`, async () => {
      for (const { query } of await variantsOf(id, "Notion vs Confluence")) {
        expect(query).toMatch(/notion|confluence|documentation|wiki/i);
        expect(query).not.toMatch(/vpn/i);
        expect(productNames.filter((name) => name !== "Notion" && name !== "Confluence" && query.includes(name))).toEqual([]);
      }
    });
  }

  test('a question outside the catalogue ("what is the capital of France") is rephrased, not answered with products', async () => {
    for (const { query } of await variantsOf("gemini", "what is the capital of France")) {
      expect(query).toMatch(/capital|france/i);
      expect(productNames.filter((name) => query.includes(name))).toEqual([]);
    }
  });

  test("every catalogue category's query gets variants about that category, never another's products", async () => {
    for (const category of catalogue) {
      const own = new Set(category.products.flatMap((p) => [p.name, p.company]));
      // Another category's product, unless one of this category's names contains it ("Sony WF-1000XM5 Earbuds").
      const others = productNames.filter((name) => ![...own].some((mine) => mine.includes(name)));
      for (const { query } of await variantsOf("openai", `best ${category.label}`)) {
        const about = matchCategory(query)?.id === category.id || [...own].some((name) => query.includes(name));
        expect(about ? category.id : `${category.id}: ${query}`).toBe(category.id);
        expect(others.filter((name) => query.includes(name))).toEqual([]);
      }
    }
  });

  test("on the wire: OpenAI's format name, Anthropic's forced record_variants tool, Gemini's responseJsonSchema with a variants property", async () => {
    const bodies = [];
    for (const id of providerIds) {
      await variantsOf(id, "best crm");
      bodies.push(sim.requests.at(-1)?.body as Record<string, any>);
    }
    const [openaiBody, anthropicBody, geminiBody] = bodies;
    expect(openaiBody?.text.format).toMatchObject({ type: "json_schema", name: "variants", strict: true });
    expect(anthropicBody?.tool_choice).toEqual({ type: "tool", name: "record_variants" });
    expect(geminiBody?.generationConfig.responseMimeType).toBe("application/json");
    expect(Object.keys(geminiBody?.generationConfig.responseJsonSchema.properties)).toEqual(["variants"]);
  });

  test("the extraction call through the same adapters is still logged as extraction", async () => {
    for (const id of providerIds) {
      const { value } = await adapter(id).structured(extractionRequest("The Hoka Clifton 9 and the Nike Pegasus 41 lead."), AbortSignal.timeout(10_000));
      expect(sim.requests.at(-1)?.kind).toBe("extraction");
      expect((value as { products: { name: string }[] }).products.map((p) => p.name)).toEqual(["Hoka Clifton 9", "Nike Pegasus 41"]);
    }
  });

  test("reproducible from the seed, varied from one call to the next", async () => {
    const [one, two] = [startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 42 }), startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 42 })];
    try {
      const runs = async (on: Simulator) => {
        const out = [];
        for (let i = 0; i < 4; i++) out.push((await variantsOf("anthropic", "best noise cancelling headphones", on)).map((v) => v.query).join(" | "));
        return out;
      };
      const first = await runs(one);
      expect(await runs(two)).toEqual(first);
      expect(new Set(first).size).toBeGreaterThan(1);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });

  test("a seed gives the same answers whatever order concurrent calls arrive in (a tracker run's iterations are sent at once)", async () => {
    const [one, two] = [startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 42 }), startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 42 })];
    try {
      const calls = providerIds.flatMap((id) =>
        ["best crm for startups", "best running shoes"].flatMap((query) => Array.from({ length: 4 }, () => ({ id, query }))),
      );
      // The same calls, all at once, in one order and in its reverse.
      const answers = async (on: Simulator, order: typeof calls) =>
        (await Promise.all(order.map(async ({ id, query }) => `${id} ${query}: ${(await ask(id, query, on)).text}`))).toSorted();
      const first = await answers(one, calls);
      expect(await answers(two, calls.toReversed())).toEqual(first);
      // Still varied from one call to the next.
      expect(new Set(first).size).toBeGreaterThan(providerIds.length * 2);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });
});

describe("faults", () => {
  test("rate_limit → 429 with retry-after, in each provider's own error", async () => {
    sim.setFaults("openai", [{ kind: "rate_limit", retryAfterSeconds: 7 }]);
    sim.setFaults("anthropic", [{ kind: "rate_limit", retryAfterSeconds: 7 }]);
    sim.setFaults("gemini", [{ kind: "rate_limit", retryAfterSeconds: 7 }]);
    const o = await rejection(openaiSearch("best crm"));
    expect(o).toBeInstanceOf(OpenAI.RateLimitError);
    expect(o.status).toBe(429);
    expect(o.headers?.get("retry-after")).toBe("7");
    const a = await rejection(anthropicSearch("best crm"));
    expect(a).toBeInstanceOf(Anthropic.RateLimitError);
    expect(a.headers?.get("retry-after")).toBe("7");
    expect((a as InstanceType<typeof Anthropic.APIError>).type).toBe("rate_limit_error");
    const g = await rejection(geminiSearch("best crm"));
    expect(g.status).toBe(429);
    expect(g.message).toContain("RESOURCE_EXHAUSTED");
    expect(g.message).toContain('"retryDelay":"7s"');
    // One fault each: the next request is normal.
    expect(jsonBlock((await openaiSearch("best crm")).output_text).products.length).toBeGreaterThan(0);
  });

  test("server_error → 500", async () => {
    for (const provider of ["openai", "anthropic", "gemini"] as const) sim.setFaults(provider, [{ kind: "server_error" }]);
    const o = await rejection(openaiSearch("best crm"));
    expect(o).toBeInstanceOf(OpenAI.InternalServerError);
    expect(o.status).toBe(500);
    const a = await rejection(anthropicSearch("best crm"));
    expect(a).toBeInstanceOf(Anthropic.InternalServerError);
    expect(a.status).toBe(500);
    expect((a as InstanceType<typeof Anthropic.APIError>).type).toBe("api_error");
    const g = await rejection(geminiSearch("best crm"));
    expect(g.status).toBe(500);
    expect(g.message).toContain("INTERNAL");
  });

  test("overloaded → 503 (OpenAI), 529 overloaded_error (Anthropic), 503 UNAVAILABLE (Gemini)", async () => {
    for (const provider of ["openai", "anthropic", "gemini"] as const) sim.setFaults(provider, [{ kind: "overloaded" }]);
    const o = await rejection(openaiSearch("best crm"));
    expect(o.status).toBe(503);
    const a = await rejection(anthropicSearch("best crm"));
    expect(a.status).toBe(529);
    expect(a).toBeInstanceOf(Anthropic.InternalServerError);
    expect((a as InstanceType<typeof Anthropic.APIError>).type).toBe("overloaded_error");
    expect(a.headers?.get("request-id")).toMatch(/^req_/);
    const g = await rejection(geminiSearch("best crm"));
    expect(g.status).toBe(503);
    expect(g.message).toContain("UNAVAILABLE");
  });

  test("malformed_json → a JSON parse error, not an answer", async () => {
    for (const provider of ["openai", "anthropic", "gemini"] as const) sim.setFaults(provider, [{ kind: "malformed_json" }]);
    for (const call of [() => openaiSearch("best crm"), () => anthropicSearch("best crm"), () => geminiSearch("best crm")]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(SyntaxError);
    }
  });

  test("connection_reset → a connection error", async () => {
    for (const provider of ["openai", "anthropic", "gemini"] as const) sim.setFaults(provider, [{ kind: "connection_reset" }]);
    expect(await rejection(openaiSearch("best crm"))).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(await rejection(anthropicSearch("best crm"))).toBeInstanceOf(Anthropic.APIConnectionError);
    const g = await rejection(geminiSearch("best crm"));
    expect(g.status).toBeUndefined();
    expect(`${g.name} ${g.message} ${String((g as { code?: string }).code)}`).toMatch(/ECONNRESET|socket|connection|fetch failed/i);
  });

  test("timeout → hangs until the client aborts; the abort is recorded", async () => {
    const cases = [
      ["openai", (signal?: AbortSignal) => openaiSearch("best crm", { signal }), OpenAI.APIUserAbortError],
      ["anthropic", (signal?: AbortSignal) => anthropicSearch("best crm", { signal }), Anthropic.APIUserAbortError],
      ["gemini", (signal?: AbortSignal) => geminiSearch("best crm", { signal }), undefined],
    ] as const;
    for (const [provider, call, errorClass] of cases) {
      sim.setFaults(provider, [{ kind: "timeout" }]);
      const seen: number[] = [];
      const unsubscribe = sim.onAbort((abort) => abort.provider === provider && seen.push(abort.atMs));
      const controller = new AbortController();
      const before = sim.requests.length;
      let settled = false;
      const pending = rejection(call(controller.signal));
      const settle = () => void (settled = true);
      pending.then(settle, settle);
      await waitFor(() => sim.requests.slice(before).some((request) => request.fault === "timeout"), { what: `${provider}'s request taken in` });
      // A request made after it is answered: the hung one, ahead of it, would have been answered by now.
      await call();
      expect(settled).toBe(false);
      controller.abort();
      const error = await pending;
      if (errorClass) expect(error).toBeInstanceOf(errorClass);
      else expect(error.name).toMatch(/Abort/);
      // How soon is bench/cancel.ts's to measure; here, that the simulator saw the close.
      await waitFor(() => seen.length > 0, { what: `the close of ${provider}'s request` });
      unsubscribe();
      expect(seen.length).toBe(1);
      expect(sim.aborts.at(-1)?.provider).toBe(provider);
    }
  });

  test("latency is abortable: a client that gives up mid-wait is recorded at once", async () => {
    sim.setLatency({ kind: "fixed", ms: 5_000 });
    try {
      const controller = new AbortController();
      const before = sim.requests.length;
      const pending = rejection(openaiSearch("best crm", { signal: controller.signal }));
      await waitFor(() => sim.requests.length > before, { what: "the request taken in" });
      controller.abort();
      await pending;
      // Recorded while the 5 s answer was still pending (the simulator records only closes before an answer).
      await waitFor(() => sim.aborts.at(-1)?.provider === "openai");
      expect(sim.aborts.at(-1)?.provider).toBe("openai");
    } finally {
      sim.setLatency({ kind: "fixed", ms: 2 });
    }
  });

  test("no_search → a normal answer with no search and no citations", async () => {
    for (const provider of ["openai", "anthropic", "gemini"] as const) sim.setFaults(provider, [{ kind: "no_search" }]);
    const o = await openaiSearch("best crm");
    expect(o.output.some((item) => item.type === "web_search_call")).toBe(false);
    const message = o.output.find((item) => item.type === "message");
    expect(message?.type === "message" && message.content[0]?.type === "output_text" ? message.content[0].annotations : null).toEqual([]);
    expect(jsonBlock(o.output_text).products.length).toBeGreaterThan(0);

    const a = await anthropicSearch("best crm");
    expect(a.content.every((block) => block.type === "text" && block.citations === null)).toBe(true);
    expect(a.usage.server_tool_use ?? null).toBeNull();

    const g = await geminiSearch("best crm");
    expect(g.candidates?.[0]?.groundingMetadata).toBeUndefined();
    expect(g.text).toContain("```json");
  });

  test("prose_only → prose naming products, with no JSON block", async () => {
    for (const provider of ["openai", "anthropic", "gemini"] as const) sim.setFaults(provider, [{ kind: "prose_only" }]);
    const o = await openaiSearch("best running shoes");
    const a = await anthropicSearch("best running shoes");
    const g = await geminiSearch("best running shoes");
    const texts = [o.output_text, a.content.map((block) => (block.type === "text" ? block.text : "")).join(""), g.text ?? ""];
    for (const text of texts) {
      expect(text).not.toContain("```");
      expect(text).not.toContain("{");
      expect([...runningShoeProducts].some((name) => text.includes(name))).toBe(true);
    }
  });

  test("pause_turn → partial content; the continuation completes", async () => {
    sim.setFaults("anthropic", [{ kind: "pause_turn" }]);
    const messages: Anthropic.Messages.MessageParam[] = [{ role: "user", content: prompt("best robot vacuum") }];
    const first = await anthropicSearch("", { messages });
    expect(first.stop_reason).toBe("pause_turn");
    expect(first.content.some((block) => block.type === "server_tool_use")).toBe(true);
    expect(first.content.some((block) => block.type === "text")).toBe(false);
    const second = await anthropicSearch("", { messages: [...messages, { role: "assistant", content: first.content }] });
    expect(second.stop_reason).toBe("end_turn");
    const all = [...first.content, ...second.content];
    const text = all.map((block) => (block.type === "text" ? block.text : "")).join("");
    expect(jsonBlock(text).products.length).toBeGreaterThanOrEqual(5);
    expect(second.content.some((block) => block.type === "text" && (block.citations?.length ?? 0) > 0)).toBe(true);
  });

  test("persistent faults apply to every request until clearFaults()", async () => {
    sim.setFaults("gemini", [{ kind: "server_error" }], { persistent: true });
    expect((await rejection(geminiSearch("best crm"))).status).toBe(500);
    expect((await rejection(geminiSearch("best crm"))).status).toBe(500);
    sim.clearFaults();
    expect(jsonBlock((await geminiSearch("best crm")).text ?? "").products.length).toBeGreaterThan(0);
  });

  test("queued faults are consumed in order, one per request", async () => {
    sim.setFaults("openai", [{ kind: "server_error" }, { kind: "rate_limit", retryAfterSeconds: 1 }]);
    expect((await rejection(openaiSearch("best crm"))).status).toBe(500);
    expect((await rejection(openaiSearch("best crm"))).status).toBe(429);
    expect(jsonBlock((await openaiSearch("best crm")).output_text).products.length).toBeGreaterThan(0);
  });
});

describe("request checks", () => {
  test("a missing API key → 401 in each provider's format", async () => {
    const o = await rejection(openaiSearch("best crm", { client: openai(" ") }));
    expect(o).toBeInstanceOf(OpenAI.AuthenticationError);
    const a = await rejection(anthropic(" ").messages.create({ model: "claude-sonnet-4-6", max_tokens: 100, messages: [{ role: "user", content: "hi" }] }));
    expect(a).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((a as InstanceType<typeof Anthropic.APIError>).type).toBe("authentication_error");
    const g = await rejection(geminiSearch("best crm", { client: gemini(" ") }));
    expect(g.status).toBe(401);
    expect(g.message).toContain("UNAUTHENTICATED");
  });

  test("Anthropic accepts x-api-key as well as Authorization: Bearer", async () => {
    const client = new Anthropic({
      apiKey: null,
      authToken: null,
      baseURL: sim.baseUrls.anthropic,
      maxRetries: 0,
      defaultHeaders: { "x-api-key": "sk-ant-test" },
    });
    const message = await client.messages.create({ model: "claude-sonnet-4-6", max_tokens: 100, messages: [{ role: "user", content: "hi" }] });
    expect(message.type).toBe("message");
    const headers = sim.requests.at(-1)?.headers ?? {};
    expect(headers["x-api-key"]).toBe("sk-ant-test");
    expect(headers.authorization).toBeUndefined();
  });

  test("the official Anthropic SDK sends Authorization: Bearer and API version 2026-10-21", async () => {
    await anthropic().messages.create({ model: "claude-sonnet-4-6", max_tokens: 100, messages: [{ role: "user", content: "hi" }] });
    const headers = sim.requests.at(-1)?.headers ?? {};
    expect(headers.authorization).toBe("Bearer sk-ant-test");
    expect(headers["anthropic-version"]).toBe("2026-10-21");
  });

  test("Anthropic rejects temperature / top_p / top_k (removed in API 2026-10-21)", async () => {
    for (const field of ["temperature", "top_p", "top_k"]) {
      const body = {
        model: "claude-sonnet-4-6",
        max_tokens: 100,
        messages: [{ role: "user", content: "hi" }],
        [field]: 0.5,
      } as unknown as Anthropic.Messages.MessageCreateParamsNonStreaming;
      const error = await rejection(anthropic().messages.create(body));
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe("invalid_request_error");
      expect(error.message).toContain(field);
    }
  });
});

describe("format variety", () => {
  test("with formatVariety 1 every structured block is unusual but still carries the products", async () => {
    const local = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 3, formatVariety: 1 });
    try {
      const client = new OpenAI({ apiKey: "sk", baseURL: local.baseUrls.openai, maxRetries: 0 });
      const texts = await Promise.all(Array.from({ length: 12 }, () => openaiSearch("best standing desk", { client }).then((r) => r.output_text)));
      for (const text of texts) {
        expect(/```json\n\{"/.test(text) || /```json\n\{\n/.test(text)).toBe(false);
        expect(text).toMatch(/\{\s*['"]products['"]/);
      }
      expect(texts.some((t) => t.includes("{'products'"))).toBe(true);
      expect(texts.some((t) => !t.includes("```"))).toBe(true);
    } finally {
      await local.stop();
    }
  });
});

describe("noise", () => {
  test("with noise 1 every answer has a quirk of real models; a cut-off one carries each API's finish signal", async () => {
    const local = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 11, noise: 1 });
    try {
      const query = "best robot vacuum";
      const o = new OpenAI({ apiKey: "sk", baseURL: local.baseUrls.openai, maxRetries: 0 });
      const g = new GoogleGenAI({ apiKey: "k", apiVersion: "v1beta", httpOptions: { baseUrl: local.baseUrls.gemini } });
      const a = new Anthropic({ apiKey: "sk-ant", baseURL: local.baseUrls.anthropic, maxRetries: 0 });
      const p = new Perplexity({ apiKey: "pplx", baseURL: local.baseUrls.perplexity, maxRetries: 0 });
      const answers: { provider: ProviderId; text: string; cut: boolean }[] = [];
      for (let i = 0; i < 40; i++) {
        const openaiAnswer = await openaiSearch(query, { client: o });
        expect(openaiAnswer.status === "incomplete").toBe(openaiAnswer.incomplete_details?.reason === "max_output_tokens");
        answers.push({ provider: "openai", text: openaiAnswer.output_text, cut: openaiAnswer.status === "incomplete" });
        const claude = await a.messages.create({
          model: "claude-sonnet-4-6",
          max_tokens: 4096,
          messages: [{ role: "user", content: prompt(query) }],
          tools: anthropicTools,
        });
        expect(["end_turn", "max_tokens"]).toContain(claude.stop_reason ?? "");
        answers.push({
          provider: "anthropic",
          text: claude.content.map((block) => (block.type === "text" ? block.text : "")).join(""),
          cut: claude.stop_reason === "max_tokens",
        });
        const geminiAnswer = await geminiSearch(query, { client: g });
        const finish = geminiAnswer.candidates?.[0]?.finishReason;
        expect(["STOP", "MAX_TOKENS"]).toContain(finish ?? "");
        answers.push({ provider: "gemini", text: geminiAnswer.text ?? "", cut: finish === "MAX_TOKENS" });
        const sonar = await p.responses.create({ model: "perplexity/sonar", input: prompt(query), tools: [{ type: "web_search" }] });
        // A cut answer is "incomplete", saying why, as in the Responses format the Agent API follows.
        const cut = (sonar.status as string) === "incomplete";
        expect(cut).toBe((sonar as { incomplete_details?: { reason?: string } }).incomplete_details?.reason === "max_output_tokens");
        answers.push({ provider: "perplexity", text: sonar.output_text, cut });
      }
      for (const provider of providerIds) {
        const own = answers.filter((answer) => answer.provider === provider);
        // Cut off: never a closed JSON block; whole: the block (if any) closes.
        expect(own.some((answer) => answer.cut)).toBe(true);
        for (const answer of own.filter((x) => x.cut)) expect(answer.text.trimEnd().endsWith("```")).toBe(false);
        expect(own.some((answer) => !/products/i.test(answer.text))).toBe(true);
      }
      const all = answers.map((answer) => answer.text);
      expect(all.some((text) => text.includes("| # | Product | Maker |"))).toBe(true);
      expect(all.some((text) => text.includes("couldn't find current stock levels for"))).toBe(true);
      expect(all.some((text) => /\[[a-z.]+\]\(https:[^)]+utm_source=openai\)/.test(text))).toBe(true);
      expect(all.some((text) => /\*\*[A-Z][a-z]+'s [^*]+\*\*/.test(text))).toBe(true);
      expect(all.some((text) => text.includes("\n\n**Robot vacuums**"))).toBe(true);
    } finally {
      await local.stop();
    }
  });

  test("without noise (the default) answers are whole, with one fenced JSON block", async () => {
    const response = await openaiSearch("best robot vacuum");
    expect(response.status).toBe("completed");
    expect(response.output_text).toMatch(/```json\n[\s\S]+\n```$/);
  });
});

/** One search as the adapters send it, with `input` as the whole user message; the answer's text, citations and finish. */
async function ask(id: ProviderId, input: string, on: Simulator = sim): Promise<{ text: string; citations: number; cut: boolean }> {
  switch (id) {
    case "openai": {
      const client = new OpenAI({ apiKey: "sk", baseURL: on.baseUrls.openai, maxRetries: 0 });
      const response = await client.responses.create({ model: "gpt-5-mini", input, tools: [{ type: "web_search", search_context_size: "medium" }] });
      const message = response.output.find((item) => item.type === "message");
      const part = message?.type === "message" ? message.content[0] : undefined;
      return { text: response.output_text, citations: part?.type === "output_text" ? part.annotations.length : 0, cut: response.status === "incomplete" };
    }
    case "anthropic": {
      const client = new Anthropic({ apiKey: "sk-ant", baseURL: on.baseUrls.anthropic, maxRetries: 0 });
      const message = await client.messages.create({
        model: "claude-sonnet-4-6",
        max_tokens: 4096,
        messages: [{ role: "user", content: input }],
        tools: anthropicTools,
        tool_choice: { type: "tool", name: "web_search" },
      });
      const texts = message.content.flatMap((block) => (block.type === "text" ? [block] : []));
      return {
        text: texts.map((block) => block.text).join(""),
        citations: texts.reduce((sum, block) => sum + (block.citations?.length ?? 0), 0),
        cut: message.stop_reason === "max_tokens",
      };
    }
    case "gemini": {
      const client = new GoogleGenAI({ apiKey: "k", apiVersion: "v1beta", httpOptions: { baseUrl: on.baseUrls.gemini } });
      const response = await client.models.generateContent({ model: "gemini-2.5-flash", contents: input, config: { tools: [{ googleSearch: {} }] } });
      const candidate = response.candidates?.[0];
      return {
        text: response.text ?? "",
        citations: candidate?.groundingMetadata?.groundingSupports?.length ?? 0,
        cut: candidate?.finishReason === "MAX_TOKENS",
      };
    }
    case "perplexity": {
      const client = new Perplexity({ apiKey: "pplx", baseURL: on.baseUrls.perplexity, maxRetries: 0 });
      const response = await client.responses.create({ model: "perplexity/sonar", input, tools: [{ type: "web_search" }] });
      const message = response.output.find((item) => item.type === "message");
      const parts = message?.type === "message" ? message.content : [];
      // Perplexity numbers its citations in the text ("[1][3]"); the annotations are what they cite.
      return {
        text: response.output_text.replace(/(?:\[\d+\])+/g, ""),
        citations: parts.reduce((sum, part) => sum + (part.annotations?.length ?? 0), 0),
        cut: message?.type === "message" && message.status !== "completed",
      };
    }
  }
}

/** The catalogue names the answer puts forward: bold, a list item's, a heading's or a table row's head. */
const headNames = (text: string) =>
  [...text.matchAll(/\*\*([^*\n]+)\*\*|^#{1,6} (?:\d+\. )?(.+)$|^\| \d+ \| ([^|]+?) \|/gm)].map((m) => (m[1] ?? m[2] ?? m[3] ?? "").trim());

describe("the query as typed", () => {
  test("a plain question gets natural prose with cited, bold-named picks and no JSON block, from every provider; the log holds exactly the query", async () => {
    const local = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 23 });
    try {
      const query = "best running shoes for beginners";
      for (const id of providerIds) {
        const { text, citations } = await ask(id, query, local);
        expect(text).not.toContain("```");
        expect(text).not.toMatch(/"products"|\{\s*"|structured/i);
        expect(text).toMatch(/^(?:Based on|Here's|I looked)/);
        const picks = headNames(text).filter((name) => runningShoeProducts.has(name));
        expect(picks.length).toBeGreaterThanOrEqual(5);
        expect(citations).toBeGreaterThanOrEqual(2);
      }
      expect(local.searchPrompts()).toEqual(providerIds.map((provider) => ({ provider, prompt: query })));
      expect(local.requests.map((entry) => entry.kind)).toEqual(providerIds.map(() => "search"));
    } finally {
      await local.stop();
    }
  });

  test("the old method's prompt (the query + EXTRACTION_INSTRUCTIONS) still gets the JSON block, and the log holds that prompt", async () => {
    const local = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 23 });
    try {
      for (const id of providerIds) {
        const { text } = await ask(id, withExtractionInstructions("best running shoes"), local);
        const block = jsonBlock(text);
        expect(block.products.length).toBeGreaterThanOrEqual(5);
        for (const product of block.products) expect(runningShoeProducts.has(product.name)).toBe(true);
      }
      for (const { prompt: sent } of local.searchPrompts()) expect(sent).toBe(withExtractionInstructions("best running shoes"));
    } finally {
      await local.stop();
    }
  });

  test("searchPrompts() lists search requests only, per provider, never the extraction or variants calls", async () => {
    const local = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 4 });
    try {
      const { text } = await ask("gemini", "best crm", local);
      const request = extractionRequest(text);
      const client = new GoogleGenAI({ apiKey: "k", apiVersion: "v1beta", httpOptions: { baseUrl: local.baseUrls.gemini } });
      await client.models.generateContent({
        model: "gemini-3.5-flash-lite",
        contents: request.prompt,
        config: { responseMimeType: "application/json", responseJsonSchema: request.schema },
      });
      await ask("openai", "Notion vs Confluence", local);
      expect(local.requests.map((entry) => `${entry.provider} ${entry.kind}`)).toEqual(["gemini search", "gemini extraction", "openai search"]);
      expect(local.requests[1]?.prompt).toBe(request.prompt);
      expect(local.searchPrompts()).toEqual([
        { provider: "gemini", prompt: "best crm" },
        { provider: "openai", prompt: "Notion vs Confluence" },
      ]);
      expect(local.searchPrompts("openai")).toEqual([{ provider: "openai", prompt: "Notion vs Confluence" }]);
    } finally {
      await local.stop();
    }
  });

  test("with noise 1 prose answers keep real models' quirks (a table, possessives, a category heading, couldn't find, a cut answer), never a JSON block", async () => {
    const local = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 11, noise: 1 });
    try {
      const answers: { id: ProviderId; text: string; cut: boolean }[] = [];
      for (let i = 0; i < 30; i++) for (const id of providerIds) answers.push({ id, ...(await ask(id, "best robot vacuum", local)) });
      for (const { text } of answers) expect(text).not.toMatch(/```|"products"/);
      for (const id of providerIds) expect(answers.some((answer) => answer.id === id && answer.cut)).toBe(true);
      const all = answers.map((answer) => answer.text);
      expect(all.some((text) => text.includes("| # | Product | Maker |"))).toBe(true);
      expect(all.some((text) => /\*\*[A-Z][a-z]+'s [^*]+\*\*/.test(text))).toBe(true);
      expect(all.some((text) => text.includes("\n\n**Robot vacuums**"))).toBe(true);
      expect(all.some((text) => text.includes("couldn't find current stock levels for"))).toBe(true);
      expect(all.some((text) => /I couldn't find any reliable information about it/.test(text))).toBe(true);
    } finally {
      await local.stop();
    }
  });

  test("with formatVariety 1 prose answers lay their picks out as headings, bold-led paragraphs or a table", async () => {
    const local = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 3, formatVariety: 1 });
    try {
      const texts = await Promise.all(Array.from({ length: 12 }, () => ask("openai", "best running shoes", local).then((answer) => answer.text)));
      for (const text of texts) {
        expect(text).not.toMatch(/^(?:\d+\.|-) \*\*/m);
        expect(headNames(text).filter((name) => runningShoeProducts.has(name)).length).toBeGreaterThanOrEqual(5);
      }
      expect(texts.some((text) => /^### \d+\. /m.test(text))).toBe(true);
      expect(texts.some((text) => /^\*\*[^*]+\*\* .*— /m.test(text))).toBe(true);
      expect(texts.some((text) => text.includes("| # | Product |"))).toBe(true);
    } finally {
      await local.stop();
    }
  });
});

describe("the extraction call answered as a small model", () => {
  type Extracted = { products: { name: string; rank: number; details: string }[]; companies: { name: string; products: string[] }[] };
  const small = { openai: "gpt-5-nano", anthropic: "claude-haiku-4-5", gemini: "gemini-3.5-flash-lite", perplexity: "perplexity/sonar" } satisfies Record<
    ProviderId,
    string
  >;

  /** extractionRequest(text) on each provider's wire (json_schema text format, forced tool, responseJsonSchema): the value and the model the response names. */
  async function extract(id: ProviderId, text: string, on: Simulator): Promise<{ value: Extracted; model: string }> {
    const request = extractionRequest(text);
    switch (id) {
      case "openai": {
        const client = new OpenAI({ apiKey: "sk", baseURL: on.baseUrls.openai, maxRetries: 0 });
        const response = await client.responses.create({
          model: small.openai,
          input: request.prompt,
          text: { format: { type: "json_schema", name: request.name, schema: request.schema as Record<string, unknown>, strict: true } },
        });
        return { value: JSON.parse(response.output_text), model: response.model };
      }
      case "anthropic": {
        const client = new Anthropic({ apiKey: "sk-ant", baseURL: on.baseUrls.anthropic, maxRetries: 0 });
        const message = await client.messages.create({
          model: small.anthropic,
          max_tokens: 2048,
          messages: [{ role: "user", content: request.prompt }],
          tools: [{ name: `record_${request.name}`, description: request.description, input_schema: request.schema as Anthropic.Messages.Tool.InputSchema }],
          tool_choice: { type: "tool", name: `record_${request.name}` },
        });
        const block = message.content[0];
        if (block?.type !== "tool_use") throw new Error("expected tool_use");
        return { value: block.input as Extracted, model: message.model };
      }
      case "gemini": {
        const client = new GoogleGenAI({ apiKey: "k", apiVersion: "v1beta", httpOptions: { baseUrl: on.baseUrls.gemini } });
        const response = await client.models.generateContent({
          model: small.gemini,
          contents: request.prompt,
          config: { responseMimeType: "application/json", responseJsonSchema: request.schema },
        });
        return { value: JSON.parse(response.text ?? ""), model: response.modelVersion ?? "" };
      }
      case "perplexity": {
        const client = new Perplexity({ apiKey: "pplx", baseURL: on.baseUrls.perplexity, maxRetries: 0 });
        const response = await client.responses.create({
          model: small.perplexity,
          input: request.prompt,
          response_format: { type: "json_schema", json_schema: { name: request.name, schema: request.schema as Record<string, unknown> } },
        });
        return { value: JSON.parse(response.output_text), model: response.model };
      }
    }
  }

  const answers = {
    vacuums:
      "Based on recent reviews, these robot vacuums stand out:\n\n1. **Roborock S8 MaxV Ultra** (Roborock): Flagship vacuum-mop.\n\n2. **iRobot Roomba j9+** (iRobot): Reliable navigation.\n\n3. **Eufy X10 Pro Omni** (Anker): Feature-packed combo.\n\nSome forums mention a \"Roborock S8 MaxV Ultra Pro Max\", but I couldn't find any reliable information about it, so I've left it out.",
    shoes: "Top picks:\n\n- **Hoka Clifton 9**: plush.\n- **Nike Pegasus 41**: a classic.\n- **Brooks Ghost 16**: smooth and dependable.",
    design:
      "| # | Product | Maker | Why |\n|---|---|---|---|\n| 1 | Penpot | Kaleidos | Free and open source. |\n| 2 | Affinity Designer | Canva | Vector illustration. |",
    headphones: "### 1. Sony's WH-1000XM6\n\nRich sound.\n\n### 2. Bose QuietComfort Ultra Headphones\n\nComfortable. Overall, Sony's WH-1000XM6 wins.",
  };
  const truth = {
    vacuums: ["Roborock S8 MaxV Ultra", "iRobot Roomba j9+", "Eufy X10 Pro Omni"],
    shoes: ["Hoka Clifton 9", "Nike Pegasus 41", "Brooks Ghost 16"],
    headphones: ["Sony WH-1000XM6", "Bose QuietComfort Ultra Headphones"],
    design: ["Penpot", "Affinity Designer"],
  };
  const companiesOf = {
    vacuums: ["Roborock", "iRobot", "Anker"],
    shoes: ["Hoka", "Nike", "Brooks"],
    headphones: ["Sony", "Bose"],
    design: ["Kaleidos", "Canva"],
  };

  /** The documented mistake a returned name is (extractor-errors.ts), or undefined when it is one of the true names. */
  function mistakeOf(name: string, text: string, trueNames: readonly string[], companies: readonly string[]): string | undefined {
    if (trueNames.includes(name)) return undefined;
    if (companies.includes(name)) return "company_as_product";
    if (/'s /.test(name) && trueNames.includes(name.replace(/'s /, " "))) return "possessive";
    if (/^and /.test(name) || trueNames.some((t) => name.startsWith(`${t}: `))) return "fragment";
    if (matchCategory(name) && /^(?:\p{Lu}[\p{L}-]*\s?)+$/u.test(name) && !text.includes(name)) return "category";
    if (text.includes(`"${name}"`) || text.includes(`information about ${name}`)) return "not_found";
    const swapped = trueNames.find((t) => t.length === name.length && [...t].filter((c, i) => c !== name[i]).length === 2);
    if (swapped && [...swapped].sort().join("") === [...name].sort().join("")) return "misspelt";
    if (!text.toLowerCase().includes(name.toLowerCase())) return "invented";
    return `unexplained: ${name}`;
  }

  test("at rate 0 every provider's extraction is exactly the names the answer recommends (a maker's possessive read as its product, a table's maker column not a product), and echoes the small model asked", async () => {
    const local = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 1, extractorErrors: 0 });
    try {
      for (const id of providerIds) {
        for (const key of ["vacuums", "shoes", "headphones", "design"] as const) {
          for (let i = 0; i < 5; i++) {
            const { value, model } = await extract(id, answers[key], local);
            expect(model).toBe(small[id]);
            expect(value.products.map((p) => p.name)).toEqual(truth[key]);
            expect(value.products.map((p) => p.rank)).toEqual(truth[key].map((_, index) => index + 1));
            expect(value.companies.map((c) => c.name)).toEqual(companiesOf[key]);
          }
        }
      }
      expect(local.requests.every((entry) => entry.kind === "extraction")).toBe(true);
    } finally {
      await local.stop();
    }
  });

  test("at rate 1 every extraction carries a documented mistake; over many calls all seven kinds show up, reproducible from the seed", async () => {
    const run = async (seed: number) => {
      const local = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed, extractorErrors: 1 });
      const outputs: string[][] = [];
      const kinds = new Set<string>();
      try {
        for (let i = 0; i < 20; i++) {
          for (const id of providerIds) {
            for (const key of ["vacuums", "shoes"] as const) {
              const { value, model } = await extract(id, answers[key], local);
              expect(model).toBe(small[id]);
              const names = [...value.products.map((p) => p.name), ...value.companies.flatMap((c) => c.products)];
              const mistakes = [...new Set(names.flatMap((name) => mistakeOf(name, answers[key], truth[key], companiesOf[key]) ?? []))];
              expect(mistakes.length).toBeGreaterThanOrEqual(1);
              for (const mistake of mistakes) expect(mistake).not.toStartWith("unexplained");
              for (const mistake of mistakes) kinds.add(mistake);
              expect(value.products.map((p) => p.rank)).toEqual(value.products.map((_, index) => index + 1));
              outputs.push(value.products.map((p) => p.name));
            }
          }
        }
      } finally {
        await local.stop();
      }
      return { outputs, kinds };
    };
    const first = await run(2026);
    expect([...first.kinds].sort()).toEqual(["category", "company_as_product", "fragment", "invented", "misspelt", "not_found", "possessive"]);
    expect((await run(2026)).outputs).toEqual(first.outputs);
    expect((await run(2027)).outputs).not.toEqual(first.outputs);
  });

  test("at rate 0.2 about one extraction in five errs; the answers a seed gives are the same with or without extractor errors", async () => {
    const local = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 9, extractorErrors: 0.2 });
    const clean = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 9 });
    try {
      let erred = 0;
      for (let i = 0; i < 100; i++) {
        const { value } = await extract("openai", answers.shoes, local);
        if (JSON.stringify(value.products.map((p) => p.name)) !== JSON.stringify(truth.shoes)) erred++;
      }
      expect(erred).toBeGreaterThanOrEqual(8);
      expect(erred).toBeLessThanOrEqual(35);
      const texts = async (on: Simulator) => {
        const out: string[] = [];
        for (let i = 0; i < 3; i++) {
          const { text } = await ask("openai", "best robot vacuum", on);
          out.push(text);
          await extract("openai", text, on);
        }
        return out;
      };
      // The same seed's answers, one simulator having drawn extractor mistakes in between.
      const fresh = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 9, extractorErrors: 1 });
      try {
        expect(await texts(fresh)).toEqual(await texts(clean));
      } finally {
        await fresh.stop();
      }
    } finally {
      await local.stop();
      await clean.stop();
    }
  });
});

describe("run effects (ADR 051)", () => {
  const DAY = 86_400_000;
  const start = Date.UTC(2026, 11, 7);

  /** A product's per-run mention count over `iterations` answers a run, one run a day: its variance over binomial, averaged over the products named in 20–80 % of answers. */
  async function dispersion(runEffects: RunEffects | undefined, query: string, runs = 30, iterations = 10): Promise<{ phi: number; products: number }> {
    let now = start;
    const local = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 51, ...(runEffects ? { ...runEffects, clock: () => now } : {}) });
    try {
      const phis: number[] = [];
      for (const id of providerIds) {
        const days: string[][][] = [];
        for (let day = 0; day < runs; day++) {
          now = start + day * DAY;
          days.push(
            await Promise.all(
              Array.from({ length: iterations }, async () => jsonBlock((await ask(id, prompt(query), local)).text).products.map((p) => p.name)),
            ),
          );
        }
        for (const name of new Set(days.flat(2))) {
          const counts = days.map((answers) => answers.filter((names) => names.includes(name)).length);
          const p = counts.reduce((sum, k) => sum + k, 0) / (runs * iterations);
          if (p < 0.2 || p > 0.8) continue;
          const variance = counts.reduce((sum, k) => sum + (k - p * iterations) ** 2, 0) / (runs - 1);
          phis.push(variance / (iterations * p * (1 - p)));
        }
      }
      return { phi: phis.reduce((sum, phi) => sum + phi, 0) / phis.length, products: phis.length };
    } finally {
      await local.stop();
    }
  }

  test("a run's answers lean together: a product's mention count per run of 10 varies about twice as much as independent answers' (φ ≈ 1.9), and ≈ 1 with effects off", async () => {
    const off = await dispersion(undefined, "best password manager");
    const on = await dispersion(DEMO_RUN_EFFECTS, "best password manager");
    expect(off.products).toBeGreaterThanOrEqual(10);
    expect(on.products).toBeGreaterThanOrEqual(10);
    expect(off.phi).toBeLessThan(1.3);
    expect(off.phi).toBeGreaterThan(0.7);
    expect(on.phi).toBeGreaterThan(1.5);
  });

  test("with effects on, a seed still gives the same answers whatever order concurrent calls arrive in, and they differ from the answers without", async () => {
    const clock = () => start;
    const [one, two, off] = [
      startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 42, ...DEMO_RUN_EFFECTS, clock }),
      startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 42, ...DEMO_RUN_EFFECTS, clock }),
      startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 42 }),
    ];
    try {
      const calls = providerIds.flatMap((id) =>
        ["best crm for startups", "best running shoes"].flatMap((query) => Array.from({ length: 4 }, () => ({ id, query }))),
      );
      const answers = async (on: Simulator, order: typeof calls) =>
        (await Promise.all(order.map(async ({ id, query }) => `${id} ${query}: ${(await ask(id, query, on)).text}`))).toSorted();
      const first = await answers(one, calls);
      expect(await answers(two, calls.toReversed())).toEqual(first);
      expect(new Set(first).size).toBeGreaterThan(providerIds.length * 2);
      expect(await answers(off, calls)).not.toEqual(first);
    } finally {
      await Promise.all([one.stop(), two.stop(), off.stop()]);
    }
  });

  test("off (absent, or both standard deviations 0) leaves a seed's answers exactly as they were", async () => {
    const sims = [
      startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 8 }),
      startSimulator({ latency: { kind: "fixed", ms: 0 }, seed: 8, dayEffectSd: 0, runEffectSd: 0, clock: () => start }),
    ];
    try {
      const texts = async (on: Simulator) => {
        const out: string[] = [];
        for (const id of providerIds) for (let i = 0; i < 3; i++) out.push((await ask(id, "best project management software", on)).text);
        return out;
      };
      const [without, zero] = [await texts(sims[0] as Simulator), await texts(sims[1] as Simulator)];
      expect(zero).toEqual(without);
    } finally {
      await Promise.all(sims.map((s) => s.stop()));
    }
  });

  test("a run is a burst: requests no more than runGapMs apart share a lean; a later one starts a new run; a day's lean is every question's; the bookkeeping stays bounded", () => {
    let now = start;
    const effects = createRunEffects(3, { dayEffectSd: 0, runEffectSd: 1, runGapMs: 1000, clock: () => now });
    const lean = (question: string) => effects("openai", question)?.("Bitwarden");
    const first = lean("best password manager");
    now += 900;
    expect(lean("best password manager")).toBe(first);
    now += 900;
    // Each request extends the burst: 1800 ms after its start, 900 after the last.
    expect(lean("best password manager")).toBe(first);
    now += 1001;
    const second = lean("best password manager");
    expect(second).not.toBe(first);
    // Past 100,000 questions the bookkeeping is forgotten; the question's next run is a new one, never its first again.
    for (let i = 0; i < 100_000; i++) effects("openai", `question ${i}`);
    const third = lean("best password manager");
    expect(third).not.toBe(first);
    expect(third).not.toBe(second);

    const daily = createRunEffects(3, { dayEffectSd: 1, runEffectSd: 0, clock: () => now });
    const today = daily("openai", "best password manager")?.("Bitwarden");
    expect(daily("openai", "password manager for families")?.("Bitwarden")).toBe(today);
    expect(daily("anthropic", "best password manager")?.("Bitwarden")).not.toBe(today);
    now += DAY;
    expect(daily("openai", "best password manager")?.("Bitwarden")).not.toBe(today);

    expect(createRunEffects(3, undefined)("openai", "best password manager")).toBeUndefined();
    expect(createRunEffects(3, { dayEffectSd: 0, runEffectSd: 0 })("openai", "best password manager")).toBeUndefined();
    expect(() => createRunEffects(3, { dayEffectSd: -1, runEffectSd: 0 })).toThrow();
  });
});
