CREATE TABLE "instances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "searches" ADD COLUMN "instance_id" uuid;--> statement-breakpoint
ALTER TABLE "searches" ADD COLUMN "slot" text;--> statement-breakpoint
ALTER TABLE "searches" ADD COLUMN "charge" jsonb;