/** Seedable randomness for the simulators (mulberry32), so a seed reproduces a run exactly. */

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Whole number in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Standard normal (Box–Muller). */
  normal(): number;
  shuffle<T>(items: readonly T[]): T[];
  /** k distinct items, each draw weighted (Efraimidis–Spirakis), in draw order. */
  weightedSample<T>(items: readonly T[], weight: (item: T) => number, k: number): T[];
  /** Random string over an alphabet (base62 by default). */
  id(length: number, alphabet?: string): string;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    normal: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
    shuffle: (items) => rng.weightedSample(items, () => 1, items.length),
    weightedSample: (items, weight, k) =>
      items
        .map((item) => ({ item, key: Math.pow(next(), 1 / Math.max(weight(item), 1e-9)) }))
        .sort((a, b) => b.key - a.key)
        .slice(0, Math.max(0, k))
        .map(({ item }) => item),
    id: (length, alphabet = BASE62) => {
      let out = "";
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
      return out;
    },
  };
  return rng;
}

export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] ?? 1;
}

/** FNV-1a, 32 bit. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Unseeded identifier material (ids never need to be reproducible). */
export function randomToken(length: number, alphabet = BASE62): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

export const HEX = "0123456789abcdef";
