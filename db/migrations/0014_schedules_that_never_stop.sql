CREATE TABLE "provider_pauses" (
	"provider" text PRIMARY KEY NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracker_missed_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tracker_id" uuid NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "next_run_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tracker_missed_runs" ADD CONSTRAINT "tracker_missed_runs_tracker_id_trackers_id_fk" FOREIGN KEY ("tracker_id") REFERENCES "public"."trackers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tracker_missed_runs_once_key" ON "tracker_missed_runs" USING btree ("tracker_id","due_at");--> statement-breakpoint
CREATE INDEX "tracker_runs_created_idx" ON "tracker_runs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "trackers_due_idx" ON "trackers" USING btree ("next_run_at") WHERE "trackers"."next_run_at" is not null;