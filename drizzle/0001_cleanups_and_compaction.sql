CREATE TABLE "cleanups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"model_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"args" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "compacted_through" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "cleanups" ADD CONSTRAINT "cleanups_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cleanups_due_idx" ON "cleanups" USING btree ("model_id","due_at");--> statement-breakpoint
CREATE INDEX "cleanups_target_idx" ON "cleanups" USING btree ("model_id","kind","target");