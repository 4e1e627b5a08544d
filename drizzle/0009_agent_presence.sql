CREATE TABLE "agent_presence" (
	"model_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"entity" text NOT NULL,
	"server" uuid,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lost_after" timestamp with time zone,
	"lost_since" timestamp with time zone,
	CONSTRAINT "agent_presence_model_id_kind_entity_pk" PRIMARY KEY("model_id","kind","entity")
);
--> statement-breakpoint
CREATE TABLE "server_processes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "machines" ADD COLUMN "agent_lost_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "units" ADD COLUMN "agent_lost_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agent_presence" ADD CONSTRAINT "agent_presence_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_presence_server_idx" ON "agent_presence" USING btree ("server");