/** What a route handler gets, and the list answer every list endpoint shares. */
import type { Billing } from "./billing.ts";
import { invalidRequest } from "./errors.ts";
import type { Params } from "./forms.ts";
import { list } from "./render.ts";
import type { Store } from "./store.ts";

export type Call = {
  params: Params;
  /** The `:id` of the path. */
  id: string;
  /** Made with the publishable key (only `client` routes allow it). */
  publishable: boolean;
  billing: Billing;
  store: Store;
  origin: string;
  advanceClock(seconds: number): Promise<void>;
};

export type Route = {
  method: "GET" | "POST" | "DELETE";
  path: string;
  handle(call: Call): unknown;
  /** Accepts the publishable key with the PaymentIntent's client_secret. */
  client?: boolean;
  /** Its events come from the clock, not from the request. */
  clock?: boolean;
};

/** A list answer, newest first, paged with limit / starting_after / ending_before as Stripe does. */
export function page<S extends { id: string; created: number }>(params: Params, url: string, items: S[], json: (item: S) => unknown) {
  const limit = params.integer("limit", { min: 1, max: 100 }) ?? 10;
  const after = params.optional("starting_after");
  const before = params.optional("ending_before");
  let sorted = items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => b.item.created - a.item.created || b.index - a.index)
    .map(({ item }) => item);
  const cursor = (id: string, param: string) => {
    const index = sorted.findIndex((item) => item.id === id);
    if (index < 0) throw invalidRequest(`No such object: '${id}'`, { code: "resource_missing", param, status: 404 });
    return index;
  };
  if (before !== undefined && after === undefined) {
    const newer = sorted.slice(0, cursor(before, "ending_before"));
    return { ...list(newer.slice(-limit).map(json), url), has_more: newer.length > limit };
  }
  if (after !== undefined) sorted = sorted.slice(cursor(after, "starting_after") + 1);
  return { ...list(sorted.slice(0, limit).map(json), url), has_more: sorted.length > limit };
}
