// Setup file of the conformance project: per test, it opens the test's scope (its transcript and generated names), publishes
// the requirement IDs as Allure labels (the JUnit properties are written by RequirementJUnitReporter from the test's
// meta), fails tests registered without `check`, attaches the redacted HTTP exchanges of a failing test to its result
// and keeps one exchange of a passing test as its example.
import * as allure from 'allure-js-commons';
import fc from 'fast-check';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { endFileNames } from './names.js';
import { target } from './target.js';
import { closeTestScope, endFileTestScopes, openTestScope, testScopeOf } from './test-scope.js';
import { endFileTranscript, exampleExchange, formatExchanges, redactExchanges } from './transcript.js';

// --seed fixes every property-based run; a failing one is replayed by the same seed.
fc.configureGlobal({ seed: target().seed });

beforeEach(async (context) => {
  const ids = context.task.meta.requirements;
  if (!ids || ids.length === 0) {
    throw new Error(`"${context.task.name}" declares no requirement IDs: register conformance tests with check([...ids], title, fn)`);
  }
  const { exchanges: transcript } = openTestScope(context.task, context.task.fullTestName ?? context.task.name);
  await allure.labels(...ids.map((id) => ({ name: 'requirement', value: id })));
  const area = context.task.file.filepath.match(/tests\/conformance\/([^/]+)\//)?.[1];
  if (area) await allure.feature(area);
  context.onTestFailed(async () => {
    const exchanges = redactExchanges(transcript);
    context.task.meta.exchanges = exchanges;
    if (exchanges.length > 0) {
      await allure.attachment('HTTP exchanges', formatExchanges(exchanges), { contentType: 'text/plain' });
      await allure.attachment('HTTP exchanges (JSON)', JSON.stringify(exchanges, null, 2), { contentType: 'application/json' });
    }
  });
});

// onTestFailed handlers run after afterEach, so the transcript list stays reachable through the closure above. A test's
// result is known by now: this hook, a setup file's, runs after the test file's own.
afterEach((context) => {
  const scope = testScopeOf(context.task);
  if (scope !== undefined && context.task.result?.state === 'pass') {
    const example = exampleExchange(scope.exchanges);
    if (example) context.task.meta.example = example;
  }
  closeTestScope(context.task);
});

// After hooks run in reverse order of registration, so this one (a setup file's) runs after the test file's own.
afterAll(() => {
  endFileTranscript();
  endFileNames();
  endFileTestScopes();
});
