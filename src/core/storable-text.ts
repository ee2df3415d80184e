const NUL = /\u0000/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A copy of `value` whose every string (keys too) PostgreSQL can keep: NUL dropped (text refuses
 * it) and lone UTF-16 surrogates replaced with U+FFFD (jsonb refuses them). Model output is text
 * from outside; one stray byte must not cost the whole search.
 */
export function storableText<T>(value: T): T {
  return clean(value) as T;
}

/** Whether PostgreSQL can keep this string as it is (no NUL, no lone surrogate). */
export function isStorableText(text: string): boolean {
  return !/\u0000/.test(text) && !new RegExp(LONE_SURROGATE.source).test(text);
}

function clean(value: unknown): unknown {
  if (typeof value === "string") return value.replace(NUL, "").replace(LONE_SURROGATE, "\ufffd");
  if (Array.isArray(value)) return value.map(clean);
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [clean(key) as string, clean(child)]));
  }
  return value;
}
