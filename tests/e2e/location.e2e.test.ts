import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { screenshot, seriousAxeViolations, useBrowser, waitForHydration } from "#tests/support/browser.ts";

/*
 * ADR 042 in Chromium: a country and a city set in the search form reach the
 * providers whose web search takes a location, and the result's header says where it was asked
 * from; Gemini's card says its answer is not localised.
 */
const harness = useBrowser({ simulator: { seed: 20261126 }, distinctAddresses: true });
/** Per test: `bun test <file>` may not apply bunfig's timeout (Bun 1.4.5 uses 5 s). No test asserts on time. */
const TIMEOUT = 45_000;

async function openHome(): Promise<Page> {
  const page = await harness().newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto("/");
  await waitForHydration(page);
  await page.getByLabel("What would you like to search?").waitFor();
  return page;
}

test(
  "a country and a city set in the form: the header says 'Asked from Germany, Berlin', OpenAI's search got them, Gemini's card says it is not localised",
  async () => {
    const page = await openHome();
    const form = page.getByRole("form", { name: "Search" });
    // Nothing about places loads or shows until asked for.
    expect(await page.getByLabel("Ask from").count()).toBe(0);
    await form.getByRole("button", { name: "Ask from a place" }).click();
    await page.getByLabel("Ask from").selectOption("DE");
    await page.getByLabel("City").fill("Berlin");
    expect(await seriousAxeViolations(page)).toEqual([]);

    const before = harness().simulator.requests.length;
    await page.getByLabel("What would you like to search?").fill("best e-bike for commuting");
    await form.getByRole("button", { name: /^Search( All Models)?$/ }).click();
    const header = page.getByText("Asked from Germany, Berlin");
    await header.waitFor();

    const sent = harness()
      .simulator.requests.slice(before)
      .find((entry) => entry.provider === "openai" && entry.kind === "search");
    const tools = (sent?.body as { tools?: Array<{ user_location?: unknown }> } | undefined)?.tools ?? [];
    expect(tools[0]?.user_location).toEqual({ type: "approximate", country: "DE", city: "Berlin" });
    const gemini = page.getByRole("region", { name: "Gemini Results", exact: true });
    expect(await gemini.getByText("Gemini's search does not take a location: its answer is not localised.").count()).toBe(1);
    await screenshot(page, "result-asked-from.png", { published: false });
  },
  TIMEOUT,
);
