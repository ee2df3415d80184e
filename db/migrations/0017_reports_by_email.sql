CREATE TABLE "tracker_report_recipients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tracker_id" uuid NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirmed_at" timestamp with time zone,
	"confirmation_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracker_report_sends" (
	"recipient_id" uuid NOT NULL,
	"period" text NOT NULL,
	"outcome" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracker_report_sends_pkey" PRIMARY KEY("recipient_id","period")
);
--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "report_cadence" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "report_share_id" uuid;--> statement-breakpoint
ALTER TABLE "tracker_report_recipients" ADD CONSTRAINT "tracker_report_recipients_tracker_id_trackers_id_fk" FOREIGN KEY ("tracker_id") REFERENCES "public"."trackers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_report_sends" ADD CONSTRAINT "tracker_report_sends_recipient_id_tracker_report_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."tracker_report_recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tracker_report_recipients_address_idx" ON "tracker_report_recipients" USING btree ("tracker_id","email");