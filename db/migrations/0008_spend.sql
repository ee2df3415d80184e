CREATE TABLE "spend" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"search_id" uuid,
	"usd" double precision NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "searches" ADD COLUMN "cost_usd" double precision;--> statement-breakpoint
ALTER TABLE "spend" ADD CONSTRAINT "spend_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "spend_user_at_idx" ON "spend" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "spend_at_idx" ON "spend" USING btree ("at");