/**
 * How much the simulators' answers vary within a run and from run to run (ADR 051), with run
 * effects off and at a setting (the demo's by default). Each provider is asked each question on
 * `--runs` days, a burst of `--iterations` identical requests a day (one run), and once more the
 * same day after the run gap (another run), through the official SDKs against a seeded simulator
 * whose clock this script steps. Printed per question, averaged over the providers:
 *
 *   within    mean Jaccard of the brands (companies) two answers of one run name
 *   same day  the same, an answer of the day's run against the day's other run
 *   next day  the same, an answer of one day's run against the next day's
 *   φ, ρ      a product's per-run mention count: its variance over binomial (dispersion φ), and the
 *             intra-run correlation ρ = (φ − 1)/(n − 1), over products named in 20–80 % of answers
 *
 *   bun scripts/simulator-variance.ts [--seed 7] [--runs 30] [--iterations 10] [--day-effect-sd N] [--run-effect-sd N]
 */
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import Perplexity from "@perplexity-ai/perplexity_ai";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import { DEMO_RUN_EFFECTS, startSimulator, type RunEffects, type Simulator } from "#dev/simulators/index.ts";

const option = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value)) throw new Error(`--${name} expects a number`);
  return value;
};
const seed = option("seed", 7);
const runs = option("runs", 30);
const iterations = option("iterations", 10);
const setting = { dayEffectSd: option("day-effect-sd", DEMO_RUN_EFFECTS.dayEffectSd), runEffectSd: option("run-effect-sd", DEMO_RUN_EFFECTS.runEffectSd) };
const QUESTIONS = ["best crm for startups", "best running shoes", "best project management software", "best password manager"];
const DAY_MS = 86_400_000;
const GAP_MS = 60_000;
// The old method's instruction, so each answer ends in a block that lists its products and companies.
const INSTRUCTION = 'After your answer, add a fenced ```json block with {"products":[{"name","rank"}],"companies":[{"name","products"}]}.';

interface Named {
  products: Set<string>;
  companies: Set<string>;
}

interface Figures {
  within: number;
  sameDay: number;
  nextDay: number;
  phi: number;
  rho: number;
  products: number;
}

async function ask(simulator: Simulator, id: ProviderId, query: string): Promise<Named> {
  const input = `${query}\n\n${INSTRUCTION}`;
  const text = await (async () => {
    switch (id) {
      case "openai":
        return (
          await new OpenAI({ apiKey: "sk", baseURL: simulator.baseUrls.openai, maxRetries: 0 }).responses.create({
            model: "gpt-5-mini",
            input,
            tools: [{ type: "web_search" }],
          })
        ).output_text;
      case "anthropic": {
        const message = await new Anthropic({ apiKey: "sk-ant", baseURL: simulator.baseUrls.anthropic, maxRetries: 0 }).messages.create({
          model: "claude-sonnet-4-6",
          max_tokens: 4096,
          messages: [{ role: "user", content: input }],
          tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 3 }],
        });
        return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      }
      case "gemini":
        return (
          (
            await new GoogleGenAI({ apiKey: "k", apiVersion: "v1beta", httpOptions: { baseUrl: simulator.baseUrls.gemini } }).models.generateContent({
              model: "gemini-3.5-flash-lite",
              contents: input,
              config: { tools: [{ googleSearch: {} }] },
            })
          ).text ?? ""
        );
      case "perplexity":
        return (
          await new Perplexity({ apiKey: "pplx", baseURL: simulator.baseUrls.perplexity, maxRetries: 0 }).responses.create({
            model: "perplexity/sonar",
            input,
            tools: [{ type: "web_search" }],
          })
        ).output_text;
    }
  })();
  const block = /```json\n([\s\S]*?)\n```/.exec(text)?.[1];
  if (!block) throw new Error(`no JSON block in the ${id} answer to "${query}"`);
  const parsed = JSON.parse(block) as { products: { name: string }[]; companies: { name: string }[] };
  return { products: new Set(parsed.products.map((p) => p.name)), companies: new Set(parsed.companies.map((c) => c.name)) };
}

