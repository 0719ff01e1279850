import { describe, expect, it } from 'vitest';
import { DeltaViews, mergePatch } from '../src/delta';
import type { DeltaMessage } from '../src/protocol';
import { event } from './fixtures';

const delta = (seq: number, base: number, patch: Record<string, unknown>, over: Partial<DeltaMessage> = {}) =>
  ({ type: 'delta', table_id: 't1', seq, base, ...patch, ...over }) as DeltaMessage;

describe('mergePatch', () => {
  it('sets, removes, patches objects inside and replaces arrays whole', () => {
    const before = { a: 1, b: { c: [1, 2], d: 'x' }, e: true };
    const after = mergePatch(before, { a: 2, b: { c: [3] }, e: null, f: { g: 0 } });
    expect(after).toEqual({ a: 2, b: { c: [3], d: 'x' }, f: { g: 0 } });
    expect(before).toEqual({ a: 1, b: { c: [1, 2], d: 'x' }, e: true });
  });

  it('appends to an array under its key with a plus', () => {
    const before = { o: { tricks: [1], hand: ['AS'] } };
    expect(mergePatch(before, { o: { 'tricks+': [2, 3] } })).toEqual({ o: { tricks: [1, 2, 3], hand: ['AS'] } });
    expect(before.o.tricks).toEqual([1]);
    expect(() => mergePatch(before, { o: { 'missing+': [1] } })).toThrow();
    expect(() => mergePatch(before, { 'o+': [1] })).toThrow();
  });

  it('removes the elements at the indices under its key with a minus', () => {
    const before = { o: { hand: ['JS', '9S', 'AH', '7D'] } };
    expect(mergePatch(before, { o: { 'hand-': [0, 3] } })).toEqual({ o: { hand: ['9S', 'AH'] } });
    expect(before.o.hand).toHaveLength(4);
    for (const bad of [[1, 0], [2, 2], [4], [-1], ['0'], [0.5]])
      expect(() => mergePatch(before, { o: { 'hand-': bad } })).toThrow();
    expect(() => mergePatch(before, { o: { 'missing-': [0] } })).toThrow();
    expect(() => mergePatch(before, { 'o-': [0] })).toThrow();
  });

  it('sets an array of objects from a table under its key with a hash', () => {
    const table = [['type', 'card', 'trump'], ['play', 'JS', null], ['bid', null, 'S']];
    expect(mergePatch({ o: { legal: [] } }, { o: { 'legal#': table } })).toEqual({
      o: { legal: [{ type: 'play', card: 'JS' }, { type: 'bid', trump: 'S' }] },
    });
    expect(mergePatch({}, { 'l#': [['a']] })).toEqual({ l: [] });
    for (const bad of [[], [1], [[1], [2]], [['a'], [1, 2]], [['a'], 3], { a: 1 }])
      expect(() => mergePatch({}, { 'l#': bad })).toThrow();
  });

  it('replaces a value that was not an object with the patch object', () => {
    expect(mergePatch({ a: [1] }, { a: { b: 1 } })).toEqual({ a: { b: 1 } });
    expect(mergePatch(3, { b: 2 })).toEqual({ b: 2 });
  });
});

describe('DeltaViews', () => {
  it('rebuilds each delta into the whole event from the last one', () => {
    const views = new DeltaViews();
    views.keep(event(4, { turn_ms_left: 30000 }, { current: 1 }));
    const five = views.rebuild(delta(5, 4, { observation: { current: 2 }, turn_ms_left: 29000 }, { id: 7 }));
    expect(five).toEqual(event(5, { turn_ms_left: 29000, id: 7 }, { current: 2 }));
    const six = views.rebuild(delta(6, 5, { turn_ms_left: null, kind: 'action' }));
    expect(six).toEqual(event(6, {}, { current: 2 }));
  });

  it('takes a delta without seq and base as the event after the last one', () => {
    const views = new DeltaViews();
    views.keep(event(4, {}, { current: 1 }));
    const bare = (patch: Record<string, unknown>) => ({ type: 'delta', table_id: 't1', ...patch }) as DeltaMessage;
    expect(views.rebuild(bare({ observation: { current: 2 } }))).toEqual(event(5, {}, { current: 2 }));
    expect(views.rebuild(bare({ observation: { current: 3 } }))).toEqual(event(6, {}, { current: 3 }));
    // seq without base, or base without seq, is not a delta the client can place.
    expect(views.rebuild(bare({ seq: 7 }))).toBeUndefined();
    expect(views.rebuild(bare({ base: 6 }))).toBeUndefined();
  });

  it('refuses a delta whose base it does not hold', () => {
    const views = new DeltaViews();
    expect(views.rebuild(delta(2, 1, {}))).toBeUndefined();
    views.keep(event(3));
    expect(views.rebuild(delta(5, 4, {}))).toBeUndefined();
    expect(views.rebuild(delta(4, 3, {}, { table_id: 't2' }))).toBeUndefined();
    expect(views.rebuild(delta(4, 3, { 'kind+': ['x'] }))).toBeUndefined();
    views.clear();
    expect(views.rebuild(delta(4, 3, {}))).toBeUndefined();
  });
});
