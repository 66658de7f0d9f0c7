import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  closeTestScope,
  currentTestScope,
  endFileTestScopes,
  openTestScope,
  runInTestScope,
  testScopeOf,
} from '../../harness/test-scope.js';
import { hookTranscript, recordExchange } from '../../harness/transcript.js';

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

// What the conformance setup file and check() do, under vitest's own concurrent tests: hooks open and close each test's
// scope by its task, the body runs in it, and each test's transcript holds its exchanges only.
describe('the transcript of concurrent vitest tests', () => {
  const transcripts = new Map<string, string[]>();
  const order: string[] = [];
  const exchange = (path: string) => ({
    method: 'GET',
    url: `http://h${path}`,
    path,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    request: { headers: {} },
  });

  describe.concurrent('three tests at once', () => {
    beforeEach((context) => {
      openTestScope(context.task, context.task.name);
    });
    afterEach((context) => {
      transcripts.set(
        context.task.name,
        testScopeOf(context.task)!.exchanges.map((e) => e.path),
      );
      closeTestScope(context.task);
    });
    for (const name of ['a', 'b', 'c']) {
      it(name, (context) =>
        runInTestScope(context.task, async () => {
          for (let i = 0; i < 3; i++) {
            recordExchange(exchange(`/${name}${i}`));
            order.push(name);
            await tick();
          }
        }),
      );
    }
  });

  it("kept each test's exchanges in its own transcript", () => {
    // They did run at once: the first three exchanges came from more than one test.
    expect(new Set(order.slice(0, 3)).size).toBeGreaterThan(1);
    expect(Object.fromEntries(transcripts)).toEqual({ a: ['/a0', '/a1', '/a2'], b: ['/b0', '/b1', '/b2'], c: ['/c0', '/c1', '/c2'] });
    expect(hookTranscript()).toEqual([]);
  });
});
