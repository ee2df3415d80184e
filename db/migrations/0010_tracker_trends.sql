CREATE TABLE "tracker_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tracker_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"metric" text NOT NULL,
	"provider" text NOT NULL,
	"subject" text NOT NULL,
	"query" text NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"p" double precision,
	"q" double precision,
	"at" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
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
CREATE TABLE "tracker_source_rollups" (
	"run_id" uuid NOT NULL,
	"tracker_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"domain" text NOT NULL,
	"answers" integer NOT NULL,
	"with_brand" integer NOT NULL,
	"with_competitor" integer NOT NULL,
	CONSTRAINT "tracker_source_rollups_pkey" PRIMARY KEY("run_id","provider","domain")
);
--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "alert_window" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "webhook_url" text;--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "webhook_format" text;--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "webhook_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "digest_emails" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "alert_emails" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tracker_alerts" ADD CONSTRAINT "tracker_alerts_tracker_id_trackers_id_fk" FOREIGN KEY ("tracker_id") REFERENCES "public"."trackers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_alerts" ADD CONSTRAINT "tracker_alerts_run_id_tracker_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."tracker_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_rollups" ADD CONSTRAINT "tracker_rollups_run_id_tracker_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."tracker_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_rollups" ADD CONSTRAINT "tracker_rollups_tracker_id_trackers_id_fk" FOREIGN KEY ("tracker_id") REFERENCES "public"."trackers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_source_rollups" ADD CONSTRAINT "tracker_source_rollups_run_id_tracker_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."tracker_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_source_rollups" ADD CONSTRAINT "tracker_source_rollups_tracker_id_trackers_id_fk" FOREIGN KEY ("tracker_id") REFERENCES "public"."trackers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tracker_alerts_once_key" ON "tracker_alerts" USING btree ("run_id","kind","metric","provider","subject","query");--> statement-breakpoint
CREATE INDEX "tracker_alerts_tracker_idx" ON "tracker_alerts" USING btree ("tracker_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tracker_rollups_trend_idx" ON "tracker_rollups" USING btree ("tracker_id","query","at");--> statement-breakpoint
CREATE INDEX "tracker_source_rollups_tracker_idx" ON "tracker_source_rollups" USING btree ("tracker_id","at");