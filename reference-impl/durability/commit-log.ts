/**
 * The append-only commit log behind `--data-dir`: one frame per committed transaction, written in commit
 * order. A frame is `u32 length ‖ u32 CRC-32 ‖ payload` (big-endian, payload = UTF-8 JSON), so a frame torn
 * by a crash (short, or with a checksum that does not match) is recognised and dropped as a whole.
 *
 * Group commit: `append` only queues a frame (synchronously, under the caller's commit lock, so the file
 * order is the commit order); `durable()` resolves once every frame queued so far has been written and
 * fdatasync'ed. Frames queued while a flush is running go out together in the next one.
 */
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

const FILE_MAGIC = Buffer.from('FCLOG01\n', 'latin1');
const FRAME_HEADER_BYTES = 8;
/** Larger frames are taken for garbage from a torn header rather than read (a transaction is far smaller). */
export const MAX_FRAME_BYTES = 1024 * 1024 * 1024;

export interface LogContents {
  /** Decoded payloads of the intact frames, in order. */
  readonly payloads: unknown[];
  /** Bytes up to the end of the last intact frame. */
  readonly validBytes: number;
  /** Bytes after it (a torn final frame); 0 after a clean shutdown. */
  readonly droppedBytes: number;
}

export class CorruptLogError extends Error {}

/** Reads every intact frame of a log file; a missing file reads as empty. */
export async function readCommitLog(path: string): Promise<LogContents> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { payloads: [], validBytes: 0, droppedBytes: 0 };
    throw error;
  }
  if (bytes.length === 0) return { payloads: [], validBytes: 0, droppedBytes: 0 };
  if (bytes.length < FILE_MAGIC.length) return { payloads: [], validBytes: 0, droppedBytes: bytes.length };
  if (!bytes.subarray(0, FILE_MAGIC.length).equals(FILE_MAGIC))
    throw new CorruptLogError(`${path} is not a fauna-reference-server commit log`);
  const payloads: unknown[] = [];
  let offset = FILE_MAGIC.length;
  while (offset + FRAME_HEADER_BYTES <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const checksum = bytes.readUInt32BE(offset + 4);
    const end = offset + FRAME_HEADER_BYTES + length;
    if (length === 0 || length > MAX_FRAME_BYTES || end > bytes.length) break;
    const payload = bytes.subarray(offset + FRAME_HEADER_BYTES, end);
    if (crc32(payload) !== checksum) break;
    let decoded: unknown;
    try {
      decoded = JSON.parse(payload.toString('utf8'));
    } catch {
      break;
    }
    payloads.push(decoded);
    offset = end;
  }
  return { payloads, validBytes: offset, droppedBytes: bytes.length - offset };
}

export function encodeFrame(payload: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(payload), 'utf8');
  const header = Buffer.allocUnsafe(FRAME_HEADER_BYTES);
  header.writeUInt32BE(body.length, 0);
  header.writeUInt32BE(crc32(body), 4);
  return Buffer.concat([header, body]);
}

interface Waiter {
  readonly upTo: number;
  resolve(): void;
  reject(error: unknown): void;
}

export class CommitLogWriter {
  private queued: Buffer[] = [];
  private appended = 0;
  private flushed = 0;
  private waiters: Waiter[] = [];
  private flushing = false;
  private failure: unknown;

  private constructor(
    private readonly file: FileHandle,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  /**
   * Opens `path` for appending after cutting it to `validBytes` (dropping a torn tail), writing the file
   * header when the log is new. `onFailure` hears about a write or fsync error once; every later `durable()`
   * rejects, since acknowledging a commit that may not be on disk would be a lie.
   */
  static async open(path: string, validBytes: number, onFailure: (error: unknown) => void): Promise<CommitLogWriter> {
    const file = await open(path, 'a+');
    if (validBytes === 0) {
      await file.truncate(0);
      await file.write(FILE_MAGIC);
    } else {
      await file.truncate(validBytes);
    }
    await file.datasync();
    return new CommitLogWriter(file, onFailure);
  }

  /** Queues one frame; it reaches the disk with the next flush. */
  append(payload: unknown): void {
    if (this.failure !== undefined) throw this.failure;
    this.queued.push(encodeFrame(payload));
    this.appended++;
  }

  /** Resolves once everything appended before this call is on disk. */
  durable(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.flushed >= this.appended) return Promise.resolve();
    const upTo = this.appended;
    const promise = new Promise<void>((resolve, reject) => this.waiters.push({ upTo, resolve, reject }));
    this.startFlushing();
    return promise;
  }

  async close(): Promise<void> {
    await this.durable().catch(() => undefined);
    await this.file.close();
  }

  private startFlushing(): void {
    if (this.flushing) return;
    this.flushing = true;
    void this.flushLoop();
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.queued.length > 0) {
        const batch = Buffer.concat(this.queued);
        const upTo = this.appended;
        this.queued = [];
        await this.file.write(batch);
        await this.file.datasync();
        this.flushed = upTo;
        const ready = this.waiters.filter((w) => w.upTo <= upTo);
        this.waiters = this.waiters.filter((w) => w.upTo > upTo);
        for (const waiter of ready) waiter.resolve();
      }
    } catch (error) {
      this.failure = error;
      for (const waiter of this.waiters) waiter.reject(error);
      this.waiters = [];
      this.onFailure(error);
    } finally {
      this.flushing = false;
    }
  }
}
