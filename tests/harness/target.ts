import { inject } from 'vitest';
import type { Target } from './config.js';
import { Client } from './client.js';
import './global-setup.js';

/** The target of this run, as resolved by the global setup. Only available inside the conformance project. */
export function target(): Target {
  const t = inject('conformanceTarget');
  if (!t) throw new Error('no conformance target: run this file through the conformance project (tests/harness/global-setup.ts)');
  return t;
}

/** A client holding the target's admin secret (the one given with --secret, or the embedded server's root). */
export function rootClient(): Client {
  const t = target();
  return new Client(t, t.secret);
}
