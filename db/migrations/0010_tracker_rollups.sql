CREATE TABLE "tracker_rollups" (
	"run_id" uuid NOT NULL,
	"tracker_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"query" text NOT NULL,
	"provider" text NOT NULL,
	"subject" text NOT NULL,
	"is_brand" boolean NOT NULL,
	"answers" integer NOT NULL,
	"mentions" integer NOT NULL,
	"all_mentions" integer NOT NULL,
	"cited" integer NOT NULL,
	"ranked" integer NOT NULL,
	"position_sum" integer NOT NULL,
	"position_squares" integer NOT NULL,
	"model_version" text NOT NULL,
	CONSTRAINT "tracker_rollups_pkey" PRIMARY KEY("run_id","query","provider","subject")
);
--> statement-breakpoint
ALTER TABLE "tracker_rollups" ADD CONSTRAINT "tracker_rollups_run_id_tracker_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."tracker_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_rollups" ADD CONSTRAINT "tracker_rollups_tracker_id_trackers_id_fk" FOREIGN KEY ("tracker_id") REFERENCES "public"."trackers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tracker_rollups_trend_idx" ON "tracker_rollups" USING btree ("tracker_id","query","at");