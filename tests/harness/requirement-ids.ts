// Requirement IDs a test may claim: active or tentative entries of spec/requirements.json.
import type { TestTagDefinition } from 'vitest/config';
import { loadRequirementsIndex, type Requirement, type RequirementsIndex } from '../../spec/build-index.js';

let cached: { index: RequirementsIndex; byId: Map<string, Requirement> } | undefined;

function load() {
  if (!cached) {
    const index = loadRequirementsIndex();
    cached = { index, byId: new Map(index.requirements.map((r) => [r.id, r])) };
  }
  return cached;
}

/** Problems with a list of IDs, one line each; empty when every ID names a live requirement. */
export function requirementIdProblems(ids: readonly string[]): string[] {
  if (ids.length === 0) return ['the test declares no requirement IDs'];
  let byId: Map<string, Requirement>;
  try {
    byId = load().byId;
  } catch (err) {
    return [`cannot read spec/requirements.json (run \`npm run gen:spec-index\`): ${(err as Error).message}`];
  }
  const problems: string[] = [];
  for (const id of ids) {
    const req = byId.get(id);
    if (!req) problems.push(`unknown requirement ID ${id} (not in spec/requirements.json)`);
    else if (req.status === 'withdrawn') problems.push(`requirement ${id} is withdrawn`);
  }
  if (new Set(ids).size !== ids.length) problems.push(`duplicate requirement IDs in [${ids.join(', ')}]`);
  return problems;
}

/**
 * One vitest tag per requirement ID of spec/requirements.json (withdrawn ones too, so filtering on one selects
 * nothing instead of failing): `check` tags each test with its IDs, and the runner's --requirement filters on them.
 */
export function requirementTagDefinitions(): TestTagDefinition[] {
  return load().index.requirements.map((r) => ({ name: r.id, description: `${r.level} (${r.status}) ${r.statement}` }));
}

/** True when `id` is in spec/requirements.json. */
export function isKnownRequirementId(id: string): boolean {
  return load().byId.has(id);
}
