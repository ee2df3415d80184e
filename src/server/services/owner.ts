/** Who is asking: the signed-in user, else the anonymous visitor (its id from a signed cookie). */
export type Owner = { userId?: string; anonymousId: string };

/** An owner and the address they call from: what the free quota counts against. */
export type Caller = { owner: Owner; ip: string };

/** One key per owner, for per-caller state such as the search in flight. */
export function ownerKey(owner: Owner): string {
  return owner.userId ? `user:${owner.userId}` : `anon:${owner.anonymousId}`;
}

/** Where a caller stands on a UTC day (`quota.standing`): Pro has no count. */
export type Standing = { isPro: true; day: string } | { isPro: false; day: string; used: number; remaining: number };
