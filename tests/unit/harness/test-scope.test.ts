import { afterEach, describe, expect, it } from 'vitest';
import { closeTestScope, currentTestScope, endFileTestScopes, openTestScope, runInTestScope } from '../../harness/test-scope.js';

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe('test scopes', () => {
  afterEach(() => endFileTestScopes());

  it('gives each of two interleaved test bodies its own scope across awaits', async () => {
    const a = {};
    const b = {};
    openTestScope(a, 'file > a');
    openTestScope(b, 'file > b');
    const body = async (label: string) => {
      const seen: string[] = [];
      for (let i = 0; i < 3; i++) {
        currentTestScope()!.exchanges.push({ path: `/${label}${i}` } as never);
        seen.push(currentTestScope()!.name);
        await tick();
      }
      return seen;
    };
    const [seenA, seenB] = await Promise.all([runInTestScope(a, () => body('a')), runInTestScope(b, () => body('b'))]);
    expect(seenA).toEqual(['file > a', 'file > a', 'file > a']);
    expect(seenB).toEqual(['file > b', 'file > b', 'file > b']);
  });

  it('keeps what a body records in that test only', async () => {
    const a = {};
    const b = {};
    const scopeA = openTestScope(a, 'a');
    const scopeB = openTestScope(b, 'b');
    await Promise.all([
      runInTestScope(a, async () => {
        await tick();
        currentTestScope()!.exchanges.push({ path: '/a' } as never);
      }),
      runInTestScope(b, async () => {
        currentTestScope()!.exchanges.push({ path: '/b' } as never);
        await tick();
      }),
    ]);
    expect(scopeA.exchanges.map((e) => e.path)).toEqual(['/a']);
    expect(scopeB.exchanges.map((e) => e.path)).toEqual(['/b']);
  });

  it('gives a hook the only test under way, and no test while several are', () => {
    const a = {};
    const b = {};
    expect(currentTestScope()).toBeUndefined();
    const scopeA = openTestScope(a, 'a');
    expect(currentTestScope()).toBe(scopeA);
    openTestScope(b, 'b');
    expect(currentTestScope()).toBeUndefined();
    closeTestScope(a);
    expect(currentTestScope()?.name).toBe('b');
    closeTestScope(b);
    expect(currentTestScope()).toBeUndefined();
  });

  it('forgets at the end of a file a test whose afterEach never ran', () => {
    openTestScope({}, 'left open');
    endFileTestScopes();
    expect(currentTestScope()).toBeUndefined();
  });
});
