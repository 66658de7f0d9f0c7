/**
 * Builds the machine-readable requirements index from the spec's Markdown.
 *
 * Run as a script (`npm run gen:spec-index`) it writes spec/requirements.json; imported, it offers
 * `buildIndex()` (fresh parse, used by the drift test) and `loadRequirementsIndex()` (the committed JSON,
 * used by the harness and reporters). Malformed requirements fail loudly: a spec that cannot be parsed must
 * never silently lose a requirement.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Decision, Evidence, EvidenceSource, Requirement, RequirementsIndex } from '../schemas/types.js';

// The index's shapes are those of schemas/requirements-index.schema.json.
export type { Decision, Evidence, EvidenceSource, Requirement, RequirementsIndex };
export type RequirementBasis = Requirement['basis'];
export type RequirementLevel = Requirement['level'];
export type RequirementProfile = Requirement['profile'];
export type RequirementStatus = Requirement['status'];

/** A fenced code block in the spec that names a schema, e.g. ```json schema=document. */
export interface SchemaExample {
  file: string;
  line: number;
  schema: string;
  language: 'json' | 'ndjson';
  text: string;
}

export const LEVELS: readonly RequirementLevel[] = ['MUST', 'SHOULD', 'MAY'];
export const PROFILES: readonly RequirementProfile[] = [
  'core',
  'auth',
  'abac',
  'indexes',
  'feeds',
  'streams',
  'v4-streams',
  'v4-functions',
  'fql10',
];
export const STATUSES: readonly RequirementStatus[] = ['active', 'tentative', 'withdrawn'];
export const REQUIREMENT_ID = /^[A-Z][A-Z0-9]*-[A-Z][A-Z0-9]*-\d{3}$/;
export const DECISION_ID = /^DEC-\d{3}$/;

const SPEC_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT_DIR = dirname(SPEC_DIR);
const REQUIREMENTS_DIR = join(SPEC_DIR, 'requirements');
const DECISIONS_FILE = join(SPEC_DIR, 'decisions.md');
const EVIDENCE_SOURCES_FILE = join(SPEC_DIR, 'evidence-sources.json');
const INDEX_FILE = join(SPEC_DIR, 'requirements.json');

export class SpecFormatError extends Error {
  constructor(file: string, line: number, message: string) {
    super(`${file}:${line}: ${message}`);
    this.name = 'SpecFormatError';
  }
}

/** A heading that looks like a requirement (`### XYZ-…`) must parse completely; anything else is prose. */
const REQUIREMENT_HEADING = /^###\s+([A-Z][A-Z0-9]*-\S*)\s*(.*)$/;
const DECISION_HEADING = /^##\s+(DEC-\S*)\s*(.*)$/;
const SEPARATOR = /\s+·\s+/;

function toPosix(path: string): string {
  return path.split('\\').join('/');
}

function repoPath(absolute: string): string {
  return toPosix(relative(ROOT_DIR, absolute));
}

/** Lines of a file with fenced code blocks blanked out, so `### ` inside an example is never a heading. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split(/\r?\n/).map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '```';
    }
    return fenced ? '' : line;
  });
}

export function parseDecisions(text: string, file: string): Decision[] {
  const decisions: Decision[] = [];
  proseLines(text).forEach((line, i) => {
    const m = DECISION_HEADING.exec(line);
    if (!m) return;
    const [, id, rest] = m as unknown as [string, string, string];
    if (!DECISION_ID.test(id)) throw new SpecFormatError(file, i + 1, `malformed decision ID "${id}" (want DEC-NNN)`);
    const title = rest.replace(/^·\s*/, '').trim();
    if (!rest.startsWith('·') || title === '') {
      throw new SpecFormatError(file, i + 1, `decision heading must read "## ${id} · <title>"`);
    }
    decisions.push({ id, title, file, anchor: id.toLowerCase() });
  });
  return decisions;
}

