/**
 * What the simulator remembers across a restart: every object in the Store and the simulated
 * clock, as one JSON document kept wherever its owner says (the server keeps it in DATA_DIR). The
 * events, the webhook deliveries and the idempotency keys are not kept: real Stripe lets them
 * lapse too (30 days, 24 hours), and nothing the product does after a restart reads them.
 */
import * as v from "valibot";
import type { PriceConfig, Store } from "./store.ts";
import { newId } from "./store.ts";

/** Where the state is kept: read once at start, written whole after each change. */
export type SimulatorStateStore = {
  /** Names the place in messages (a file path). */
  where: string;
  /** The last document saved, or undefined when there is none yet. */
  load(): string | undefined;
  save(document: string): void;
};

const TABLES = ["prices", "customers", "paymentMethods", "subscriptions", "invoices", "paymentIntents", "checkoutSessions", "portalSessions"] as const;
const VERSION = 1;

/*
 * The document is the simulator's own (written by save below, owner-only): the check is of its
 * frame (version, clock, each record's id), so a file from another program or another version
 * is refused whole rather than half-read; the records' fields are the Store's types as written.
 */
const StateDocument = v.object({
  version: v.literal(VERSION),
  now: v.pipe(v.number(), v.integer(), v.minValue(0)),
  portalConfiguration: v.pipe(v.string(), v.startsWith("bpc_")),
  tables: v.record(v.picklist(TABLES), v.array(v.looseObject({ id: v.pipe(v.string(), v.minLength(1)) }))),
});

export function serializeState(store: Store): string {
  const tables = Object.fromEntries(TABLES.map((name) => [name, [...store[name].values()]]));
  return JSON.stringify({ version: VERSION, now: store.now, portalConfiguration: store.portalConfiguration, tables });
}

/**
 * Fills a new Store from a saved document, clock included. The price the simulator is started
 * with is the one sold: its amount and name are taken from the options, its product id kept.
 * Throws a message naming what is wrong when the document is not one this simulator wrote.
 */
export function restoreState(store: Store, document: string, price: PriceConfig): void {
  let json: unknown;
  try {
    json = JSON.parse(document);
  } catch {
    throw new Error("it is not JSON");
  }
  const parsed = v.safeParse(StateDocument, json);
  if (!parsed.success) {
    const [issue] = parsed.issues;
    throw new Error(`it is not a state this simulator wrote (${v.getDotPath(issue) ?? "the document"}: ${issue.message})`);
  }
  const { now, portalConfiguration, tables } = parsed.output;
  store.now = now;
  store.portalConfiguration = portalConfiguration;
  for (const name of TABLES) {
    const table = store[name];
    table.clear();
    for (const record of tables[name] ?? []) table.set(record.id, record as never);
  }
  const kept = store.prices.get(price.id);
  store.prices.set(price.id, { ...price, created: kept?.created ?? now, productId: kept?.productId ?? newId("prod", 14) });
}
