// Setup file of the conformance project: per test, it starts a transcript and a scope of generated names, publishes
// the requirement IDs as Allure labels (the JUnit properties are written by RequirementJUnitReporter from the test's
// meta), fails tests registered without `check`, attaches the redacted HTTP exchanges of a failing test to its result
// and keeps one exchange of a passing test as its example.
import * as allure from 'allure-js-commons';
import fc from 'fast-check';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { endFileNames, enterTestNames, leaveTestNames } from './names.js';
import { target } from './target.js';
import { beginTestTranscript, endFileTranscript, endTestTranscript, exampleExchange, formatExchanges, redactExchanges, type Exchange } from './transcript.js';

// --seed fixes every property-based run; a failing one is replayed by the same seed.
fc.configureGlobal({ seed: target().seed });

/** The running test's exchanges. */
let testExchanges: Exchange[] = [];

beforeEach(async (context) => {
  const transcript = beginTestTranscript();
  testExchanges = transcript;
  enterTestNames(context.task.fullTestName ?? context.task.name);
  const ids = context.task.meta.requirements;
  if (!ids || ids.length === 0) {
    throw new Error(`"${context.task.name}" declares no requirement IDs: register conformance tests with check([...ids], title, fn)`);
  }
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
  if (context.task.result?.state === 'pass') {
    const example = exampleExchange(testExchanges);
    if (example) context.task.meta.example = example;
  }
  endTestTranscript();
  leaveTestNames();
});

// After hooks run in reverse order of registration, so this one (a setup file's) runs after the test file's own.
afterAll(() => {
  endFileTranscript();
  endFileNames();
});
