CREATE TABLE "provider_slots" (
	"provider" text NOT NULL,
	"slot" integer NOT NULL,
	"instance_id" uuid NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_slots_pkey" PRIMARY KEY("provider","slot")
);
--> statement-breakpoint
CREATE TABLE "tracker_calls" (
	"run_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"provider" text NOT NULL,
	"iteration" integer NOT NULL,
	"status" text NOT NULL,
	"instance_id" uuid NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"result" jsonb,
	"cost_usd" double precision,
	"simulated" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracker_calls_pkey" PRIMARY KEY("run_id","position","provider","iteration")
);
--> statement-breakpoint
CREATE TABLE "tracker_run_queries" (
	"run_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"query" text NOT NULL,
	"search_id" uuid,
	"finished_at" timestamp with time zone,
	CONSTRAINT "tracker_run_queries_pkey" PRIMARY KEY("run_id","position")
);
--> statement-breakpoint
CREATE TABLE "tracker_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tracker_id" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"reason" text,
	"trigger" text NOT NULL,
	"segment" integer NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expected" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trackers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"queries" jsonb NOT NULL,
	"brand" jsonb NOT NULL,
	"competitors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"providers" text[] NOT NULL,
	"iterations" integer NOT NULL,
	"location" jsonb,
	"cron" text NOT NULL,
	"timezone" text NOT NULL,
	"monthly_budget_usd" double precision,
	"paused" boolean DEFAULT false NOT NULL,
	"paused_reason" text,
	"segment" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "searches" ADD COLUMN "tracker_id" uuid;--> statement-breakpoint
ALTER TABLE "searches" ADD COLUMN "run_id" uuid;--> statement-breakpoint
ALTER TABLE "tracker_calls" ADD CONSTRAINT "tracker_calls_run_id_tracker_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."tracker_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_run_queries" ADD CONSTRAINT "tracker_run_queries_run_id_tracker_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."tracker_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_run_queries" ADD CONSTRAINT "tracker_run_queries_search_id_searches_id_fk" FOREIGN KEY ("search_id") REFERENCES "public"."searches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_runs" ADD CONSTRAINT "tracker_runs_tracker_id_trackers_id_fk" FOREIGN KEY ("tracker_id") REFERENCES "public"."trackers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trackers" ADD CONSTRAINT "trackers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tracker_runs_tracker_created_idx" ON "tracker_runs" USING btree ("tracker_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "tracker_runs_one_active_key" ON "tracker_runs" USING btree ("tracker_id") WHERE "tracker_runs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "tracker_runs_occurrence_key" ON "tracker_runs" USING btree ("tracker_id","scheduled_for") WHERE "tracker_runs"."trigger" = 'schedule';--> statement-breakpoint
CREATE INDEX "trackers_user_idx" ON "trackers" USING btree ("user_id","created_at");