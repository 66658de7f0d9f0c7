// Hostile servers the suite must survive: each must end the run within its deadlines, with the affected
// tests failed for a clear reason, never a crash or a hang. Stream behaviours sit on the fault proxy in
// front of a real upstream, because the suite must first create an event source before it can stream.
import { createServer as createHttpServer, type RequestListener, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { Area } from '../fault.js';
import { stringifyJson } from '../json-body.js';
import { startFaultProxy, waitForDrain } from '../proxy.js';

export interface RunningHostileServer {
  url: string;
  close(): Promise<void>;
}

export interface HostileServer {
  id: string;
  title: string;
  description: string;
  /** The area the suite runs against it. */
  area: Area;
  /** What a failed test's error should mention, so a reader can tell what went wrong. */
  reason: RegExp;
  /** Whether it needs a real server behind it (the reference server's URL is passed). */
  needsUpstream: boolean;
  start(upstream?: string): Promise<RunningHostileServer>;
}

/** Size of the body the huge-body server sends: far more than any conformance response. */
export const HUGE_BODY_BYTES = 64 * 1024 * 1024;
/** Delay between bytes of the byte-by-byte stream. */
export const SLOW_BYTE_DELAY_MS = 250;

function listenAddress(server: HttpServer | NetServer): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as AddressInfo;
      resolve(`http://127.0.0.1:${address.port}`);
    });
  });
}

async function startHttp(handler: RequestListener): Promise<RunningHostileServer> {
  const server = createHttpServer(handler);
  const url = await listenAddress(server);
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function requireUpstream(upstream: string | undefined): string {
  if (upstream === undefined) throw new Error('this hostile server needs an upstream URL');
  return upstream;
}

const neverAnswers: HostileServer = {
  id: 'NEVER-ANSWERS',
  title: 'Reads every request and never answers',
  description: 'An HTTP server that accepts and reads each request completely but never sends a status line.',
  area: 'core',
  reason: /time|deadline|within|abort/i,
  needsUpstream: false,
  start: () => startHttp((request) => request.resume()),
};

const silentSocket: HostileServer = {
  id: 'SILENT-SOCKET',
  title: 'Accepts the connection and says nothing',
  description: 'A TCP listener that accepts connections and never reads from or writes to them.',
  area: 'core',
  reason: /time|deadline|within|abort/i,
  needsUpstream: false,
  async start() {
    const sockets = new Set<Socket>();
    const server = createNetServer({ pauseOnConnect: true }, (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => sockets.delete(socket));
    });
    const url = await listenAddress(server);
    return {
      url,
      close: async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  },
};

const invalidJson: HostileServer = {
  id: 'INVALID-JSON',
  title: 'Answers invalid JSON',
  description: 'Every request gets 200 with `content-type: application/json` and a truncated JSON body.',
  area: 'core',
  reason: /json|parse|unexpected|token|schema/i,
  needsUpstream: false,
  start: () =>
    startHttp((request, response) => {
      request.resume();
      request.on('end', () => {
        const body = '{"resource": {"ref": {"@ref": ';
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
        response.end(body);
      });
    }),
};

const alwaysServerError: HostileServer = {
  id: 'ALWAYS-500',
  title: 'Answers 500 to everything',
  description: 'Every request gets 500 with a well-formed v4 `internal server error` body.',
  area: 'core',
  reason: /500|internal server error/i,
  needsUpstream: false,
  start: () =>
    startHttp((request, response) => {
      request.resume();
      request.on('end', () => {
        const body = JSON.stringify({ errors: [{ code: 'internal server error', description: 'hostile server' }] });
        response.writeHead(500, { 'content-type': 'application/json', 'content-length': String(body.length) });
        response.end(body);
      });
    }),
};

const hugeBody: HostileServer = {
  id: 'HUGE-BODY',
  title: 'Sends a huge body',
  description: `Every request gets 200 and a ${HUGE_BODY_BYTES / (1024 * 1024)} MiB JSON document, written as fast as the client reads.`,
  area: 'core',
  reason: /time|deadline|within|large|size|limit|exceed|abort|schema|expected/i,
  needsUpstream: false,
  start: () =>
    startHttp((request, response) => {
      request.resume();
      request.on('end', () => void writeHugeBody(response));
    }),
};

async function writeHugeBody(response: ServerResponse): Promise<void> {
  const head = '{"resource":"';
  const tail = '"}';
  const chunk = Buffer.alloc(64 * 1024, 'x');
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': String(HUGE_BODY_BYTES + head.length + tail.length),
  });
  response.write(head);
  for (let sent = 0; sent < HUGE_BODY_BYTES && !response.destroyed; sent += chunk.length) {
    if (!response.write(chunk)) await waitForDrain(response);
  }
  if (!response.destroyed) response.end(tail);
}

const streamStatusThenSilence: HostileServer = {
  id: 'STREAM-STATUS-THEN-SILENCE',
  title: "Sends a stream's status event, then nothing",
  description: 'In front of a real server; every `/stream/1` response passes its first event and then stays open and silent.',
  area: 'events',
  reason: /time|deadline|within|no event|abort|expected/i,
  needsUpstream: true,
  start: (upstream) =>
    startFaultProxy({
      upstream: requireUpstream(upstream),
      hooks: {
        stream: () => ({
          onEvent(event, writer, index) {
            if (index === 0) writer.emit(event);
          },
        }),
      },
    }),
};

const streamByteByByte: HostileServer = {
  id: 'STREAM-BYTE-BY-BYTE',
  title: 'Sends a stream byte by byte, very slowly',
  description: `In front of a real server; every \`/stream/1\` event is written one byte every ${SLOW_BYTE_DELAY_MS} ms.`,
  area: 'events',
  reason: /time|deadline|within|abort|expected/i,
  needsUpstream: true,
  start: (upstream) =>
    startFaultProxy({
      upstream: requireUpstream(upstream),
      hooks: {
        stream: () => ({
          async onEvent(event, writer) {
            for (const byte of Buffer.from(`${stringifyJson(event)}\r\n`)) {
              if (writer.closed) return;
              await writer.writeRaw(Buffer.of(byte));
              await writer.pause(SLOW_BYTE_DELAY_MS);
            }
          },
        }),
      },
    }),
};

const streamCutMidEvent: HostileServer = {
  id: 'STREAM-CUT-MID-EVENT',
  title: 'Closes streams in the middle of an event',
  description:
    'In front of a real server; every `/stream/1` response passes its status event, sends half of the next event and cuts the connection.',
  area: 'events',
  reason: /clos|end|terminat|abort|socket|premature|incomplete|json|time|expected/i,
  needsUpstream: true,
  start: (upstream) =>
    startFaultProxy({
      upstream: requireUpstream(upstream),
      hooks: {
        stream: () => ({
          async onEvent(event, writer, index) {
            if (index === 0) {
              writer.emit(event);
              return;
            }
            const text = stringifyJson(event);
            await writer.writeRaw(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
            writer.destroy();
          },
        }),
      },
    }),
};

export const HOSTILE_SERVERS: readonly HostileServer[] = [
  neverAnswers,
  silentSocket,
  invalidJson,
  alwaysServerError,
  hugeBody,
  streamStatusThenSilence,
  streamByteByByte,
  streamCutMidEvent,
];
