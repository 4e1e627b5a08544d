ALTER TABLE "credentials" ADD COLUMN "models" text[];--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "last_used_at" timestamp with time zone;