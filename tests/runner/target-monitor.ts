// The runner's half of dead-target detection (the workers' half is tests/harness/target-health.ts). The target is
// lost when several requests in a row got no answer and a GET /ping right after gets none either, when GET /ping (a
// heartbeat every few seconds) gets no answer twice in a row, or when many requests in a row got no answer although
// /ping answers. Any test request answered in between starts every count again, so a slow but live target is never
// cut off. Once lost, the run is cancelled: files not started are listed as not started, the workers fail every request
// of the running ones at once, and the report shows their remaining tests as not run.
import { BroadcastChannel } from 'node:worker_threads';
import { request } from 'undici';
import type { CancelReason } from 'vitest';
import type { Reporter, Vitest } from 'vitest/node';
import type { HealthReport, HealthVerdict } from '../harness/target-health.js';

export interface TargetMonitorOptions {
  url: string;
  /** The run's channel (targetHealthChannel). */
  channel: string;
  /** Deadline of each GET /ping. */
  probeTimeoutMs: number;
  heartbeatMs?: number;
  /** Requests in a row without an answer before /ping is asked. */
  probeAfter?: number;
  /** Requests in a row without an answer that end the run even though /ping answers. */
  giveUpAfter?: number;
}

export interface TargetLoss {
  reason: string;
  /** Epoch ms: tests that started later did not really run. */
  at: number;
}

const HEARTBEAT_MS = 5_000;
const PROBE_AFTER = 3;
const GIVE_UP_AFTER = 12;

/** The probe's deadline: the request deadline, but at least 2 s (a loaded machine) and at most 5 s. */
export function probeTimeoutFor(requestTimeoutMs: number): number {
  return Math.min(5_000, Math.max(2_000, requestTimeoutMs));
}

/** GET /ping; undefined when it was answered (any status), else why not. */
export async function pingFails(url: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const res = await request(`${url}/ping`, {
      method: 'GET',
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body.dump();
    return undefined;
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection closed before an answer';
    return `no answer within ${timeoutMs} ms`;
  }
}

export class TargetMonitor implements Reporter {
  lost: TargetLoss | undefined;
  private vitest: Vitest | undefined;
  private channel: BroadcastChannel | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private noAnswers = 0;
  private lastNoAnswer = '';
  private failedPings = 0;
  private lastPingFailure = '';
  /** Whether /ping answered since the current run of unanswered requests began. */
  private pingAnswered = false;
  private probing = false;

  constructor(private readonly options: TargetMonitorOptions) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunStart(): void {
    this.channel = new BroadcastChannel(this.options.channel);
    this.channel.onmessage = (event: unknown) => this.receive((event as { data: HealthReport }).data);
    this.heartbeat = setInterval(() => void this.probe(), this.options.heartbeatMs ?? HEARTBEAT_MS);
  }

  onTestRunEnd(): void {
    clearInterval(this.heartbeat);
    this.channel?.close();
    this.channel = undefined;
  }

  private send(verdict: HealthVerdict): void {
    this.channel?.postMessage(verdict);
  }

  private receive(report: HealthReport): void {
    if (report.kind === 'hello') {
      if (this.lost) this.send({ kind: 'lost', reason: this.lost.reason });
      else if (this.noAnswers > 0) this.send({ kind: 'suspect', on: true });
    } else if (report.kind === 'answered') {
      // A request answered: whatever /ping did, the target is alive.
      if (this.suspect && !this.lost) this.send({ kind: 'suspect', on: false });
      this.noAnswers = 0;
      this.failedPings = 0;
    } else if (!this.lost) {
      if (!this.suspect) this.send({ kind: 'suspect', on: true });
      this.noAnswers += 1;
      this.lastNoAnswer = report.detail;
      if (this.noAnswers === 1) this.pingAnswered = false;
      if (this.noAnswers >= (this.options.giveUpAfter ?? GIVE_UP_AFTER) && this.pingAnswered) {
        this.lose(`${this.noAnswers} requests in a row got no answer (the last: ${this.lastNoAnswer}), though GET /ping still answers`);
      } else if (this.noAnswers >= this.probeAfter) {
        // A /ping that already went unanswered, with no request answered since, is the probe.
        if (this.failedPings > 0)
          this.lose(
            `${this.noAnswers} requests in a row got no answer (the last: ${this.lastNoAnswer}), and GET /ping got none either (${this.lastPingFailure})`,
          );
        else void this.probe();
      }
    }
  }

  /** While suspect, the workers report every answered request, which clears the suspicion. */
  private get suspect(): boolean {
    return this.noAnswers > 0 || this.failedPings > 0;
  }

  private get probeAfter(): number {
    return this.options.probeAfter ?? PROBE_AFTER;
  }

  /**
   * Asks /ping (the heartbeat, or several requests in a row without an answer): the target is lost when it gets no
   * answer either while requests go unanswered, or twice in a row.
   */
  private async probe(): Promise<void> {
    if (this.probing || this.lost) return;
    this.probing = true;
    try {
      const why = await pingFails(this.options.url, this.options.probeTimeoutMs);
      if (why === undefined) {
        if (this.failedPings > 0 && this.noAnswers === 0) this.send({ kind: 'suspect', on: false });
        this.failedPings = 0;
        this.pingAnswered = true;
      } else if (this.noAnswers >= this.probeAfter)
        this.lose(
          `${this.noAnswers} requests in a row got no answer (the last: ${this.lastNoAnswer}), and GET /ping got none either (${why})`,
        );
      else {
        this.lastPingFailure = why;
        if (!this.suspect) this.send({ kind: 'suspect', on: true });
        if (++this.failedPings >= 2) this.lose(`GET /ping got no answer twice in a row, and no request was answered meanwhile (${why})`);
      }
    } finally {
      this.probing = false;
    }
  }

  private lose(why: string): void {
    if (this.lost) return;
    this.lost = { reason: `target ${this.options.url} stopped answering: ${why}`, at: Date.now() };
    this.send({ kind: 'lost', reason: this.lost.reason });
    clearInterval(this.heartbeat);
    // Said at once, so a CI log shows why the run is ending before the reports are written.
    process.stderr.write(`fauna-conformance: ${this.lost.reason}; ending the run\n`);
    // Files not yet started are not loaded at all (the report lists them); the running ones fail fast.
    void this.vitest?.cancelCurrentRun('target-lost' as CancelReason);
  }
}
