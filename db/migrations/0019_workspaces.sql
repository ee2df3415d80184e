CREATE TABLE "workspace_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"via" text NOT NULL,
	"token_id" uuid,
	"token_prefix" text,
	"action" text NOT NULL,
	"target" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"role" text NOT NULL,
	"email" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_by" uuid,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "workspace_invitations_token_hash_key" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "workspace_members" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_members_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id"),
	CONSTRAINT "workspace_members_role_check" CHECK ("workspace_members"."role" in ('viewer', 'editor', 'admin', 'owner'))
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"personal_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspaces_personal_user_id_key" UNIQUE("personal_user_id")
);
--> statement-breakpoint
ALTER TABLE "shares" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "variant_sets" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
-- Hand-written (ADR 071): every account gets its personal workspace, owned by it, and what it had moves in; then the columns are required.
INSERT INTO "workspaces" ("name", "personal_user_id", "created_at", "updated_at") SELECT 'Personal', "id", "created_at", "created_at" FROM "users";--> statement-breakpoint
INSERT INTO "workspace_members" ("workspace_id", "user_id", "role", "joined_at") SELECT "id", "personal_user_id", 'owner', "created_at" FROM "workspaces" WHERE "personal_user_id" IS NOT NULL;--> statement-breakpoint
UPDATE "shares" SET "workspace_id" = "workspaces"."id" FROM "workspaces" WHERE "workspaces"."personal_user_id" = "shares"."user_id";--> statement-breakpoint
UPDATE "trackers" SET "workspace_id" = "workspaces"."id" FROM "workspaces" WHERE "workspaces"."personal_user_id" = "trackers"."user_id";--> statement-breakpoint
UPDATE "variant_sets" SET "workspace_id" = "workspaces"."id" FROM "workspaces" WHERE "workspaces"."personal_user_id" = "variant_sets"."user_id";--> statement-breakpoint
ALTER TABLE "shares" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "trackers" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "variant_sets" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
-- Hand-written: a token holding every scope that existed before "workspaces" (all the CLI and MCP needed) gets it too, as 0011 did for "shares".
UPDATE "api_tokens" SET "scopes" = array_append("scopes", 'workspaces') WHERE "scopes" @> ARRAY['search', 'history', 'variants', 'compare', 'lens', 'account:read', 'trackers', 'shares']::text[] AND NOT ('workspaces' = ANY("scopes"));--> statement-breakpoint
ALTER TABLE "workspace_audit" ADD CONSTRAINT "workspace_audit_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_audit" ADD CONSTRAINT "workspace_audit_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_used_by_users_id_fk" FOREIGN KEY ("used_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_personal_user_id_users_id_fk" FOREIGN KEY ("personal_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_audit_workspace_idx" ON "workspace_audit" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE INDEX "workspace_invitations_workspace_idx" ON "workspace_invitations" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "workspace_members_user_idx" ON "workspace_members" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "shares" ADD CONSTRAINT "shares_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trackers" ADD CONSTRAINT "trackers_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variant_sets" ADD CONSTRAINT "variant_sets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shares_workspace_idx" ON "shares" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "trackers_workspace_idx" ON "trackers" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "variant_sets_workspace_idx" ON "variant_sets" USING btree ("workspace_id");