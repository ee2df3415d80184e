import { ChartColumn, Columns3, Download, type LucideIcon } from "lucide-react";
import { listModels, providerIds } from "#src/contract/providers.ts";

const POINTS: Array<{ icon: LucideIcon; title: string; text: string }> = [
  {
    icon: Columns3,
    title: "Cross-model comparison",
    text: `Run one query against ${listModels(providerIds)} and see their products, companies and sources side by side.`,
  },
  {
    icon: ChartColumn,
    title: "Aggregated insights",
    text: "Repeat a search several times and see how often each product, brand and source comes back, and where the models agree.",
  },
  {
    icon: Download,
    title: "Export your results",
    text: "Download any result as JSON or CSV and take it into your own reports.",
  },
];

/** Spec §2 auth page: the left-side text with its three points. */
export function AuthMarketing({ headingId }: { headingId: string }) {
  return (
    <section aria-labelledby={headingId} className="space-y-6">
      <div className="space-y-3">
        <h2 id={headingId} className="text-3xl font-bold tracking-tight sm:text-4xl">
          See what every AI recommends
        </h2>
        <p className="text-lg text-muted-foreground">
          AI models answer the same search differently. An account keeps every comparison you run, ready to reopen.
        </p>
      </div>
      <ul className="space-y-5">
        {POINTS.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex gap-4">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <div>
              <h3 className="font-semibold">{title}</h3>
              <p className="text-sm text-muted-foreground">{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
