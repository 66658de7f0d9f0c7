/**
 * The order conformance files start in: shuffled by the run's seed (so a hidden dependence between files shows, and
 * the same seed gives the same order), except that the few files that take several seconds whatever the machine
 * start first. Those files mostly wait on the server's clocks (quiet windows, status intervals, large replays); left
 * to the shuffle, one of them started last made the run wait seconds for it with every other worker idle, which was
 * most of the spread between runs of the whole suite (19 to 29 s on 2 cores).
 */
import { relative } from 'node:path';
import fc from 'fast-check';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files, relative to the package root, that run for seconds (measured on 2 cores), longest first; then the files with
 * the longest chains of requests made one after another (115 to 230, counted per file), which make them the longest
 * against a distant target, where a run is as long as its longest file once every file is in flight.
 */
export const LONG_RUNNING_FILES: readonly string[] = [
  'tests/conformance/events/stream-idle.test.ts',
  'tests/conformance/events/stream.test.ts',
  'tests/conformance/ordering/ordering.test.ts',
  'tests/conformance/core/functions/string-regex.test.ts',
  'tests/conformance/events/feed.test.ts',
  'tests/conformance/auth/abac.test.ts',
  'tests/conformance/paging/paging-model.test.ts',
  'tests/conformance/core/functions/sets.test.ts',
  'tests/conformance/core/functions/history-writes.test.ts',
  'tests/conformance/core/documents.test.ts',
  'tests/conformance/auth/logout-identity.test.ts',
];

/** `items` in an order fixed by `seed`. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  if (items.length < 2) return [...items];
  return fc.sample(fc.shuffledSubarray([...items], { minLength: items.length, maxLength: items.length }), { seed, numRuns: 1 })[0]!;
}

/** `paths` shuffled by `seed`, with the long-running files first, in LONG_RUNNING_FILES's order. */
export function fileOrder(paths: readonly string[], seed: number): string[] {
  const long = LONG_RUNNING_FILES.filter((file) => paths.includes(file));
  return [
    ...long,
    ...seededShuffle(
      paths.filter((path) => !long.includes(path)),
      seed,
    ),
  ];
}

export class LongFilesFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const pathOf = (spec: TestSpecification): string => relative(root, spec.moduleId).split('\\').join('/');
    const byPath = new Map(files.map((spec) => [pathOf(spec), spec]));
    // Two specifications of one file (several projects) keep vitest's order: there is only one project here.
    if (byPath.size !== files.length) return files;
    return fileOrder([...byPath.keys()], this.ctx.config.sequence.seed).map((path) => byPath.get(path)!);
  }
}
