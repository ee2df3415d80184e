CREATE TABLE "variant_sets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"query" text NOT NULL,
	"variants" jsonb NOT NULL,
	"generated_by" jsonb,
	"edited" boolean DEFAULT false NOT NULL,
	"batch_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "searches" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "variant_sets" ADD CONSTRAINT "variant_sets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variant_sets" ADD CONSTRAINT "variant_sets_batch_id_variant_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."variant_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "variant_sets_user_query_key" ON "variant_sets" USING btree ("user_id",lower("query"));