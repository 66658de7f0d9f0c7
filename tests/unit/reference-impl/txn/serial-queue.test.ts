import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../../../../reference-impl/txn/serial-queue.js';

describe('SerialQueue', () => {
  it('runs tasks one at a time in arrival order, each to completion before the next starts', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    let active = 0;
    const task = (name: string, ticks: number) => async () => {
      active++;
      expect(active).toBe(1);
      log.push(`start ${name}`);
      for (let i = 0; i < ticks; i++) await Promise.resolve();
      log.push(`end ${name}`);
      active--;
      return name;
    };
    const results = await Promise.all([queue.run(task('a', 5)), queue.run(task('b', 1)), queue.run(task('c', 3))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('passes a failure to its caller and still runs the tasks behind it', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(async () => {
      throw new Error('boom');
    });
    const next = queue.run(async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
    await expect(queue.run(async () => 'idle again')).resolves.toBe('idle again');
  });

  it('releases the queue when a task throws before returning a promise', async () => {
    const queue = new SerialQueue();
    await expect(
      queue.run((() => {
        throw new Error('sync');
      }) as () => Promise<never>),
    ).rejects.toThrow('sync');
    await expect(queue.run(async () => 1)).resolves.toBe(1);
  });

  it('runNow answers at once when idle, and the queue is free again before it returns', () => {
    const queue = new SerialQueue();
    expect(queue.runNow(() => 'now')).toBe('now');
    expect(queue.runNow(() => 'again')).toBe('again');
    expect(() =>
      queue.runNow(() => {
        throw new Error('sync');
      }),
    ).toThrow('sync');
    expect(queue.runNow(() => 'after a throw')).toBe('after a throw');
  });

  it('runNow waits its turn behind a running task and holds the queue while its own promise is pending', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    let finishFirst!: () => void;
    const first = queue.run(() => new Promise<string>((resolve) => (finishFirst = () => resolve('first'))));
    const second = queue.runNow(() => {
      log.push('second ran');
      return 'second';
    });
    expect(second).toBeInstanceOf(Promise);
    expect(log).toEqual([]);
    finishFirst();
    await expect(first).resolves.toBe('first');
    await expect(second).resolves.toBe('second');
    expect(log).toEqual(['second ran']);

    let finishThird!: () => void;
    const third = queue.runNow(() => new Promise<string>((resolve) => (finishThird = () => resolve('third'))));
    const fourth = queue.runNow(() => 'fourth');
    expect(fourth).toBeInstanceOf(Promise);
    finishThird();
    await expect(third).resolves.toBe('third');
    await expect(fourth).resolves.toBe('fourth');
  });
});
