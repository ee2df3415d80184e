/**
 * Whether an error means the database cannot serve us right now (down, unreachable, restarting,
 * out of disk or memory, read-only) rather than that our query was wrong. Such failures are the
 * caller's to retry later (503), not our bug (500). Drivers differ: postgres.js puts its own
 * codes (CONNECTION_ENDED…) and socket errnos in `code`, PostgreSQL's SQLSTATE too; PGlite says
 * it is closed in the message; drizzle wraps either in `cause`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, errno, message } = e as { code?: unknown; errno?: unknown; message?: unknown };
    if (typeof code === "string" && (DRIVER_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof errno === "string" && DRIVER_CODES.has(errno)) return true;
    if (typeof message === "string" && /PGlite is closed|no space left on device|read-only file system/i.test(message)) return true;
  }
  return false;
}

const DRIVER_CODES = new Set([
  // Sockets and files.
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENOSPC",
  "EROFS",
  "EDQUOT",
  // postgres.js.
  "CONNECTION_ENDED",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/**
 * SQLSTATEs of an unavailable server: 08 connection exceptions, 53 insufficient resources (disk
 * full, out of memory, too many connections), 57P01–57P03 shutting down or starting up, 58030 I/O
 * error, 25006 a read-only (standby) server.
 */
const SQLSTATE = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[1-3]|58030|25006)$/;
