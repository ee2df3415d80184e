CREATE TABLE "variant_batch_items" (
	"batch_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"query" text NOT NULL,
	"reasoning" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"search_id" uuid,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "variant_batch_items_pkey" PRIMARY KEY("batch_id","position")
);
--> statement-breakpoint
CREATE TABLE "variant_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"query" text NOT NULL,
	"iterations" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "brand_lens" jsonb;--> statement-breakpoint
ALTER TABLE "variant_batch_items" ADD CONSTRAINT "variant_batch_items_batch_id_variant_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."variant_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variant_batch_items" ADD CONSTRAINT "variant_batch_items_search_id_searches_id_fk" FOREIGN KEY ("search_id") REFERENCES "public"."searches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variant_batches" ADD CONSTRAINT "variant_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "variant_batches_user_query_idx" ON "variant_batches" USING btree ("user_id",lower("query"),"created_at");