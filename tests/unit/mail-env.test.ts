import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EnvError, parseEnv } from "#src/server/env.ts";

/* ADR 053: the e-mail variables. Every e-mail links back to the service, so production with SMTP_URL needs PUBLIC_URL, over https. */

const base = () => ({ DATA_DIR: mkdtempSync(join(tmpdir(), "mail-env-")) });
const production = { NODE_ENV: "production", SESSION_SECRET: "s".repeat(40), SMTP_URL: "smtp://mail.example.com:587" };

test("MAIL_DAILY_CAP is 10 a day unless set, a whole number from 1", () => {
  expect(parseEnv(base()).MAIL_DAILY_CAP).toBe(10);
  expect(parseEnv({ ...base(), MAIL_DAILY_CAP: "3" }).MAIL_DAILY_CAP).toBe(3);
  expect(() => parseEnv({ ...base(), MAIL_DAILY_CAP: "0" })).toThrow("Invalid environment variable MAIL_DAILY_CAP: expected a whole number from 1 to 1000");
});

test("production with SMTP_URL needs an https PUBLIC_URL, in one line naming it; elsewhere it may be left out", () => {
  expect(() => parseEnv({ ...base(), ...production })).toThrow(EnvError);
  expect(() => parseEnv({ ...base(), ...production })).toThrow(
    'Invalid environment variable PUBLIC_URL: expected the https address people open this service at, such as https://aisc.example.com (required with SMTP_URL when NODE_ENV=production: every e-mail links back to it), got ""',
  );
  expect(() => parseEnv({ ...base(), ...production, PUBLIC_URL: "http://aisc.example.com" })).toThrow("PUBLIC_URL");
  expect(parseEnv({ ...base(), ...production, PUBLIC_URL: "https://aisc.example.com/" }).PUBLIC_URL).toBe("https://aisc.example.com");
  expect(parseEnv({ ...base(), NODE_ENV: "production", SESSION_SECRET: "s".repeat(40) }).PUBLIC_URL).toBeUndefined();
  expect(parseEnv({ ...base(), SMTP_URL: "smtp://127.0.0.1:2525" }).PUBLIC_URL).toBeUndefined();
  expect(() => parseEnv({ ...base(), PUBLIC_URL: "not a url" })).toThrow(
    "Invalid environment variable PUBLIC_URL: expected the address people open this service at",
  );
});