export function parseRequirements(text: string, file: string): Requirement[] {
  const lines = proseLines(text);
  const requirements: Requirement[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = REQUIREMENT_HEADING.exec(lines[i] as string);
    if (!m) continue;
    const lineNo = i + 1;
    const parts = (lines[i] as string)
      .replace(/^###\s+/, '')
      .trim()
      .split(SEPARATOR);
    if (parts.length !== 3) {
      throw new SpecFormatError(file, lineNo, 'requirement heading must read "### AREA-TOPIC-NNN · LEVEL · profile"');
    }
    const [id, level, profile] = parts as [string, string, string];
    if (!REQUIREMENT_ID.test(id)) throw new SpecFormatError(file, lineNo, `malformed requirement ID "${id}"`);
    if (!(LEVELS as readonly string[]).includes(level)) {
      throw new SpecFormatError(file, lineNo, `${id}: unknown level "${level}" (want ${LEVELS.join('/')})`);
    }
    if (!(PROFILES as readonly string[]).includes(profile)) {
      throw new SpecFormatError(file, lineNo, `${id}: unknown profile "${profile}" (want ${PROFILES.join('/')})`);
    }

    // The body runs to the next heading of any level.
    let end = i + 1;
    while (end < lines.length && !/^#{1,6}\s/.test(lines[end] as string)) end++;
    const body = lines.slice(i + 1, end);

    const statementLines: string[] = [];
    let j = 0;
    while (j < body.length && (body[j] as string).trim() === '') j++;
    while (j < body.length && (body[j] as string).trim() !== '' && !/^(Source|Status|Evidence):/.test(body[j] as string)) {
      if ((body[j] as string).startsWith('```')) break;
      statementLines.push((body[j] as string).trim());
      j++;
    }
    const statement = statementLines.join(' ').trim();
    if (statement === '') throw new SpecFormatError(file, lineNo, `${id}: missing statement`);

    const sourceLines = body.filter((l) => l.startsWith('Source:'));
    if (sourceLines.length !== 1) {
      throw new SpecFormatError(file, lineNo, `${id}: needs exactly one "Source:" line, found ${sourceLines.length}`);
    }
    const [firstSource, ...moreSources] = (sourceLines[0] as string)
      .slice('Source:'.length)
      .split(';')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (firstSource === undefined) throw new SpecFormatError(file, lineNo, `${id}: empty Source`);
    const source: Requirement['source'] = [firstSource, ...moreSources];

    const evidenceLines = body.filter((l) => l.startsWith('Evidence:'));
    if (evidenceLines.length !== 1) {
      throw new SpecFormatError(
        file,
        lineNo,
        `${id}: needs exactly one "Evidence:" line (a cited line range, or "none found"), found ${evidenceLines.length}`,
      );
    }
    const evidence = parseEvidence((evidenceLines[0] as string).slice('Evidence:'.length).trim(), file, lineNo, id);

    const statusLines = body.filter((l) => l.startsWith('Status:'));
    if (statusLines.length > 1) throw new SpecFormatError(file, lineNo, `${id}: more than one "Status:" line`);
    let status: RequirementStatus = 'active';
    if (statusLines.length === 1) {
      const value = (statusLines[0] as string).slice('Status:'.length).trim().split(/\s+/)[0] ?? '';
      if (!(STATUSES as readonly string[]).includes(value)) {
        throw new SpecFormatError(file, lineNo, `${id}: unknown status "${value}" (want ${STATUSES.join('/')})`);
      }
      status = value as RequirementStatus;
    }

    requirements.push({
      id,
      level: level as RequirementLevel,
      profile: profile as RequirementProfile,
      status,
      statement,
      source,
      evidence,
      basis: basisOf(source, evidence),
      file,
      anchor: id.toLowerCase(),
    });
  }
  return requirements;
}

/**
 * One cited place: `owner/repo:path#L10-L24 (what it shows)`; several are separated by `; `. `none found` (with an
 * optional parenthesised note of where was looked) is an empty list.
 */
const EVIDENCE_ENTRY = /^([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+):([^\s#]+)#L(\d+)(?:-L(\d+))?(?:\s+\((.+)\))?$/;

export function parseEvidence(text: string, file: string, line: number, id: string): Evidence[] {
  if (/^none found(\s+\(.+\))?$/.test(text)) return [];
  return text.split(/;\s+(?=[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+:)/).map((entry) => {
    const m = EVIDENCE_ENTRY.exec(entry.trim());
    if (!m)
      throw new SpecFormatError(
        file,
        line,
        `${id}: malformed evidence "${entry.trim()}" (want owner/repo:path#Lfirst-Llast (note), or "none found")`,
      );
    const first = Number(m[3]);
    const last = m[4] === undefined ? first : Number(m[4]);
    if (first < 1 || last < first) throw new SpecFormatError(file, line, `${id}: evidence line range L${first}-L${last} is empty`);
    const cited: Evidence = { repo: m[1] as string, path: m[2] as string, lines: [first, last] };
    if (m[5] !== undefined) cited.note = m[5];
    return cited;
  });
}

/** How the spec writes a cited place: `fauna/faunadb:ext/…/IndexSpec.scala#L10-L24`. */
export function evidenceCite(e: Evidence): string {
  return `${e.repo}:${e.path}#L${e.lines[0]}${e.lines[1] === e.lines[0] ? '' : `-L${e.lines[1]}`}`;
}

/** The cited lines on the web, at the commit the spec pins. */
export function evidenceUrl(e: Evidence, sources: Readonly<Record<string, EvidenceSource | undefined>>): string {
  const source = sources[e.repo];
  if (source === undefined) throw new Error(`evidence cites ${e.repo}, which spec/evidence-sources.json does not pin`);
  return `${source.url}/blob/${source.commit}/${e.path}#L${e.lines[0]}${e.lines[1] === e.lines[0] ? '' : `-L${e.lines[1]}`}`;
}

/** The SD when a section of it is cited; else Fauna's own code or tests when they show it; else a decision alone. */
export function basisOf(source: readonly string[], evidence: readonly Evidence[]): RequirementBasis {
  if (source.some((s) => s.startsWith('SD'))) return 'sd';
  return evidence.length > 0 ? 'core' : 'decision';
}

/** The spec's Markdown files that hold requirements, as absolute paths, in a stable order. */
export function requirementFiles(): string[] {
  return readdirSync(REQUIREMENTS_DIR)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(REQUIREMENTS_DIR, name));
}

/** Every Markdown file of the spec (README, decisions, areas, and any other page such as the FQL subset). */
export function specMarkdownFiles(): string[] {
  const top = readdirSync(SPEC_DIR)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(SPEC_DIR, name));
  return [...top, ...requirementFiles()];
}

export function extractSchemaExamples(text: string, file: string): SchemaExample[] {
  const examples: SchemaExample[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```(json|ndjson)\b(.*)$/.exec(lines[i] as string);
    if (!open) continue;
    const language = open[1] as 'json' | 'ndjson';
    const schema = /\bschema=([a-z0-9-]+)/.exec(open[2] ?? '')?.[1];
    let close = i + 1;
    while (close < lines.length && !/^\s*```\s*$/.test(lines[close] as string)) close++;
    if (close >= lines.length) throw new SpecFormatError(file, i + 1, 'unterminated code block');
    if (schema !== undefined) {
      examples.push({ file, line: i + 1, schema, language, text: lines.slice(i + 1, close).join('\n') });
    }
    i = close;
  }
  return examples;
}

export function allSchemaExamples(): SchemaExample[] {
  return specMarkdownFiles().flatMap((path) => extractSchemaExamples(readFileSync(path, 'utf8'), repoPath(path)));
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error('package.json has no version');
  return pkg.version;
}

/** A Markdown source of the spec: its repository path and its text. */
export interface SpecSource {
  file: string;
  text: string;
}

/** Builds the index from given sources; `buildIndex()` feeds it the files on disk. */
export function buildIndexFrom(
  areas: SpecSource[],
  decisionsSource: SpecSource,
  specVersion: string,
  evidenceSources: Record<string, EvidenceSource>,
): RequirementsIndex {
  const decisions = parseDecisions(decisionsSource.text, decisionsSource.file);
  const decisionIds = new Set<string>();
  for (const d of decisions) {
    if (decisionIds.has(d.id)) throw new SpecFormatError(d.file, 0, `duplicate decision ${d.id}`);
    decisionIds.add(d.id);
  }

  const requirements: Requirement[] = [];
  const seen = new Map<string, string>();
  for (const { file, text } of areas) {
    for (const r of parseRequirements(text, file)) {
      const previous = seen.get(r.id);
      if (previous !== undefined) throw new SpecFormatError(file, 0, `duplicate requirement ${r.id} (also in ${previous})`);
      seen.set(r.id, file);
      for (const cited of r.source.flatMap((s) => s.match(/DEC-\d+/g) ?? [])) {
        if (!decisionIds.has(cited)) throw new SpecFormatError(file, 0, `${r.id}: Source cites unknown decision ${cited}`);
      }
      for (const { repo } of r.evidence) {
        if (!(repo in evidenceSources))
          throw new SpecFormatError(file, 0, `${r.id}: evidence cites ${repo}, which spec/evidence-sources.json does not pin`);
      }
      requirements.push(r);
    }
  }

  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return { specVersion, evidenceSources, requirements: requirements.sort(byId), decisions: decisions.sort(byId) };
}

export function buildIndex(): RequirementsIndex {
  const read = (path: string): SpecSource => ({ file: repoPath(path), text: readFileSync(path, 'utf8') });
  const evidenceSources = JSON.parse(readFileSync(EVIDENCE_SOURCES_FILE, 'utf8')) as Record<string, EvidenceSource>;
  return buildIndexFrom(requirementFiles().map(read), read(DECISIONS_FILE), packageVersion(), evidenceSources);
}

export function serializeIndex(index: RequirementsIndex): string {
  return `${JSON.stringify(index, null, 2)}\n`;
}

/** The committed index, as the harness and reporters see it (no Markdown parsing at test time). */
export function loadRequirementsIndex(): RequirementsIndex {
  return JSON.parse(readFileSync(INDEX_FILE, 'utf8')) as RequirementsIndex;
}

export const REQUIREMENTS_INDEX_PATH = INDEX_FILE;

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const index = buildIndex();
  writeFileSync(INDEX_FILE, serializeIndex(index));
  process.stdout.write(`wrote ${repoPath(INDEX_FILE)}: ${index.requirements.length} requirements, ${index.decisions.length} decisions\n`);
}
