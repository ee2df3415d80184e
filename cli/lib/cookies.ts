/**
 * fetch with a cookie jar, for the one exchange that needs a session cookie: `aisc login` signs in
 * with a password, creates a token and signs out. Every other call sends the token instead.
 */
export function fetchWithCookies(): typeof fetch {
  const jar = new Map<string, string>();
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
