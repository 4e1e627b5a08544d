ALTER TABLE "cleanups" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "cleanups" ADD COLUMN "last_error" text;