ALTER TABLE "tracker_alerts" ADD COLUMN "rule" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracker_alerts" ADD COLUMN "dispersion" jsonb;--> statement-breakpoint
ALTER TABLE "tracker_alerts" ADD COLUMN "baseline_runs" jsonb;--> statement-breakpoint
ALTER TABLE "tracker_alerts" ADD COLUMN "after_runs" jsonb;--> statement-breakpoint
ALTER TABLE "tracker_rollups" ADD COLUMN "co_mentions" integer;--> statement-breakpoint
ALTER TABLE "tracker_rollups" ADD COLUMN "mention_squares" integer;--> statement-breakpoint
ALTER TABLE "tracker_runs" ADD COLUMN "definition" jsonb;