import { cn } from "#web/lib/utils.ts";
import { visibleText } from "#src/core/display-text.ts";
import { API_ANSWERS_NOTE } from "#src/core/method.ts";

type ReportHeadingProps = {
  /** What kind of report: "Search report", "Comparison", "Tracker report". */
  kind: string;
  /** The query or the tracker's name. */
  subject: string;
  /** Its date and its method, a line each. */
  details: string[];
  /** On paper only (the owner's pages, whose own header says it on screen); else on screen too (a share link's page). */
  printOnly?: boolean;
};

/**
 * A report's heading: the product, what the report is, its query or tracker (on one line, as
 * visibleText shows it), its date and its method; then that the answers are the APIs', which
 * shows on screen too, where the rest is on paper only.
 */
export function ReportHeading({ kind, subject, details, printOnly = false }: ReportHeadingProps) {
  // The page's heading where it is shown; on paper only, the page has its own.
  const Title = printOnly ? "p" : "h1";
  return (
    <div className="space-y-1 break-inside-avoid">
      <section aria-label="Report" className={cn("space-y-1", printOnly && "hidden print:block")} data-testid="report-heading">
        <p className="text-sm text-muted-foreground">
          {/* On screen the page's own header names the product; on paper this line does. */}
          <span className={printOnly ? undefined : "hidden print:inline"}>AI Search Comparison · </span>
          {kind}
        </p>
        <Title className="text-2xl font-bold tracking-tight break-words">{visibleText(subject)}</Title>
        {details.map((line) => (
          <p key={line} className="text-sm text-muted-foreground">
            {line}
          </p>
        ))}
      </section>
      <p className="text-sm text-muted-foreground">{API_ANSWERS_NOTE}</p>
    </div>
  );
}
