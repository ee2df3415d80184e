import { useState, type ReactNode } from "react";
import { Button, Card, CardContent } from "#web/shared-chunk.ts";

type ChartCardProps = {
  /** The card's heading (a provider's name) and its region's accessible name. */
  title: string;
  regionLabel: string;
  testId: string;
  /** What the y axis measures, in words. */
  axis: string;
  chart: ReactNode;
  /** The same figures as a table: the chart's text alternative. */
  table: ReactNode;
  legend: Array<{ key: string; colorVar: string; text: string }>;
  /** Told below the legend (the trend's markers). */
  children?: ReactNode;
};

/** One chart of the tracker page in its card: a heading, the chart or its table at a button's press, and the legend. */
export function ChartCard({ title, regionLabel, testId, axis, chart, table, legend, children }: ChartCardProps) {
  const [asTable, setAsTable] = useState(false);
  return (
    <Card className="gap-3 py-4" role="region" aria-label={regionLabel} data-testid={testId}>
      <CardContent className="space-y-3 px-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="font-medium">{title}</h3>
          <Button type="button" size="sm" variant="outline" aria-pressed={asTable} onClick={() => setAsTable((shown) => !shown)}>
            {asTable ? "Show chart" : "Show table"}
          </Button>
        </div>
        <p className="text-xs text-muted-foreground">{axis}</p>
        {asTable ? table : chart}
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="Legend">
          {legend.map((item) => (
            <li key={item.key} className="flex items-center gap-1.5">
              <span aria-hidden="true" className="inline-block h-0.5 w-4" style={{ background: `var(${item.colorVar})` }} />
              {item.text}
            </li>
          ))}
        </ul>
        {children}
      </CardContent>
    </Card>
  );
}
