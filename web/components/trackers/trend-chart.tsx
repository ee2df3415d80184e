import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type uPlot from "uplot";
import { positionRange } from "#src/core/position-axis.ts";
import { labelledRuns, positionTicks, runLabels, runTooltip, type ChartSeries } from "#web/lib/trend.ts";

/*
 * One provider's trend drawn with uPlot (ADR 046): the brand's line with its 95% band (for the
 * tracker's rate, widened by how much the provider's runs vary: ADR 050), the competitors' lines,
 * and a vertical rule where the model changed (solid) or what the tracker asks or counts was
 * edited (dashed); the sources by type are drawn by the same chart, a line per type. uPlot draws
 * on a canvas in the browser only, so it is imported here, in an effect: its own chunk, fetched by
 * the tracker page alone, never part of the first load of `/`.
 */

const HEIGHT = 240;
/** The axes' font: set on uPlot and measured here, so that the labels thinned are the labels drawn. */
const AXIS_FONT = "12px system-ui, sans-serif";
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
  const plot = useRef<uPlot | undefined>(undefined);
  // The run under the pointer or chosen with the arrow keys, and where its tooltip stands (px from the chart's left).
  const [active, setActive] = useState<{ index: number; left: number; width: number } | null>(null);
  const tip = active ? runTooltip(trend, active.index, scale) : null;

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
      const labelWidth = widestLabel(labels);
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
      const axis = { stroke: muted, font: AXIS_FONT, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
      const hidden = { stroke: "transparent", points: { show: false } };
      const markerTimes = trend.markers.map((marker) => ({ x: trend.runs.findIndex((run) => run.at === marker.at), dashed: marker.kind === "queries" }));
      const options: uPlot.Options = {
        width: element.clientWidth || 600,
        height,
        legend: { show: false },
        // A vertical rule at the run nearest the pointer; the tooltip is drawn by React (below), no zoom on drag.
        cursor: { x: true, y: false, drag: { x: false, y: false, setScale: false } },
        // Room on the right for half the newest run's label, which is centred on its tick: it is never clipped.
        padding: [12, Math.ceil(labelWidth / 2), null, null],
        scales: {
          x: { time: false, range: [-0.25, Math.max(1, xs.length - 1) + 0.25] },
          y: scale === "position" ? { dir: -1, range: (_u, _min, max) => positionRange(max ?? 2) } : { range: [0, 100] },
        },
        axes: [
          // A tick per run labelled, as many as fit side by side at the chart's width.
          {
            ...axis,
            splits: (u) => labelledRuns(xs.length, u.bbox.width / devicePixelRatio, labelWidth),
            values: (_u, splits) => splits.map((x) => labels[x] ?? ""),
          },
          // Position: 1st place labelled at the top, so that the axis says which way it points.
          scale === "position" ? { ...axis, size: 44, splits: (_u, _axis, _min, max) => positionTicks(max) } : { ...axis, size: 44 },
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
          setCursor: [
            (u) => {
              const index = u.cursor.idx;
              setActive(
                index === null || index === undefined ? null : { index, left: u.bbox.left / devicePixelRatio + u.valToPos(index, "x"), width: u.width },
              );
            },
          ],
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
      plot.current = chart;
      observer = new ResizeObserver(() => chart?.setSize({ width: element.clientWidth, height }));
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
      plot.current = undefined;
      setActive(null);
    };
  }, [trend, scale, height]);

  // The keyboard's way to the tooltip: the arrow keys, Home and End move the rule from run to run.
  const onKeyDown = (event: KeyboardEvent) => {
    const u = plot.current;
    const last = trend.runs.length - 1;
    if (!u || last < 0) return;
    const current = active?.index ?? last;
    const next = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    moveTo(u, Math.min(last, Math.max(0, next)));
  };

  // The canvas is a picture of the figures: named here, read run by run with the keys (the live line says each), and told in full by the table view.
  return (
    <div
      role="group"
      aria-label={`${label}. Use the left and right arrow keys to read each run.`}
      tabIndex={0}
      className="relative rounded-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
      onKeyDown={onKeyDown}
      onFocus={() => plot.current && active === null && moveTo(plot.current, trend.runs.length - 1)}
      onBlur={() => plot.current?.setCursor({ left: -10, top: -10 })}
      data-testid={`${testId}-reader`}
    >
      <div ref={host} role="img" aria-label={label} className="w-full overflow-hidden" style={{ minHeight: height }} data-testid={testId} />
      <p className="sr-only" aria-live="polite" data-testid="chart-live">
        {tip ? `${tip.time}: ${tip.rows.map((row) => `${row.name} ${row.text}`).join("; ")}` : ""}
      </p>
      {tip && active ? (
        <div
          aria-hidden="true"
          data-testid="chart-tooltip"
          className="pointer-events-none absolute top-2 z-10 rounded-md border bg-popover px-2 py-1.5 text-xs text-popover-foreground shadow-md"
          // Beside the rule, on whichever side has the more room, and never wider than that room (a phone's page must not scroll sideways).
          style={
            active.left > active.width / 2
              ? { right: active.width - active.left + 8, maxWidth: Math.min(256, active.left - 16) }
              : { left: active.left + 8, maxWidth: Math.min(256, active.width - active.left - 16) }
          }
        >
          <p className="font-medium">{tip.time}</p>
          <ul>
            {tip.rows.map((row, index) => (
              <li key={row.name} className="flex items-center gap-1.5 tabular-nums">
                <span
                  aria-hidden="true"
                  className="inline-block h-0.5 w-3 shrink-0"
                  style={{ background: `var(${seriesColorVar(trend.subjects[index]!, index)})` }}
                />
                <span className="whitespace-normal">
                  {row.name}: {row.text}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** Puts the chart's rule (and so its tooltip) on run `index`. */
function moveTo(u: uPlot, index: number) {
  u.setCursor({ left: u.valToPos(index, "x"), top: u.bbox.height / devicePixelRatio / 2 });
}

/** The widest of the axis labels as the canvas draws them, in CSS px. */
function widestLabel(labels: readonly string[]): number {
  const context = document.createElement("canvas").getContext("2d");
  if (!context) return 12 * 7;
  context.font = AXIS_FONT;
  return Math.max(0, ...labels.map((text) => context.measureText(text).width));
}
