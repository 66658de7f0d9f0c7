// The committed requirements index must be exactly what the spec's Markdown builds, and well-formed.
import { describe, expect, it } from 'vitest';
import { buildIndex, DECISION_ID, loadRequirementsIndex, REQUIREMENT_ID, serializeIndex } from '../../spec/build-index.js';
import { validate } from '../../schemas/index.js';

describe('spec/requirements.json', () => {
  const fresh = buildIndex();
  const committed = loadRequirementsIndex();

  it('equals a fresh build of the spec', () => {
    expect(
      serializeIndex(committed) === serializeIndex(fresh),
      'spec/requirements.json is stale: run npm run gen:spec-index and commit the result',
    ).toBe(true);
  });

  it('validates against schemas/requirements-index.schema.json', () => {
    const result = validate('requirements-index', committed);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has unique, well-formed requirement IDs whose anchors are the lower-case ID', () => {
    const ids = fresh.requirements.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of fresh.requirements) {
      expect(r.id, r.id).toMatch(REQUIREMENT_ID);
      expect(r.anchor).toBe(r.id.toLowerCase());
    }
  });

  it('numbers each topic from 001 without gaps', () => {
    const byTopic = new Map<string, number[]>();
    for (const r of fresh.requirements) {
      const topic = r.id.slice(0, r.id.lastIndexOf('-'));
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), Number(r.id.slice(-3))]);
    }
    for (const [topic, numbers] of byTopic) {
      const sorted = [...numbers].sort((a, b) => a - b);
      expect(sorted, topic).toEqual(sorted.map((_, i) => i + 1));
    }
  });

  it('has unique, well-formed decision IDs', () => {
    const ids = fresh.decisions.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(DECISION_ID);
  });

  it('gives every statement a single sentence that ends with a full stop', () => {
    for (const r of fresh.requirements) {
      expect(r.statement, r.id).toMatch(/[.)]$/);
    }
  });

  it('keeps every MUST testable: a MUST is active unless marked tentative with a reason (or withdrawn)', () => {
    for (const r of fresh.requirements.filter((x) => x.level === 'MUST' && x.status !== 'withdrawn')) {
      expect(['active', 'tentative'], r.id).toContain(r.status);
    }
  });
});