/** One provider's answers to a question: per day, its run's answers and one answer of a later run. */
async function askDays(simulator: Simulator, setClock: (ms: number) => void, id: ProviderId, query: string): Promise<{ run: Named[]; later: Named }[]> {
  const days: { run: Named[]; later: Named }[] = [];
  for (let day = 0; day < runs; day++) {
    const start = Date.UTC(2026, 11, 7) + day * DAY_MS;
    setClock(start);
    const run = await Promise.all(Array.from({ length: iterations }, () => ask(simulator, id, query)));
    setClock(start + 2 * GAP_MS);
    days.push({ run, later: await ask(simulator, id, query) });
  }
  return days;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const union = new Set([...a, ...b]).size;
  return union === 0 ? 1 : [...a].filter((x) => b.has(x)).length / union;
}

const mean = (values: readonly number[]): number => (values.length === 0 ? Number.NaN : values.reduce((sum, v) => sum + v, 0) / values.length);

function figures(days: readonly { run: Named[]; later: Named }[]): Omit<Figures, "products"> & { phis: number[] } {
  const within = days.flatMap(({ run }) => run.flatMap((a, i) => run.slice(i + 1).map((b) => jaccard(a.companies, b.companies))));
  const sameDay = days.flatMap(({ run, later }) => run.map((a) => jaccard(a.companies, later.companies)));
  const nextDay = days.slice(1).flatMap(({ run }, d) => run.map((a, i) => jaccard(days[d]?.run[i]?.companies ?? new Set(), a.companies)));
  const names = new Set(days.flatMap(({ run }) => run.flatMap((a) => [...a.products])));
  const phis: number[] = [];
  for (const name of names) {
    const counts = days.map(({ run }) => run.filter((a) => a.products.has(name)).length);
    const p = mean(counts) / iterations;
    if (p < 0.2 || p > 0.8) continue;
    const variance = counts.reduce((sum, k) => sum + (k - p * iterations) ** 2, 0) / (counts.length - 1);
    phis.push(variance / (iterations * p * (1 - p)));
  }
  const phi = mean(phis);
  return { within: mean(within), sameDay: mean(sameDay), nextDay: mean(nextDay), phi, rho: (phi - 1) / (iterations - 1), phis };
}

async function measure(runEffects: RunEffects | undefined): Promise<Map<string, Figures>> {
  let now = 0;
  const simulator = startSimulator({ latency: { kind: "fixed", ms: 0 }, seed, ...(runEffects ? { ...runEffects, clock: () => now } : {}) });
  const setClock = (ms: number) => {
    now = ms;
  };
  const out = new Map<string, Figures>();
  try {
    for (const query of QUESTIONS) {
      const each = [];
      // One provider at a time: the clock is shared.
      for (const id of providerIds) each.push(figures(await askDays(simulator, setClock, id, query)));
      const phis = each.flatMap((f) => f.phis);
      const phi = mean(phis);
      out.set(query, {
        within: mean(each.map((f) => f.within)),
        sameDay: mean(each.map((f) => f.sameDay)),
        nextDay: mean(each.map((f) => f.nextDay)),
        phi,
        rho: (phi - 1) / (iterations - 1),
        products: phis.length,
      });
    }
  } finally {
    await simulator.stop();
  }
  return out;
}

const fixed = (value: number, digits = 2) => value.toFixed(digits).padStart(8);
function print(title: string, rows: Map<string, Figures>): void {
  console.log(`\n${title}`);
  console.log(`${"question".padEnd(36)}  within  same day  next day       φ       ρ  products`);
  const all = [...rows.values()];
  for (const [query, f] of [...rows, ["mean", averaged(all)] as const])
    console.log(
      `${query.padEnd(36)}${fixed(f.within)}${fixed(f.sameDay, 2).padStart(10)}${fixed(f.nextDay)}${fixed(f.phi)}${fixed(f.rho, 3)}${String(f.products).padStart(10)}`,
    );
}

function averaged(rows: readonly Figures[]): Figures {
  const by = (key: keyof Figures) => mean(rows.map((f) => f[key]));
  const phi = by("phi");
  return {
    within: by("within"),
    sameDay: by("sameDay"),
    nextDay: by("nextDay"),
    phi,
    rho: (phi - 1) / (iterations - 1),
    products: rows.reduce((sum, f) => sum + f.products, 0),
  };
}

console.log(
  `Simulator seed ${seed}: ${runs} days × ${iterations} answers a run (and one answer of a second run each day), every provider, brands = companies named.`,
);
print("Run effects off", await measure(undefined));
print(`Run effects dayEffectSd ${setting.dayEffectSd}, runEffectSd ${setting.runEffectSd}`, await measure(setting));
