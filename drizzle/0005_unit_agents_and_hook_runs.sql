CREATE TABLE "hook_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"model_id" uuid NOT NULL,
	"unit" text NOT NULL,
	"hook" text NOT NULL,
	"relation_id" integer,
	"remote_unit" text,
	"result" text DEFAULT 'running' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "unit_agent_states" (
	"model_id" uuid NOT NULL,
	"unit" text NOT NULL,
	"state" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "unit_agent_states_model_id_unit_pk" PRIMARY KEY("model_id","unit")
);
--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "agent_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "agent_status_data" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "agent_since" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Until now one instant served both statuses: existing units keep it for their agent's.
UPDATE "units" SET "agent_since" = "status_since";--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "resolved" text;--> statement-breakpoint
ALTER TABLE "hook_runs" ADD CONSTRAINT "hook_runs_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hook_runs" ADD CONSTRAINT "hook_runs_model_id_unit_units_model_id_name_fk" FOREIGN KEY ("model_id","unit") REFERENCES "public"."units"("model_id","name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_agent_states" ADD CONSTRAINT "unit_agent_states_model_id_unit_units_model_id_name_fk" FOREIGN KEY ("model_id","unit") REFERENCES "public"."units"("model_id","name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hook_runs_unit_idx" ON "hook_runs" USING btree ("model_id","unit","id");--> statement-breakpoint
CREATE INDEX "hook_runs_model_idx" ON "hook_runs" USING btree ("model_id","id");