import { describe, expect, test } from "bun:test";
import { copyText } from "#web/lib/clipboard.ts";

/** A stand-in for the read-only token field: records focus and selection. */
function fakeField() {
  const calls: string[] = [];
  const field = { focus: () => calls.push("focus"), select: () => calls.push("select") } as unknown as HTMLInputElement;
  return { field, calls };
}

describe("copyText (the new token's Copy button)", () => {
  test("writes through the Clipboard API when the browser allows it, leaving the field alone", async () => {
    const written: string[] = [];
    const { field, calls } = fakeField();
    const copied = await copyText("aisc_secret", field, {
      clipboard: { writeText: async (text) => void written.push(text) },
      document: { execCommand: () => false },
    });
    expect(copied).toBe(true);
    expect(written).toEqual(["aisc_secret"]);
    expect(calls).toEqual([]);
  });

  test("when the Clipboard API refuses (or is absent, on plain http), selects the field and uses the copy command", async () => {
    const commands: string[] = [];
    const legacy = { execCommand: (command: string) => (commands.push(command), true) };
    const refused = fakeField();
    expect(
      await copyText("aisc_secret", refused.field, {
        clipboard: { writeText: () => Promise.reject(new DOMException("denied", "NotAllowedError")) },
        document: legacy,
      }),
    ).toBe(true);
    expect(refused.calls).toEqual(["focus", "select"]);

    const absent = fakeField();
    expect(await copyText("aisc_secret", absent.field, { clipboard: undefined, document: legacy })).toBe(true);
    expect(absent.calls).toEqual(["focus", "select"]);
    expect(commands).toEqual(["copy", "copy"]);
  });

  test("false when nothing could copy: the text is left selected for Ctrl+C", async () => {
    const { field, calls } = fakeField();
    expect(await copyText("aisc_secret", field, { clipboard: undefined, document: { execCommand: () => false } })).toBe(false);
    expect(calls).toEqual(["focus", "select"]);
    const throwing = {
      execCommand: () => {
        throw new Error("not supported");
      },
    };
    expect(await copyText("aisc_secret", fakeField().field, { clipboard: undefined, document: throwing })).toBe(false);
    expect(await copyText("aisc_secret", null, { clipboard: undefined, document: { execCommand: () => true } })).toBe(false);
  });
});
