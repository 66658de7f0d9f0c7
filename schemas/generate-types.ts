// Generates schemas/types.ts from every schemas/<name>.schema.json with json-schema-to-typescript.
// Run with `npm run gen:types`; tests/schemas/types-drift.test.ts fails when the committed file is stale.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { schemaDir, schemaNames } from './index.js';

export const typesFile = `${schemaDir}/types.ts`;

const BANNER = [
  '/* eslint-disable */',
  '// Generated from schemas/*.schema.json by `npm run gen:types` (schemas/generate-types.ts). Do not edit by hand:',
  '// change the schema and regenerate.',
].join('\n');

// One root schema that references every file, compiled once, so a shape referenced from several files is declared
// once. The root type itself lists each schema by name.
function rootSchema(): JSONSchema {
  const names = schemaNames();
  return {
    title: 'Wire schemas',
    description: 'Every schema in schemas/, by file name.',
    type: 'object',
    additionalProperties: false,
    required: names,
    properties: Object.fromEntries(names.map((name) => [name, { $ref: `${name}.schema.json` }])),
  };
}

export async function generateTypes(): Promise<string> {
  return compile(rootSchema(), 'WireSchemas', {
    cwd: `${schemaDir}/`,
    bannerComment: BANNER,
    additionalProperties: true,
    unknownAny: true,
    strictIndexSignatures: true,
    format: true,
    style: { singleQuote: true, printWidth: 120 },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(typesFile, await generateTypes());
  console.log(`wrote ${typesFile}`);
}
