// Runs once per conformance run in the main process: resolves the target (starting the embedded reference server
// when no URL is given) and hands it to the test workers.
import type { TestProject } from 'vitest/node';
import { settingsFromEnv, type Target } from './config.js';
import { assertReachable } from './reachability.js';
import { EMBEDDED_EVENT_SETTINGS, EVENT_ENV } from './event-settings.js';
import { prepareValidators } from '../../schemas/index.js';

/** The embedded server's time limit of regular expressions and case mappings. */
const EMBEDDED_FUNCTION_TIME_LIMIT_MS = 400;

declare module 'vitest' {
  export interface ProvidedContext {
    conformanceTarget: Target;
  }
}

const REACHABILITY_TIMEOUT_MS = 3_000;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const settings = settingsFromEnv();
  prepareValidators();
  let close = async () => {};
  let target: Target;
  if (settings.url) {
    await assertReachable(settings.url, REACHABILITY_TIMEOUT_MS);
    target = { ...settings, url: settings.url, secret: settings.secret!, embedded: false };
  } else {
    const { startReferenceServer } = await import('../../reference-impl/server.js');
    const rootSecret = settings.secret ?? `fc-root-${settings.runId}-${Math.random().toString(36).slice(2, 10)}`;
    // A short function time limit: each FN-STR-033 check holds the in-process server for that long (1 s by default).
    const server = await startReferenceServer({
      port: 0,
      host: '127.0.0.1',
      rootSecret,
      events: EMBEDDED_EVENT_SETTINGS,
      functionTimeLimitMs: EMBEDDED_FUNCTION_TIME_LIMIT_MS,
    });
    // Workers start after this and inherit the environment: they learn the embedded server's event settings.
    for (const name of Object.keys(EVENT_ENV) as (keyof typeof EVENT_ENV)[])
      process.env[EVENT_ENV[name]] = String(EMBEDDED_EVENT_SETTINGS[name]);
    close = () => server.close();
    target = { ...settings, url: server.url, secret: server.rootSecret, embedded: true };
  }
  project.provide('conformanceTarget', target);
  return close;
}
