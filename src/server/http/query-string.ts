import { parseQueryFromURL } from "elysia/parse-query";

/*
 * A route that declares a Standard Schema `query` gets Elysia's schema-less parse of the query
 * string otherwise: values split at commas and JSON-looking ones parsed (`q=a,b` a list). These
 * transform hooks give the schema the query string as the routes read it, so `q=a,b` stays text.
 */

type QueryContext = { request: Request; query: unknown };

/** One value per name (the last one), as Elysia parses a query without a schema. */
export function lastValues(context: QueryContext): void {
  const at = context.request.url.indexOf("?");
  context.query = at === -1 ? {} : parseQueryFromURL(context.request.url, at + 1);
}

/** Every value of a repeated name, as a list (the lens's `alias`, compare's `compareVariants`); a single one as text. */
export function allValues(context: QueryContext): void {
  const params = new URL(context.request.url).searchParams;
  context.query = Object.fromEntries(
    [...new Set(params.keys())].map((name) => [name, params.getAll(name).length > 1 ? params.getAll(name) : params.get(name)]),
  );
}
