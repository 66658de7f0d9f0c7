// The runner's dead-target detection with a real /ping server and the workers' side played over the same
// BroadcastChannel: when it declares the target lost, and that answers in between keep a slow target alive.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BroadcastChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { targetHealthChannel, type HealthReport, type HealthVerdict } from '../../harness/target-health.js';
import { TargetMonitor } from '../../runner/target-monitor.js';

interface PingServer {
  url: string;
  /** While false, /ping is read and never answered. */
  answering: boolean;
  /** Pings received. */
  pings: number;
  close(): Promise<void>;
}

async function pingServer(): Promise<PingServer> {
  const state = { answering: true, pings: 0 };
  const server = http.createServer((req, res) => {
    state.pings += 1;
    req.resume();
    if (state.answering) res.end('{"resource":"Scope write is OK"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** A channel of this file's own, so no other test in the process hears its verdicts. */
const CHANNEL = targetHealthChannel(`monitortest${process.pid}`);

/** A worker's side of the channel: what it sends, and the verdicts it hears. */
function worker() {
  const channel = new BroadcastChannel(CHANNEL);
  const heard: HealthVerdict[] = [];
  channel.onmessage = (event: unknown) => heard.push((event as { data: HealthVerdict }).data);
  return {
    heard,
    send: (report: HealthReport) => channel.postMessage(report),
    close: () => channel.close(),
  };
}

async function until(what: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!what()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(heartbeatMs = 60_000) {
  const server = await pingServer();
  const monitor = new TargetMonitor({ url: server.url, channel: CHANNEL, probeTimeoutMs: 300, heartbeatMs });
  monitor.onTestRunStart();
  const w = worker();
  cleanups.push(
    () => server.close(),
    () => monitor.onTestRunEnd(),
    () => w.close(),
  );
  return { server, monitor, w };
}

describe('TargetMonitor', () => {
  it('declares the target lost after three unanswered requests and an unanswered /ping, and tells the workers', async () => {
    const { server, monitor, w } = await setup();
    server.answering = false;
    for (let i = 0; i < 3; i++) w.send({ kind: 'no-answer', detail: 'POST /: no response headers within 10000 ms' });
    await until(() => monitor.lost !== undefined, 5_000);
    expect(monitor.lost!.reason).toBe(
      `target ${server.url} stopped answering: 3 requests in a row got no answer (the last: POST /: no response headers within 10000 ms), and GET /ping got none either (no answer within 300 ms)`,
    );
    await until(() => w.heard.some((v) => v.kind === 'lost'), 2_000);
    expect(w.heard).toContainEqual({ kind: 'suspect', on: true });
    expect(w.heard).toContainEqual({ kind: 'lost', reason: monitor.lost!.reason });
  });

  it('keeps a target whose /ping answers, and one whose requests are answered between the unanswered ones', async () => {
    const { monitor, w } = await setup();
    for (let i = 0; i < 5; i++) w.send({ kind: 'no-answer', detail: 'slow' });
    await until(() => w.heard.some((v) => v.kind === 'suspect'), 2_000);
    // /ping answers: still alive after the probe had time to run.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(monitor.lost).toBeUndefined();
    w.send({ kind: 'answered' });
    await until(() => w.heard.some((v) => v.kind === 'suspect' && !v.on), 2_000);
    expect(monitor.lost).toBeUndefined();
  });

  it('gives up after many unanswered requests in a row even though /ping answers', async () => {
    const { monitor, w } = await setup();
    for (let i = 0; i < 3; i++) w.send({ kind: 'no-answer', detail: 'POST /: no response headers within 10000 ms' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(monitor.lost).toBeUndefined();
    for (let i = 0; i < 9; i++) w.send({ kind: 'no-answer', detail: 'POST /: no response headers within 10000 ms' });
    await until(() => monitor.lost !== undefined, 2_000);
    expect(monitor.lost!.reason).toMatch(/12 requests in a row got no answer .*, though GET \/ping still answers$/);
  });

  it('ends the run when the heartbeat /ping goes unanswered twice with no request answered meanwhile, not when one is', async () => {
    const { server, monitor, w } = await setup(150);
    server.answering = false;
    await until(() => w.heard.some((v) => v.kind === 'suspect' && v.on), 2_000);
    // A request answered after the first failed ping: the count starts again, so two more pings must fail.
    w.send({ kind: 'answered' });
    await until(() => monitor.lost !== undefined, 5_000);
    expect(monitor.lost!.reason).toMatch(/GET \/ping got no answer twice in a row, and no request was answered meanwhile/);
    expect(server.pings).toBeGreaterThanOrEqual(3);
  });

  it('counts a heartbeat /ping that went unanswered as the probe of the requests unanswered after it', async () => {
    const { server, monitor, w } = await setup(200);
    server.answering = false;
    await until(() => w.heard.some((v) => v.kind === 'suspect' && v.on), 2_000);
    const pings = server.pings;
    for (let i = 0; i < 3; i++) w.send({ kind: 'no-answer', detail: 'x' });
    await until(() => monitor.lost !== undefined, 2_000);
    expect(monitor.lost!.reason).toMatch(
      /3 requests in a row got no answer \(the last: x\), and GET \/ping got none either \(no answer within 300 ms\)$/,
    );
    expect(server.pings - pings).toBeLessThanOrEqual(1);
  });

  it('tells a worker that starts after the verdict', async () => {
    const { server, monitor, w } = await setup();
    server.answering = false;
    for (let i = 0; i < 3; i++) w.send({ kind: 'no-answer', detail: 'x' });
    await until(() => monitor.lost !== undefined, 5_000);
    const late = worker();
    cleanups.push(() => late.close());
    late.send({ kind: 'hello' });
    await until(() => late.heard.some((v) => v.kind === 'lost'), 2_000);
  });
});
