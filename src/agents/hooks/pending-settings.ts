// A hook's relation-set writes, held until the hook is over: Juju commits them
// together, once, only if the hook succeeded (CommitHookChanges), while the
// hook's own relation-get already sees them. A unit agent keeps one per hook
// run behind its HookContext: relationSet → set, relationGet of its own unit →
// overlay, and after a successful run it commits changes().

export class PendingRelationSettings {
  /** Per relation id, the latest value written for each key; "" marks a deletion. */
  private readonly writes = new Map<number, Map<string, string>>();

  /** Records a relation-set: later writes of a key replace earlier ones; an empty value deletes the key. */
  set(relationId: number, changes: Record<string, string>): void {
    let keys = this.writes.get(relationId);
    if (!keys) {
      keys = new Map();
      this.writes.set(relationId, keys);
    }
    for (const [key, value] of Object.entries(changes)) keys.set(key, value);
  }

  /** The unit's own settings as the running hook sees them: the committed ones with this hook's writes applied. */
  overlay(relationId: number, committed: Readonly<Record<string, string>>): Record<string, string> {
    const settings = { ...committed };
    for (const [key, value] of this.writes.get(relationId) ?? []) {
      if (value === "") delete settings[key];
      else settings[key] = value;
    }
    return settings;
  }

  /** What to commit, by relation id: each key written, with "" for a key to delete (relation-set's own convention). */
  changes(): Map<number, Record<string, string>> {
    return new Map([...this.writes].map(([relationId, keys]) => [relationId, Object.fromEntries(keys)]));
  }

  /** True when the hook wrote nothing: there is nothing to commit. */
  get empty(): boolean {
    return this.writes.size === 0;
  }
}
