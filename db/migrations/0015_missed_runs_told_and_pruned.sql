ALTER TABLE "tracker_missed_runs" ADD COLUMN "told_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "tracker_missed_runs_created_idx" ON "tracker_missed_runs" USING btree ("created_at");--> statement-breakpoint
-- Hand-written (ADR 058): misses recorded before were handed on as they were recorded; the check must not send them again.
UPDATE "tracker_missed_runs" SET "told_at" = "created_at";
