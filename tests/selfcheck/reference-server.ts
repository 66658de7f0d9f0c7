// The seam to the reference server (reference-impl/server.ts), loaded when a selfcheck starts so this folder
// type-checks on its own.
export interface RunningReferenceServer {
  url: string;
  port: number;
  host: string;
  rootSecret: string;
  close(): Promise<void>;
}

interface ReferenceServerModule {
  startReferenceServer(options?: { port?: number; host?: string; rootSecret?: string }): Promise<RunningReferenceServer>;
}

export async function startReferenceServer(): Promise<RunningReferenceServer> {
  const modulePath = new URL('../../reference-impl/server.ts', import.meta.url).href;
  const module = (await import(modulePath)) as ReferenceServerModule;
  return module.startReferenceServer({ port: 0, host: '127.0.0.1' });
}
