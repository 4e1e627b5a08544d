CREATE TABLE "hook_log" (
	"run_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"level" text NOT NULL,
	"message" text NOT NULL,
	"logged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hook_log_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
ALTER TABLE "hook_runs" DROP CONSTRAINT "hook_runs_model_id_unit_units_model_id_name_fk";
--> statement-breakpoint
ALTER TABLE "hook_runs" ADD COLUMN "unit_removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "hook_runs" ADD COLUMN "log_lines" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "hook_log" ADD CONSTRAINT "hook_log_run_id_hook_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."hook_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hook_runs_started_idx" ON "hook_runs" USING btree ("started_at");