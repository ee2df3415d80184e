import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * HMAC-signed cookie values. Elysia's own signed cookies throw on a bad signature, failing the
 * whole request; here a forged or stale value simply reads as absent.
 */
export function createSigner(secret: string) {
  const mac = (value: string) => createHmac("sha256", secret).update(value).digest("base64url");
  return {
    sign: (value: string) => `${value}.${mac(value)}`,
    unsign(signed: unknown): string | null {
      if (typeof signed !== "string") return null;
      const dot = signed.lastIndexOf(".");
      if (dot <= 0) return null;
      const value = signed.slice(0, dot);
      const given = Buffer.from(signed.slice(dot + 1));
      const expected = Buffer.from(mac(value));
      return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
    },
  };
}

export type Signer = ReturnType<typeof createSigner>;
