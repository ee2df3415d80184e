/**
 * A small line of rates (0–100%, on a fixed scale so that two trackers' lines compare), drawn as
 * inline SVG: the overview shows one per tracker, and a chart library for each would be heavy. A run
 * without a figure breaks the line. Its label says the rates, for whoever cannot see it.
 */
export function Sparkline({ rates, label, width = 96, height = 28 }: { rates: ReadonlyArray<number | null>; label: string; width?: number; height?: number }) {
  const step = rates.length > 1 ? (width - 4) / (rates.length - 1) : 0;
  const x = (index: number) => 2 + index * step;
  const y = (rate: number) => height - 2 - (rate / 100) * (height - 4);
  const segments: string[] = [];
  let current: string[] = [];
  rates.forEach((rate, index) => {
    if (rate === null) {
      if (current.length > 0) segments.push(current.join(" "));
      current = [];
      return;
    }
    current.push(`${x(index).toFixed(1)},${y(rate).toFixed(1)}`);
  });
  if (current.length > 0) segments.push(current.join(" "));
  const lastIndex = rates.findLastIndex((rate) => rate !== null);
  const last = rates[lastIndex];
  return (
    <svg
      role="img"
      aria-label={label}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      className="shrink-0 overflow-visible text-primary"
      data-testid="tracker-sparkline"
    >
      <line x1={0} x2={width} y1={height - 2} y2={height - 2} className="stroke-border" strokeWidth={1} />
      {segments.map((points) => (
        <polyline key={points} points={points} fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />
      ))}
      {last != null ? <circle cx={x(lastIndex)} cy={y(last)} r={2} fill="currentColor" /> : null}
    </svg>
  );
}
