CREATE TABLE "mail_sends" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "mail_sends_pkey" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "rate_counters" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_counters_pkey" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "spend_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"source" text NOT NULL,
	"usd" double precision NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "spend" ADD COLUMN "source" text DEFAULT 'search' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_sends" ADD CONSTRAINT "mail_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spend_holds" ADD CONSTRAINT "spend_holds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rate_counters_window_idx" ON "rate_counters" USING btree ("window_start");--> statement-breakpoint
CREATE INDEX "spend_holds_expires_idx" ON "spend_holds" USING btree ("expires_at");--> statement-breakpoint
-- Hand-written: what trackers' runs spent before the source was kept is theirs (their saved searches carry the tracker).
UPDATE "spend" SET "source" = 'tracker' WHERE "search_id" IN (SELECT "id" FROM "searches" WHERE "tracker_id" IS NOT NULL);
