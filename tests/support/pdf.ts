import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Page } from "playwright-core";
import { extractText, getDocumentProxy } from "unpdf";

/* Printed reports: what Chromium's "Save as PDF" gives, read back as a reader would. */

/** `page` printed to PDF as Chromium's print dialog does on A4, with its print stylesheet. */
export async function printToPdf(page: Page): Promise<Uint8Array> {
  await page.evaluate(() => document.fonts.ready);
  return new Uint8Array(await page.pdf({ format: "A4", printBackground: true }));
}

/** A PDF's text, and each page's, whitespace collapsed. */
export async function pdfText(pdf: Uint8Array): Promise<{ text: string; pages: string[] }> {
  const { text } = await extractText(await getDocumentProxy(pdf.slice()), { mergePages: false });
  const pages = text.map((page) => page.replace(/\s+/g, " ").trim());
  return { text: pages.join(" "), pages };
}

const PDFJS = readFileSync(join(dirname(createRequire(import.meta.url).resolve("unpdf")), "pdfjs.mjs"), "utf8");
const ORIGIN = "http://pdf.test";

/**
 * Draws page `number` (from 1) of `pdf` on a canvas of `page` (a blank page of its own: pdf.js, unpdf's
 * build, is served to it from node_modules) and leaves it there, the page sized to it, for a screenshot:
 * the printed report as its reader sees it, not the page in print media.
 */
export async function showPdfPage(page: Page, pdf: Uint8Array, number = 1, scale = 1.5): Promise<void> {
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/pdfjs.mjs") return route.fulfill({ body: PDFJS, contentType: "text/javascript" });
    if (path === "/report.pdf") return route.fulfill({ body: Buffer.from(pdf), contentType: "application/pdf" });
    return route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><html><body style="margin:0;background:#e5e5e5"><canvas id="page" style="display:block;margin:0 auto"></canvas>
<script type="module">
import { getDocument } from "/pdfjs.mjs";
const doc = await getDocument({ url: "/report.pdf" }).promise;
const first = await doc.getPage(${number});
const viewport = first.getViewport({ scale: ${scale} });
const canvas = document.getElementById("page");
canvas.width = viewport.width;
canvas.height = viewport.height;
await first.render({ canvasContext: canvas.getContext("2d"), canvas, viewport }).promise;
document.body.dataset.drawn = String(doc.numPages);
</script></body></html>`,
    });
  });
  await page.goto(`${ORIGIN}/`);
  await page.waitForSelector("body[data-drawn]", { timeout: 60_000 });
  const size = await page.evaluate(() => {
    const canvas = document.getElementById("page") as HTMLCanvasElement;
    return { width: canvas.width, height: canvas.height };
  });
  await page.setViewportSize(size);
}
