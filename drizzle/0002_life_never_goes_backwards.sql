-- "No such thing can ever change to an earlier state." (seed 001)
-- The domain code never moves life backwards; this is the database's second
-- line, so no code path or hand-written statement can. The life enum is
-- declared in lifecycle order, so `<` compares as the seed means.
CREATE FUNCTION forbid_life_regression() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.life < OLD.life THEN
    RAISE EXCEPTION 'life cannot go backwards: % % is %, cannot become %', TG_TABLE_NAME, OLD, OLD.life, NEW.life
      USING ERRCODE = 'check_violation', CONSTRAINT = 'life_is_monotonic';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER models_life_monotonic BEFORE UPDATE OF life ON models FOR EACH ROW EXECUTE FUNCTION forbid_life_regression();
--> statement-breakpoint
CREATE TRIGGER machines_life_monotonic BEFORE UPDATE OF life ON machines FOR EACH ROW EXECUTE FUNCTION forbid_life_regression();
--> statement-breakpoint
CREATE TRIGGER applications_life_monotonic BEFORE UPDATE OF life ON applications FOR EACH ROW EXECUTE FUNCTION forbid_life_regression();
--> statement-breakpoint
CREATE TRIGGER units_life_monotonic BEFORE UPDATE OF life ON units FOR EACH ROW EXECUTE FUNCTION forbid_life_regression();
--> statement-breakpoint
CREATE TRIGGER relations_life_monotonic BEFORE UPDATE OF life ON relations FOR EACH ROW EXECUTE FUNCTION forbid_life_regression();
