import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import { positionRange } from "#src/core/trend.ts";
import { runLabels, type ChartSeries } from "#web/lib/trend.ts";

/*
 * One provider's trend drawn with uPlot (ADR 046): the brand's line with its 95% band (for the
 * tracker's rate, widened by how much the provider's runs vary: ADR 050), the competitors' lines,
 * and a vertical rule where the model changed (solid) or what the tracker asks or counts was
 * edited (dashed); the sources by type are drawn by the same chart, a line per type. uPlot draws
 * on a canvas in the browser only, so it is imported here, in an effect: its own chunk, fetched by
 * the tracker page alone, never part of the first load of `/`.
 */

const HEIGHT = 240;
/** The theme's chart colours (web/styles/app.css): the brand first, then the competitors. */
const PALETTE = ["--chart-1", "--chart-2", "--chart-3", "--chart-4", "--chart-5"];

/** The colour of `--name` (optionally see-through), resolved by the browser so that the canvas can use it. */
function themeColor(host: HTMLElement, name: string, alpha = 1): string {
  const probe = document.createElement("span");
  probe.style.color = alpha === 1 ? `var(${name})` : `color-mix(in srgb, var(${name}) ${alpha * 100}%, transparent)`;
  host.append(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

function subjectColorVar(index: number): string {
  return PALETTE[index % PALETTE.length] ?? "--chart-1";
}

/** A subject's colour: its own when it has one (a source type), else by its place. */
export function seriesColorVar(subject: ChartSeries["subjects"][number], index: number): string {
  return subject.color ?? subjectColorVar(index);
}

/** The y axis: a percentage (0–100) or a mean position (1 at the top, so a better rank draws higher, as the CLI's sparkline is taller). */
export type ChartScale = "percent" | "position";

type TrendChartProps = { trend: ChartSeries; scale: ChartScale; label: string; testId?: string; height?: number };

export function TrendChart({ trend, scale, label, testId = "trend-chart", height = HEIGHT }: TrendChartProps) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let chart: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let cancelled = false;
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return;
      // Runs are evenly spaced (one per run, labelled with its day): a missed day is no gap in the line.
      const xs = trend.runs.map((_run, index) => index);
      const labels = runLabels(trend.runs.map((run) => run.at));
      const values = (pick: (point: { rate: number | null; low: number | null; high: number | null }) => number | null, subject: string) =>
        trend.runs.map((run) => {
          const point = run.bySubject.get(subject);
          return point ? pick(point) : null;
        });
      const brand = trend.subjects.find((subject) => subject.isBrand);
      const lines = trend.subjects.map((subject) => values((point) => point.rate, subject.name));
      const band = brand ? [values((point) => point.high, brand.name), values((point) => point.low, brand.name)] : [];
      const muted = themeColor(element, "--muted-foreground");
      const grid = themeColor(element, "--border");
      const axis = { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
      const hidden = { stroke: "transparent", points: { show: false } };
      const markerTimes = trend.markers.map((marker) => ({ x: trend.runs.findIndex((run) => run.at === marker.at), dashed: marker.kind === "queries" }));
      const options: uPlot.Options = {
        width: element.clientWidth || 600,
        height,
        legend: { show: false },
        cursor: { show: false },
        scales: {
          x: { time: false, range: [-0.25, Math.max(1, xs.length - 1) + 0.25] },
          y: scale === "position" ? { dir: -1, range: (_u, _min, max) => positionRange(max ?? 2) } : { range: [0, 100] },
        },
        axes: [
          // A tick per run, at most about one per 70 px.
          {
            ...axis,
            splits: () => xs.filter((x) => x % Math.ceil(xs.length / Math.max(1, Math.floor(element.clientWidth / 70))) === 0),
            values: (_u, splits) => splits.map((x) => labels[x] ?? ""),
          },
          { ...axis, size: 44 },
        ],
        series: [
          {},
          ...trend.subjects.map((subject, index) => ({
            label: subject.name,
            stroke: themeColor(element, seriesColorVar(subject, index)),
            width: subject.isBrand ? 2.5 : 1.5,
            dash: subject.isBrand ? undefined : [6, 4],
            points: { show: true, size: subject.isBrand ? 6 : 4 },
          })),
          ...band.map(() => hidden),
        ],
        bands: brand
          ? [
              {
                series: [trend.subjects.length + 1, trend.subjects.length + 2],
                fill: themeColor(element, seriesColorVar(brand, trend.subjects.indexOf(brand)), 0.2),
              },
            ]
          : [],
        hooks: {
          draw: [
            (u) => {
              const { ctx, bbox } = u;
              ctx.save();
              ctx.strokeStyle = muted;
              ctx.lineWidth = 1.5 * devicePixelRatio;
              for (const marker of markerTimes) {
                const x = Math.round(u.valToPos(marker.x, "x", true));
                ctx.setLineDash(marker.dashed ? [4 * devicePixelRatio, 4 * devicePixelRatio] : []);
                ctx.beginPath();
                ctx.moveTo(x, bbox.top);
                ctx.lineTo(x, bbox.top + bbox.height);
                ctx.stroke();
              }
              ctx.restore();
            },
          ],
        },
      };
      chart = new UPlot(options, [xs, ...lines, ...band], element);
      observer = new ResizeObserver(() => chart?.setSize({ width: element.clientWidth, height }));
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [trend, scale, height]);

  // The canvas is a picture of the figures: named here, and told in full by the table view.
  return <div ref={host} role="img" aria-label={label} className="w-full overflow-hidden" style={{ minHeight: height }} data-testid={testId} />;
}
