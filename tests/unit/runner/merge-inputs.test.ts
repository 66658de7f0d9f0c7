// `fauna-conformance merge` reads each shard's conformance.json (a file or the directory holding it) as `diff` reads
// a report, and answers the merge's own error when one cannot be read or is no conformance report.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MergeError, mergeReportDirs } from '../../runner/merge.js';

const dir = mkdtempSync(join(tmpdir(), 'fc-merge-inputs-'));

describe('merge inputs', () => {
  it('refuses a shard directory without conformance.json with a MergeError naming the file', () => {
    const shard = join(dir, 'empty-shard');
    mkdirSync(shard);
    const merging = () => mergeReportDirs([shard], join(dir, 'out1'));
    expect(merging).toThrow(MergeError);
    expect(merging).toThrow(/^cannot read .*empty-shard\/conformance\.json: ENOENT/);
  });

  it('refuses a file that is not a conformance report with a MergeError', () => {
    const file = join(dir, 'other.json');
    writeFileSync(file, JSON.stringify({ hello: 'world' }));
    const merging = () => mergeReportDirs([file], join(dir, 'out2'));
    expect(merging).toThrow(MergeError);
    expect(merging).toThrow(/other\.json is not a conformance report/);
  });
});
