/**
 * fetch with a cookie jar, for the one exchange that needs a session cookie: `aisc login` signs in
 * with a password and creates a token. Every other call sends the token instead. A given `jar` is
 * shared (tests keep one across server restarts, as a browser does).
 */
export function fetchWithCookies(jar = new Map<string, string>()): typeof fetch {
  const withCookies = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    if (jar.size) headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(input, { ...init, headers });
    for (const setCookie of response.headers.getSetCookie()) {
      const pair = setCookie.split(";", 1)[0] ?? "";
      const eq = pair.indexOf("=");
      if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return response;
  };
  return withCookies as typeof fetch;
}
