import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitLogWriter, CorruptLogError, readCommitLog } from '../../../../reference-impl/durability/commit-log.js';
import { Store } from '../../../../reference-impl/store/store.js';
import { TransactionManager, type CommitLog } from '../../../../reference-impl/txn/transaction-manager.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fc-commit-log-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function writeLog(path: string, payloads: unknown[]): Promise<void> {
  const writer = await CommitLogWriter.open(path, 0, (error) => {
    throw error;
  });
  for (const payload of payloads) writer.append(payload);
  await writer.durable();
  await writer.close();
}

describe('commit log frames', () => {
  it('reads back what was appended, in order', async () => {
    const path = join(dir, 'ordered.log');
    const payloads = [{ a: 1 }, ['x', null], 'ü €', { nested: { deep: [1, 2, 3] } }];
    await writeLog(path, payloads);
    expect(await readCommitLog(path)).toEqual({ payloads, validBytes: (await readFile(path)).length, droppedBytes: 0 });
  });

  it('drops a final frame cut at any byte, and only that frame', async () => {
    const path = join(dir, 'torn.log');
    await writeLog(path, [{ keep: 1 }, { keep: 2 }]);
    const intact = (await readFile(path)).length;
    await writeLog(path, [{ keep: 1 }, { keep: 2 }, { lost: 'x'.repeat(40) }]);
    const full = (await readFile(path)).length;
    const bytes = await readFile(path);
    for (let cut = intact + 1; cut < full; cut++) {
      await writeFile(path, bytes.subarray(0, cut));
      const contents = await readCommitLog(path);
      expect(contents.payloads).toEqual([{ keep: 1 }, { keep: 2 }]);
      expect(contents.validBytes).toBe(intact);
      expect(contents.droppedBytes).toBe(cut - intact);
    }
  });

  it('drops a final frame whose payload does not match its checksum', async () => {
    const path = join(dir, 'flipped.log');
    await writeLog(path, [{ keep: 1 }, { flipped: 'abc' }]);
    const bytes = await readFile(path);
    bytes[bytes.length - 3] ^= 0x01;
    await writeFile(path, bytes);
    expect((await readCommitLog(path)).payloads).toEqual([{ keep: 1 }]);
  });

  it('reopening cuts the torn tail so later frames follow the intact ones', async () => {
    const path = join(dir, 'reopen.log');
    await writeLog(path, [{ n: 1 }, { n: 2 }]);
    await truncate(path, (await readFile(path)).length - 2);
    const contents = await readCommitLog(path);
    const writer = await CommitLogWriter.open(path, contents.validBytes, () => undefined);
    writer.append({ n: 3 });
    await writer.durable();
    await writer.close();
    expect((await readCommitLog(path)).payloads).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it('refuses a file that is not a commit log', async () => {
    const path = join(dir, 'foreign.log');
    await writeFile(path, 'hello, this is not a log');
    await expect(readCommitLog(path)).rejects.toBeInstanceOf(CorruptLogError);
  });
});

describe('transactions and the commit log', () => {
  it('a transaction returns only after the log reports its commit durable', async () => {
    const appended: unknown[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const log: CommitLog = { append: (records) => appended.push(records), durable: () => (appended.length > 0 ? gate : Promise.resolve()) };
    const transactions = new TransactionManager(new Store());
    transactions.setCommitLog(log);
    let returned = false;
    const running = transactions
      .run(async (txn) => txn.write('0', 'collections', 'c', 'create', { name: 'c' }, {}))
      .then(() => (returned = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(appended).toHaveLength(1);
    expect(returned).toBe(false);
    release();
    await running;
    expect(returned).toBe(true);
  });

  it('a commit the log refuses to append is not applied', async () => {
    const store = new Store();
    const transactions = new TransactionManager(store);
    transactions.setCommitLog({
      append: () => {
        throw new Error('disk full');
      },
      durable: () => Promise.resolve(),
    });
    await expect(transactions.run(async (txn) => txn.write('0', 'collections', 'c', 'create', { name: 'c' }, {}))).rejects.toThrow(
      'disk full',
    );
    expect(store.getDocument('0', 'collections', 'c', transactions.lastTs + 1n)).toBeUndefined();
  });
});
