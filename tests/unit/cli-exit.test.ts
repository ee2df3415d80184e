import { describe, expect, test } from "bun:test";
import { describeError, EXIT } from "#cli/lib/exit.ts";
import { ApiError } from "#src/client/errors.ts";
import type { ErrorCode } from "#src/contract/errors.ts";

const SERVER = "http://localhost:3000";
/** How `aisc` ends on an error answer with this code and status. */
const exitOf = (status: number, code: ErrorCode, message = "refused") => {
  const { reason, message: said } = describeError(new ApiError(status, JSON.stringify({ code, message }), ""), SERVER);
  return { exit: EXIT[reason], said };
};

describe("the CLI's exit code on an API error", () => {
  test("follows the answer's code, whatever its HTTP status, as `aisc --help` lists them", () => {
    // Sent with a status that says otherwise (400): the code alone decides.
    const cases: Array<[ErrorCode, number]> = [
      ["NOT_SIGNED_IN", EXIT.auth],
      ["INVALID_LOGIN", EXIT.auth],
      ["DAILY_LIMIT_REACHED", EXIT.limit],
      ["PRO_REQUIRED", EXIT.limit],
      ["TOO_MANY_ATTEMPTS", EXIT.limit],
      ["NOT_FOUND", EXIT.notFound],
      ["PROVIDERS_FAILED", EXIT.server],
      ["SERVER_STOPPING", EXIT.server],
      ["DATABASE_UNAVAILABLE", EXIT.server],
      ["INTERNAL", EXIT.server],
      ["INVALID_INPUT", EXIT.usage],
      ["CONFLICT", EXIT.usage],
      ["TOKEN_LIMIT_REACHED", EXIT.usage],
    ];
    for (const [code, exit] of cases) expect({ code, exit: exitOf(400, code).exit as number }).toEqual({ code, exit });
  });

  test("says the server's message", () => {
    expect(exitOf(429, "DAILY_LIMIT_REACHED", "You've reached your free daily search limit.")).toEqual({
      exit: EXIT.limit,
      said: "You've reached your free daily search limit.",
    });
  });

  test("an answer without a code (a proxy in front of the server) is read by its status", () => {
    const proxied = (status: number) => EXIT[describeError(new ApiError(status, "<html>Bad Gateway</html>", "Bad Gateway"), SERVER).reason];
    expect([proxied(502), proxied(404), proxied(401), proxied(400)]).toEqual([EXIT.server, EXIT.notFound, EXIT.auth, EXIT.usage]);
  });
});
