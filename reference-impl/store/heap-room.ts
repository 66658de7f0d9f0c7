/**
 * How full the process's heap is. The reference server keeps every database in memory, so a client that writes
 * large documents, or a query that builds large values, would otherwise take the process past its heap limit, which
 * ends it. Past HEAP_CEILING_BYTES (80% of the limit) writes that add data and queries still building values are
 * refused instead (DEC-069); reads and deletes go on, so data can still be read out.
 */
import { getHeapStatistics } from 'node:v8';
import { ProtocolError } from '../errors/query-error.js';

/** The heap in use, garbage included, past which the server refuses to grow it. */
export const HEAP_CEILING_BYTES = Math.floor(getHeapStatistics().heap_size_limit * 0.8);

/**
 * How long a reading of the heap in use stands for it. Reading it costs 0.3 µs, ~2% of a Create when done for
 * every write; within a millisecond the server cannot allocate anywhere near the fifth of the heap kept above the
 * ceiling (a transaction writes at most 16 MiB, DEC-070).
 */
export const HEAP_READING_MS = 1;

let readAt = Number.NEGATIVE_INFINITY;
let usedBytes = 0;

/** True when the heap in use, as last read (at most HEAP_READING_MS ago), has passed `ceiling`. */
export function heapIsFull(ceiling = HEAP_CEILING_BYTES): boolean {
  const now = performance.now();
  if (now - readAt >= HEAP_READING_MS) {
    usedBytes = getHeapStatistics().used_heap_size;
    readAt = now;
  }
  return usedBytes > ceiling;
}

/** Refuses a write that adds data once the heap is full: 400, as the real service's other per-transaction limits. */
export function checkRoomToWrite(): void {
  if (heapIsFull()) throw new ProtocolError(400, 'bad request', "Not enough memory to write: the server's heap is nearly full.");
}
