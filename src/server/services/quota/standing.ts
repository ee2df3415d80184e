/** The caller's standing on a UTC day: Pro has no count. */
export type Quota = { isPro: true; day: string } | { isPro: false; day: string; used: number; remaining: number };
