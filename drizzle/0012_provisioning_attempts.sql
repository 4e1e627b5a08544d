ALTER TABLE "machines" ADD COLUMN "start_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "machines" ADD COLUMN "last_start_error" text;--> statement-breakpoint
ALTER TABLE "machines" ADD COLUMN "last_start_attempt_at" timestamp with time zone;