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

/** True when the heap in use (0.3 µs to read) has passed `ceiling`. */
export function heapIsFull(ceiling = HEAP_CEILING_BYTES): boolean {
  return getHeapStatistics().used_heap_size > ceiling;
}

/** Refuses a write that adds data once the heap is full: 400, as the real service's other per-transaction limits. */
export function checkRoomToWrite(): void {
  if (heapIsFull()) throw new ProtocolError(400, 'bad request', "Not enough memory to write: the server's heap is nearly full.");
}
