import { afterAll, describe, expect, test } from "bun:test";
import { providerConfig } from "#src/contract/provider-config.ts";
import { providerIds } from "#src/contract/providers.ts";
import { startSimulator } from "#dev/simulators/index.ts";
import { liveProviderEnv } from "#tests/support/app.ts";
import { screenshot, useBrowser, visit } from "#tests/support/browser.ts";

/*
 * The Connection Status tells the truth (ADR 040): every provider is live (a key, a base URL at a
 * loopback simulator, the real SDKs), and Google no longer offers the Gemini model asked: its
 * retrieval answers 404 as Google's API does. The panel names the cause and the remedy.
 */
const upstream = startSimulator({ seed: 20261126, latency: { kind: "fixed", ms: 5 } });
upstream.setFaults("gemini", [{ kind: "model_not_found" }], { kinds: ["model"], persistent: true });
afterAll(() => upstream.stop());

const harness = useBrowser({
  env: liveProviderEnv(upstream, { GEMINI_MODEL: "gemini-2.5-flash" }),
});

describe("Connection Status in Chromium", () => {
  test("a provider whose model is gone says so, with the variable to change; the others say Connected", async () => {
    const page = await harness().newPage({ viewport: { width: 1280, height: 900 } });
    await visit(page, "/");
    const status = page.getByRole("region", { name: "Connection Status" });
    // Every provider but Gemini.
    expect(await status.getByText("Connected", { exact: true }).count()).toBe(providerIds.length - 1);
    expect(await status.getByText("Model Not Found", { exact: true }).isVisible()).toBe(true);
    const reason = `GEMINI_MODEL=gemini-2.5-flash is no longer offered by Google: set GEMINI_MODEL to a current model, or unset it for the default (${providerConfig.gemini.defaultModel}).`;
    const reasons = page.getByRole("list", { name: "What a provider needs" });
    expect(await reasons.innerText()).toBe(`Gemini: ${reason}`);
    await status.scrollIntoViewIfNeeded();
    await screenshot(page, "connection-status-failing.png");
  }, 45_000);
});
