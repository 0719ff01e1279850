// Per-seat deltas (docs/protocol.md, Deltas): the client keeps, per table, the last event it got
// (its base) and rebuilds each `delta` message into the whole event it stands for.
import type { DeltaMessage, EventMessage } from './protocol';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const isObject = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

// The array of objects a table stands for (a patch's "key#"): its first row names the keys, each
// other row gives one object's values in that order, null where the object has no such key.
function fromTable(table: Json): Obj[] {
  if (!Array.isArray(table) || table.length === 0 || !Array.isArray(table[0])) throw new Error('delta: bad table');
  const keys = table[0];
  if (!keys.every((k) => typeof k === 'string')) throw new Error('delta: bad table keys');
  return table.slice(1).map((row) => {
    if (!Array.isArray(row) || row.length !== keys.length) throw new Error('delta: bad table row');
    const o: Obj = {};
    keys.forEach((k, i) => {
      if (row[i] !== null) o[k as string] = row[i];
    });
    return o;
  });
}

// `list` without the elements at `indices` (ascending, each within it).
function removeAt(list: Json | undefined, indices: Json): Json[] {
  if (!Array.isArray(list) || !Array.isArray(indices)) throw new Error('delta: removal from no array');
  let next = 0;
  for (const i of indices) {
    if (typeof i !== 'number' || !Number.isInteger(i) || i < next || i >= list.length)
      throw new Error('delta: bad index');
    next = i + 1;
  }
  const gone = new Set(indices as number[]);
  return list.filter((_, i) => !gone.has(i));
}

// `target` with `patch` applied, a JSON merge patch (RFC 7396) in which a key followed by "+"
// appends elements to that array, by "-" removes the elements at these indices, and by "#" sets
// the array from a table of objects; `target` is left as it was. Throws on an operation that
// does not fit.
export function mergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: Obj = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    const op = key.length > 1 ? key.slice(-1) : '';
    const name = key.slice(0, -1);
    if (op === '+') {
      const grown = out[name];
      if (!Array.isArray(grown) || !Array.isArray(value)) throw new Error(`delta appends to ${name}, not an array`);
      out[name] = [...grown, ...value];
    } else if (op === '-') {
      if (!(name in out)) throw new Error(`delta removes from ${name}, which is absent`);
      out[name] = removeAt(out[name], value);
    } else if (op === '#') {
      out[name] = fromTable(value);
    } else if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

// The frame of an event or a delta message, which a view (and so a patch) leaves out.
const kFrame = ['type', 'table_id', 'seq', 'base', 'id'];

const withoutFrame = (m: Obj): Obj => {
  const out = { ...m };
  for (const k of kFrame) delete out[k];
  return out;
};

export class DeltaViews {
  private bases_ = new Map<string, { seq: number; view: Obj }>();

  // Keeps a whole event as its table's base.
  keep(e: EventMessage) {
    this.bases_.set(e.table_id, { seq: e.seq, view: withoutFrame(e as unknown as Obj) });
  }

  // The whole event `d` stands for, now the table's base; undefined when the base it applies to
  // is not the one held (the caller must then get a whole view again).
  rebuild(d: DeltaMessage): EventMessage | undefined {
    const base = this.bases_.get(d.table_id);
    if (!base) return undefined;
    // Neither seq nor base: the event after the last one.
    let seq = base.seq + 1;
    if (d.seq !== undefined || d.base !== undefined) {
      if (d.base !== base.seq || typeof d.seq !== 'number') return undefined;
      seq = d.seq;
    }
    let view: Obj;
    try {
      view = mergePatch(base.view, withoutFrame(d as unknown as Obj)) as Obj;
    } catch {
      return undefined;
    }
    this.bases_.set(d.table_id, { seq, view });
    const e: Obj = { ...view, type: 'event', table_id: d.table_id, seq };
    if (d.id !== undefined) e.id = d.id;
    return e as unknown as EventMessage;
  }

  // A new connection starts with no base.
  clear() {
    this.bases_.clear();
  }
}
