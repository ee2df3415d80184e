/*
 * Where signing in returns to: the page that asked for it (`/auth?next=/user/subscription`).
 * Only a path of this site is followed — never another origin ("//evil.com", "https://evil.com",
 * "/\evil.com", which browsers read as "//evil.com"), so the parameter cannot become an open
 * redirect (ADR 019's edge, on the page's side).
 */

const BASE = "https://this-site.invalid";

/** The path (with its query and fragment) to return to, or null when `next` is not one of ours. */
export function safeReturnPath(next: string | null | undefined): string | null {
  if (!next || !next.startsWith("/") || next.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(next)) return null;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE || url.pathname === "/auth") return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page's address for a visitor sent there from `path` (`to` may already have a query). */
export function signInFrom(to: string, path: string): string {
  const back = safeReturnPath(path);
  if (!back || back === "/") return to;
  return `${to}${to.includes("?") ? "&" : "?"}next=${encodeURIComponent(back)}`;
}
