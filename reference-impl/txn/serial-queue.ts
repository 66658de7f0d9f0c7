/**
 * Runs asynchronous tasks one at a time, in arrival order. A task that finds the queue idle starts at once;
 * the next waiting task is started directly by the one that finishes. (async-mutex, used before, cost about a
 * tenth of a Get's CPU in its generator-based promise plumbing.)
 */
export class SerialQueue {
  private running = false;
  private readonly waiting: Array<() => void> = [];

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running = true;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The queue stays marked running while the turn passes to the next task.
      if (next) next();
      else this.running = false;
    }
  }
}
