import { expect, test } from "bun:test";
import { isStorableText, storableText } from "#src/core/storable-text.ts";

test("model output PostgreSQL could not keep is cleaned: NUL dropped, lone surrogates replaced, pairs and everything else kept", () => {
  const answer = {
    text: "Acme\u0000 CRM \ud800 and 🚀",
    sources: [{ url: "https://a.example/\udc00", title: "ok" }],
    n: 3,
    nested: { ["k\u0000"]: ["x\ud83d"] },
  };
  expect(storableText(answer) as unknown).toEqual({
    text: "Acme CRM \ufffd and 🚀",
    sources: [{ url: "https://a.example/\ufffd", title: "ok" }],
    n: 3,
    nested: { k: ["x\ufffd"] },
  });
  for (const text of ["plain", "🚀 paired", "日本語", ""]) expect(isStorableText(text)).toBe(true);
  for (const text of ["a\u0000b", "\ud800", "x\udc00y"]) expect(isStorableText(text)).toBe(false);
});
