CREATE TABLE "shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"target_id" uuid NOT NULL,
	"token" text NOT NULL,
	"title" text NOT NULL,
	"frozen" boolean DEFAULT false NOT NULL,
	"frozen_at" timestamp with time zone,
	"frozen_tracker" jsonb,
	"search_ids" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"last_opened_at" timestamp with time zone,
	CONSTRAINT "shares_token_key" UNIQUE("token")
);
--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shares_user_idx" ON "shares" USING btree ("user_id","created_at");--> statement-breakpoint
-- Hand-written (ADR 048): a token that holds every scope that existed before "shares" (all the CLI and MCP needed) gets it too; null scopes already mean every scope.
UPDATE "api_tokens" SET "scopes" = array_append("scopes", 'shares') WHERE "scopes" @> ARRAY['search', 'history', 'variants', 'compare', 'lens', 'account:read', 'trackers']::text[] AND NOT ('shares' = ANY("scopes"));
