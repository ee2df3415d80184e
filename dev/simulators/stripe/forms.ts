/**
 * Stripe's request parameters: `application/x-www-form-urlencoded` with bracket keys
 * (`items[0][price]=p&expand[0]=latest_invoice&metadata[userId]=u1`), in the body of a POST or
 * the query of a GET/DELETE. `parseForm` builds the nested value (numbered keys become arrays);
 * `Params` reads it, throwing Stripe's 400s for a missing or malformed parameter. Unknown
 * parameters are ignored (Stripe would reject them; the simulator is lenient there).
 */
import { invalidRequest, parameterEmpty, parameterInvalidInteger, parameterInvalidString, parameterMissing } from "./errors.ts";

export type FormValue = string | Form | FormValue[];
export type Form = { [key: string]: FormValue };

const MAX_PARAMS = 1000;
const MAX_DEPTH = 8;

export function parseForm(text: string): Form {
  const root: Form = Object.create(null) as Form;
  const pairs = new URLSearchParams(text);
  let count = 0;
  for (const [key, value] of pairs) {
    if (++count > MAX_PARAMS) throw invalidRequest(`Too many parameters (more than ${MAX_PARAMS}).`);
    const path = keyPath(key);
    if (path.length > MAX_DEPTH) throw invalidRequest(`Parameter nested too deeply: ${key}`, { param: key });
    assign(root, path, value, key);
  }
  return arrays(root) as Form;
}

/** `a[b][0][]` → ["a", "b", "0", ""]; a key that is not in bracket form is one segment. */
function keyPath(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return [key];
  const rest = [...(match[2] ?? "").matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? "");
  return [match[1] ?? key, ...rest];
}

function assign(root: Form, path: string[], value: string, key: string): void {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    let segment = path[i] ?? "";
    // `x[]=a&x[]=b`: each empty index appends.
    if (segment === "") segment = String(Object.keys(node).length);
    if (i === path.length - 1) {
      if (typeof node[segment] === "object") throw invalidRequest(`Invalid value for ${key}: it is both a value and a hash.`, { param: key });
      node[segment] = value;
      return;
    }
    const next = node[segment];
    if (typeof next === "string") throw invalidRequest(`Invalid value for ${key}: it is both a value and a hash.`, { param: key });
    if (next === undefined) node[segment] = Object.create(null) as Form;
    node = node[segment] as Form;
  }
}

/** Objects whose keys are all indexes (0, 1, …) become arrays in index order. */
function arrays(value: FormValue): FormValue {
  if (typeof value === "string" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  for (const key of keys) value[key] = arrays(value[key] as FormValue);
  if (keys.length > 0 && keys.every((key) => /^(0|[1-9]\d{0,3})$/.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => value[key] as FormValue);
  }
  return value;
}

function isForm(value: FormValue | undefined): value is Form {
  return typeof value === "object" && !Array.isArray(value);
}

/** Reads parameters of one (possibly nested) form, naming them in errors as Stripe does: `items[0][price]`. */
export class Params {
  constructor(
    readonly form: Form,
    private readonly prefix = "",
  ) {}

  name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  has(key: string): boolean {
    return this.form[key] !== undefined;
  }

  string(key: string): string | undefined {
    const value = this.form[key];
    if (value === undefined) return undefined;
    if (typeof value !== "string") throw parameterInvalidString(this.name(key));
    return value;
  }

  /** A string that must be present and not empty. */
  required(key: string): string {
    const value = this.string(key);
    if (value === undefined) throw parameterMissing(this.name(key));
    if (value === "") throw parameterEmpty(this.name(key));
    return value;
  }

  /** A string, with "" meaning absent (how Stripe unsets optional strings). */
  optional(key: string): string | undefined {
    const value = this.string(key);
    return value === "" ? undefined : value;
  }

  /** An absolute http(s) URL (Stripe's `url_invalid` otherwise). */
  url(key: string): string | undefined {
    const value = this.optional(key);
    if (value === undefined) return undefined;
    if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
      throw invalidRequest("Not a valid URL", { code: "url_invalid", param: this.name(key) });
    return value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (value === "true") return true;
    if (value === "false") return false;
    throw invalidRequest(`Invalid boolean: ${value}`, { param: this.name(key) });
  }

  integer(key: string, range: { min?: number; max?: number } = {}): number | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!/^-?\d{1,15}$/.test(value)) throw parameterInvalidInteger(this.name(key), value);
    const number = Number(value);
    if (range.min !== undefined && number < range.min)
      throw invalidRequest(`This value must be greater than or equal to ${range.min}.`, { param: this.name(key) });
    if (range.max !== undefined && number > range.max)
      throw invalidRequest(`This value must be less than or equal to ${range.max}.`, { param: this.name(key) });
    return number;
  }

  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if ((values as readonly string[]).includes(value)) return value as T;
    const list = values.length > 1 ? `${values.slice(0, -1).join(", ")}, or ${values[values.length - 1]}` : values.join("");
    throw invalidRequest(`Invalid ${this.name(key)}: must be one of ${list}`, { param: this.name(key) });
  }

  /** A nested hash (`payment_settings[...]`), or undefined when absent. */
  child(key: string): Params | undefined {
    const value = this.form[key];
    if (value === undefined || value === "") return undefined;
    if (!isForm(value)) throw invalidRequest(`Invalid ${this.name(key)}: must be a hash`, { param: this.name(key) });
    return new Params(value, this.name(key));
  }

  /** A list of hashes (`items[0][price]`, `line_items[0][quantity]`). */
  list(key: string): Params[] | undefined {
    const value = this.form[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) throw invalidRequest(`Invalid array`, { param: this.name(key) });
    return value.map((item, index) => {
      if (!isForm(item)) throw invalidRequest(`Invalid hash`, { param: `${this.name(key)}[${index}]` });
      return new Params(item, `${this.name(key)}[${index}]`);
    });
  }

  /** `metadata[k]=v` merged onto `current`: "" unsets a key, `metadata=` unsets all. Undefined when absent. */
  metadata(current: Record<string, string> = {}, key = "metadata"): Record<string, string> | undefined {
    const value = this.form[key];
    if (value === undefined) return undefined;
    if (value === "") return {};
    if (!isForm(value)) throw invalidRequest(`Invalid ${this.name(key)}: must be a hash`, { param: this.name(key) });
    const next: Record<string, string> = { ...current };
    for (const [name, entry] of Object.entries(value)) {
      if (typeof entry !== "string") throw invalidRequest(`Invalid value for metadata key ${name}: must be a string`, { param: `${this.name(key)}[${name}]` });
      if (name.length > 40)
        throw invalidRequest(`Metadata keys can have up to 40 characters; ${name} has ${name.length}.`, { param: `${this.name(key)}[${name}]` });
      if (entry.length > 500) throw invalidRequest(`Metadata values can have up to 500 characters.`, { param: `${this.name(key)}[${name}]` });
      if (entry === "") delete next[name];
      else next[name] = entry;
    }
    return next;
  }

  /** `expand[0]=a.b&expand[1]=c` (or a single `expand=a`). */
  expand(): string[] {
    const value = this.form.expand;
    if (value === undefined) return [];
    const list = Array.isArray(value) ? value : [value];
    return list.map((item, index) => {
      if (typeof item !== "string" || item === "") throw invalidRequest(`Invalid expand: must be a list of strings`, { param: `expand[${index}]` });
      return item;
    });
  }
}
