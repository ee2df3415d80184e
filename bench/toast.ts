/**
 * First feedback: in Chromium (playwright-core, /usr/bin/chromium), a fresh page of / from the
 * single binary, hydrated; then a click on Search with the query blank, until the first animation
 * frame after the "Empty search query" toast is in the page (goal ≤ 100 ms). The baseline is the
 * first frame after a click that changes nothing: what any click costs. Median of --runs fresh pages.
 *
 *   bun bench/toast.ts [--runs 7] [--quick]
 */
import { chromium } from "playwright-core";
import { CHROMIUM } from "#tests/support/browser.ts";
import { BINARY, flag, median, quick, report, startServer } from "./lib.ts";

const runs = Number(flag("--runs") ?? (quick ? 3 : 7));

const server = await startServer([BINARY]);
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
const toasts: number[] = [];
const frames: number[] = [];
for (let run = 0; run < runs; run++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector("html[data-hydrated]", { state: "attached" });
  // The click's own time (event.timeStamp) and the first frame after `done()` holds.
  const watch = (until: "toast" | "frame") =>
    page.evaluate((until) => {
      return new Promise<number>((resolve) => {
        let clicked = 0;
        const frameAfter = () => requestAnimationFrame(() => resolve(performance.now() - clicked));
        addEventListener(
          "click",
          (event) => {
            clicked = event.timeStamp;
            if (until === "frame") frameAfter();
          },
          { capture: true, once: true },
        );
        if (until === "toast") {
          const observer = new MutationObserver(() => {
            if (!document.body.textContent?.includes("Empty search query")) return;
            observer.disconnect();
            frameAfter();
          });
          observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        }
      });
    }, until);
  const frame = watch("frame");
  await page.locator("h1").first().click();
  frames.push(await frame);
  const toast = watch("toast");
  await page.getByRole("form", { name: "Search" }).getByRole("button", { name: "Search All Models" }).click();
  toasts.push(await toast);
  await context.close();
}
await browser.close();
await server.stop();

console.log(
  `click → toast on screen: ${toasts.map((ms) => ms.toFixed(0)).join(", ")} ms; click → next frame (baseline): ${frames.map((ms) => ms.toFixed(0)).join(", ")} ms`,
);
report({
  figure: "first toast after a click (Chromium)",
  value: median(toasts),
  unit: "ms",
  goal: 100,
  better: "lower",
  detail: `bare click → frame ${median(frames).toFixed(0)} ms`,
});
process.exit(0);
