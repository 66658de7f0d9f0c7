/**
 * Runs asynchronous tasks one at a time, in arrival order. A task that finds the queue idle starts at once;
 * the next waiting task is started directly by the one that finishes. (async-mutex, used before, cost about a
 * tenth of a Get's CPU in its generator-based promise plumbing; an async `run` of its own still cost a frame and
 * a suspension per task, so the task's promise is chained instead.)
 */
export class SerialQueue {
  private running = false;
  private readonly waiting: Array<() => void> = [];
  private readonly release = (): void => {
    const next = this.waiting.shift();
    // The queue stays marked running while the turn passes to the next task.
    if (next) next();
    else this.running = false;
  };

  /**
   * Runs `task` now when the queue is idle and answers as the task does: at once when it answers at once (the
   * queue is free again before this returns), else its promise. When busy, the task waits its turn as in `run`.
   */
  runNow<T>(task: () => T | Promise<T>): T | Promise<T> {
    if (this.running)
      return this.run(() => {
        const result = task();
        return result instanceof Promise ? result : Promise.resolve(result);
      });
    this.running = true;
    let result: T | Promise<T>;
    try {
      result = task();
    } catch (error) {
      this.release();
      throw error;
    }
    if (!(result instanceof Promise)) {
      this.release();
      return result;
    }
    return this.releasedAfter(result);
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running) return new Promise<void>((resolve) => this.waiting.push(resolve)).then(() => this.start(task));
    this.running = true;
    return this.start(task);
  }

  private start<T>(task: () => Promise<T>): Promise<T> {
    let pending: Promise<T>;
    try {
      pending = task();
    } catch (error) {
      this.release();
      return Promise.reject(error);
    }
    return this.releasedAfter(pending);
  }

  /** The task's promise, passing the queue on once it settles. */
  private releasedAfter<T>(pending: Promise<T>): Promise<T> {
    const release = this.release;
    return pending.then(
      (result) => {
        release();
        return result;
      },
      (error: unknown) => {
        release();
        throw error;
      },
    );
  }
}
