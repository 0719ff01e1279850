// Per-seat deltas (docs/protocol.md, Deltas): the client keeps, per table, the last event it got
// (its base) and rebuilds each `delta` message into the whole event it stands for.
import type { DeltaMessage, EventMessage } from './protocol';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const isObject = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

// `target` with `patch` applied, a JSON merge patch (RFC 7396) in which a key with "+" after it
// appends elements to that array; `target` is left as it was. Throws on an append to no array.
export function mergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: Obj = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (key.length > 1 && key.endsWith('+')) {
      const name = key.slice(0, -1);
      const grown = out[name];
      if (!Array.isArray(grown) || !Array.isArray(value)) throw new Error(`delta appends to ${name}, not an array`);
      out[name] = [...grown, ...value];
    } else if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

// The frame of an event, which its view (and so a patch) leaves out.
const kFrame = ['type', 'table_id', 'seq', 'id'];

export class DeltaViews {
  private bases_ = new Map<string, { seq: number; view: Obj }>();

  // Keeps a whole event as its table's base.
  keep(e: EventMessage) {
    const view: Obj = { ...(e as unknown as Obj) };
    for (const k of kFrame) delete view[k];
    this.bases_.set(e.table_id, { seq: e.seq, view });
  }

  // The whole event `d` stands for, now the table's base; undefined when the base it applies to
  // is not the one held (the caller must then get a whole view again).
  rebuild(d: DeltaMessage): EventMessage | undefined {
    const base = this.bases_.get(d.table_id);
    if (!base || base.seq !== d.base || !isObject(d.patch as Json)) return undefined;
    let view: Obj;
    try {
      view = mergePatch(base.view, d.patch as Json) as Obj;
    } catch {
      return undefined;
    }
    this.bases_.set(d.table_id, { seq: d.seq, view });
    const e: Obj = { ...view, type: 'event', table_id: d.table_id, seq: d.seq };
    if (d.id !== undefined) e.id = d.id;
    return e as unknown as EventMessage;
  }

  // A new connection starts with no base.
  clear() {
    this.bases_.clear();
  }
}
