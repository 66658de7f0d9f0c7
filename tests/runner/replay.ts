// The one-line command that replays a failing test: same target, same seed, only that test.
import type { RunInfo } from './reporters/report-model.js';

const PLAIN = /^[A-Za-z0-9_./:@%+=,-]+$/;

/** POSIX shell quoting: plain words as they are, anything else in single quotes. */
export function shellQuote(word: string): string {
  return PLAIN.test(word) ? word : `'${word.split("'").join(`'\\''`)}'`;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** vitest matches `-t` against the suite and test names joined by spaces; anchoring the end keeps longer names out. */
export function testNamePatternFor(fullName: string): string {
  return `${escapeRegExp(fullName.split(' > ').join(' '))}$`;
}

export function replayCommand(
  info: Pick<RunInfo, 'target' | 'seed' | 'testsDir' | 'claimed'>,
  test: { area: string; name: string },
): string {
  const args = ['npx', 'fauna-conformance'];
  if (!info.target.embedded) args.push('--url', info.target.url);
  args.push('--seed', String(info.seed), '--area', test.area, '--test', testNamePatternFor(test.name));
  if (info.testsDir !== undefined && info.testsDir !== 'tests/conformance') args.push('--tests-dir', info.testsDir);
  return args.map(shellQuote).join(' ');
}
