CREATE TYPE "public"."life" AS ENUM('alive', 'dying', 'dead');--> statement-breakpoint
CREATE TYPE "public"."relation_role" AS ENUM('provider', 'requirer', 'peer');--> statement-breakpoint
CREATE TYPE "public"."relation_scope" AS ENUM('global', 'container');--> statement-breakpoint
CREATE TABLE "applications" (
	"model_id" uuid NOT NULL,
	"name" text NOT NULL,
	"seq" bigserial NOT NULL,
	"charm_url" text NOT NULL,
	"series" text NOT NULL,
	"subordinate" boolean NOT NULL,
	"constraints" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"life" "life" DEFAULT 'alive' NOT NULL,
	"unit_count" integer DEFAULT 0 NOT NULL,
	"relation_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "applications_model_id_name_pk" PRIMARY KEY("model_id","name")
);
--> statement-breakpoint
CREATE TABLE "changes" (
	"model_id" uuid NOT NULL,
	"revision" bigint NOT NULL,
	"kind" text NOT NULL,
	"entity" text NOT NULL,
	"life" "life",
	"removed" boolean DEFAULT false NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"committed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "changes_model_id_revision_pk" PRIMARY KEY("model_id","revision")
);
--> statement-breakpoint
CREATE TABLE "charms" (
	"model_id" uuid NOT NULL,
	"url" text NOT NULL,
	"seq" bigserial NOT NULL,
	"name" text NOT NULL,
	"revision" integer NOT NULL,
	"subordinate" boolean NOT NULL,
	"series" text[] NOT NULL,
	"metadata" jsonb NOT NULL,
	"metadata_yaml" text NOT NULL,
	CONSTRAINT "charms_model_id_url_pk" PRIMARY KEY("model_id","url"),
	CONSTRAINT "charms_name_revision" UNIQUE("model_id","name","revision")
);
--> statement-breakpoint
CREATE TABLE "machines" (
	"model_id" uuid NOT NULL,
	"id" text NOT NULL,
	"seq" bigserial NOT NULL,
	"parent_id" text,
	"container_type" text,
	"series" text NOT NULL,
	"jobs" text[] NOT NULL,
	"constraints" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"instance_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"status_message" text DEFAULT '' NOT NULL,
	"status_since" timestamp with time zone DEFAULT now() NOT NULL,
	"life" "life" DEFAULT 'alive' NOT NULL,
	CONSTRAINT "machines_model_id_id_pk" PRIMARY KEY("model_id","id")
);
--> statement-breakpoint
CREATE TABLE "models" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"life" "life" DEFAULT 'alive' NOT NULL,
	"default_series" text NOT NULL,
	"constraints" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"revision" bigint DEFAULT 0 NOT NULL,
	"seq" bigserial NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "models_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "relation_endpoints" (
	"model_id" uuid NOT NULL,
	"relation_id" integer NOT NULL,
	"application" text NOT NULL,
	"name" text NOT NULL,
	"role" "relation_role" NOT NULL,
	"interface" text NOT NULL,
	"scope" "relation_scope" NOT NULL,
	CONSTRAINT "relation_endpoints_model_id_relation_id_application_pk" PRIMARY KEY("model_id","relation_id","application")
);
--> statement-breakpoint
CREATE TABLE "relation_scopes" (
	"model_id" uuid NOT NULL,
	"relation_id" integer NOT NULL,
	"unit" text NOT NULL,
	"application" text NOT NULL,
	"role" "relation_role" NOT NULL,
	"container" text,
	CONSTRAINT "relation_scopes_model_id_relation_id_unit_pk" PRIMARY KEY("model_id","relation_id","unit")
);
--> statement-breakpoint
CREATE TABLE "relation_settings" (
	"model_id" uuid NOT NULL,
	"relation_id" integer NOT NULL,
	"unit" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "relation_settings_model_id_relation_id_unit_pk" PRIMARY KEY("model_id","relation_id","unit")
);
--> statement-breakpoint
CREATE TABLE "relations" (
	"model_id" uuid NOT NULL,
	"id" integer NOT NULL,
	"seq" bigserial NOT NULL,
	"key" text NOT NULL,
	"interface" text NOT NULL,
	"scope" "relation_scope" NOT NULL,
	"life" "life" DEFAULT 'alive' NOT NULL,
	"unit_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "relations_model_id_id_pk" PRIMARY KEY("model_id","id"),
	CONSTRAINT "relations_key" UNIQUE("model_id","key")
);
--> statement-breakpoint
CREATE TABLE "sequences" (
	"model_id" uuid NOT NULL,
	"name" text NOT NULL,
	"value" integer NOT NULL,
	CONSTRAINT "sequences_model_id_name_pk" PRIMARY KEY("model_id","name")
);
--> statement-breakpoint
CREATE TABLE "units" (
	"model_id" uuid NOT NULL,
	"name" text NOT NULL,
	"seq" bigserial NOT NULL,
	"application" text NOT NULL,
	"number" integer NOT NULL,
	"principal" text,
	"machine_id" text,
	"series" text NOT NULL,
	"constraints" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"life" "life" DEFAULT 'alive' NOT NULL,
	"workload_status" text DEFAULT 'waiting' NOT NULL,
	"workload_message" text DEFAULT '' NOT NULL,
	"agent_status" text DEFAULT 'allocating' NOT NULL,
	"status_since" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "units_model_id_name_pk" PRIMARY KEY("model_id","name"),
	CONSTRAINT "units_application_number" UNIQUE("model_id","application","number")
);
--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_model_id_charm_url_charms_model_id_url_fk" FOREIGN KEY ("model_id","charm_url") REFERENCES "public"."charms"("model_id","url") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "changes" ADD CONSTRAINT "changes_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charms" ADD CONSTRAINT "charms_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machines" ADD CONSTRAINT "machines_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machines" ADD CONSTRAINT "machines_model_id_parent_id_machines_model_id_id_fk" FOREIGN KEY ("model_id","parent_id") REFERENCES "public"."machines"("model_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relation_endpoints" ADD CONSTRAINT "relation_endpoints_model_id_relation_id_relations_model_id_id_fk" FOREIGN KEY ("model_id","relation_id") REFERENCES "public"."relations"("model_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relation_endpoints" ADD CONSTRAINT "relation_endpoints_model_id_application_applications_model_id_name_fk" FOREIGN KEY ("model_id","application") REFERENCES "public"."applications"("model_id","name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relation_scopes" ADD CONSTRAINT "relation_scopes_model_id_relation_id_relations_model_id_id_fk" FOREIGN KEY ("model_id","relation_id") REFERENCES "public"."relations"("model_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relation_scopes" ADD CONSTRAINT "relation_scopes_model_id_unit_units_model_id_name_fk" FOREIGN KEY ("model_id","unit") REFERENCES "public"."units"("model_id","name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relation_settings" ADD CONSTRAINT "relation_settings_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relations" ADD CONSTRAINT "relations_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequences" ADD CONSTRAINT "sequences_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_model_id_application_applications_model_id_name_fk" FOREIGN KEY ("model_id","application") REFERENCES "public"."applications"("model_id","name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_model_id_machine_id_machines_model_id_id_fk" FOREIGN KEY ("model_id","machine_id") REFERENCES "public"."machines"("model_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_model_id_principal_units_model_id_name_fk" FOREIGN KEY ("model_id","principal") REFERENCES "public"."units"("model_id","name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "applications_seq_idx" ON "applications" USING btree ("model_id","seq");--> statement-breakpoint
CREATE INDEX "charms_seq_idx" ON "charms" USING btree ("model_id","seq");--> statement-breakpoint
CREATE INDEX "machines_parent_idx" ON "machines" USING btree ("model_id","parent_id");--> statement-breakpoint
CREATE INDEX "machines_seq_idx" ON "machines" USING btree ("model_id","seq");--> statement-breakpoint
CREATE INDEX "relation_endpoints_application_idx" ON "relation_endpoints" USING btree ("model_id","application");--> statement-breakpoint
CREATE INDEX "relation_scopes_unit_idx" ON "relation_scopes" USING btree ("model_id","unit");--> statement-breakpoint
CREATE INDEX "relations_seq_idx" ON "relations" USING btree ("model_id","seq");--> statement-breakpoint
CREATE INDEX "units_machine_idx" ON "units" USING btree ("model_id","machine_id");--> statement-breakpoint
CREATE INDEX "units_principal_idx" ON "units" USING btree ("model_id","principal");--> statement-breakpoint
CREATE INDEX "units_seq_idx" ON "units" USING btree ("model_id","seq");