import { describe, expect, it } from 'vitest';
import { eachInOrder, whenReady } from '../../../../reference-impl/eval/when-ready.js';

describe('whenReady and eachInOrder', () => {
  it('continue at once with ready values, and after the promise with pending ones', async () => {
    expect(whenReady(2, (n) => n * 3)).toBe(6);
    const later = whenReady(Promise.resolve(2), (n) => n * 3);
    expect(later).toBeInstanceOf(Promise);
    await expect(later).resolves.toBe(6);
  });

  it('take every item at once, in order, when none waits', () => {
    const taken: string[] = [];
    expect(
      eachInOrder(
        ['a', 'b', 'c'].values(),
        (item) => item.toUpperCase(),
        (item, value) => taken.push(`${item}=${value}`),
      ),
    ).toBeUndefined();
    expect(taken).toEqual(['a=A', 'b=B', 'c=C']);
  });

  it('from the first item that waits, evaluate the rest one after another, still in order', async () => {
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const evaluate = (item: string) => {
      log.push(`eval ${item}`);
      return item === 'b' ? gate.then(() => 'B') : item.toUpperCase();
    };
    const done = eachInOrder(['a', 'b', 'c', 'd'].values(), evaluate, (item, value) => log.push(`take ${item}=${value}`));
    expect(done).toBeInstanceOf(Promise);
    // Nothing after the waiting item is evaluated before it settles.
    expect(log).toEqual(['eval a', 'take a=A', 'eval b']);
    release();
    await done;
    expect(log).toEqual(['eval a', 'take a=A', 'eval b', 'take b=B', 'eval c', 'take c=C', 'eval d', 'take d=D']);
  });

  it('passes a failure on: thrown at once before any wait, rejected after one', async () => {
    expect(() =>
      eachInOrder(
        [1].values(),
        () => {
          throw new Error('now');
        },
        () => undefined,
      ),
    ).toThrow('now');
    const failing = eachInOrder(
      [1, 2].values(),
      (n) => (n === 1 ? Promise.resolve(n) : Promise.reject(new Error('later'))),
      () => undefined,
    );
    await expect(failing).rejects.toThrow('later');
  });
});
