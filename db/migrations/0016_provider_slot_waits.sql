CREATE TABLE "provider_slot_waits" (
	"provider" text NOT NULL,
	"instance_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_slot_waits_pkey" PRIMARY KEY("provider","instance_id")
);
