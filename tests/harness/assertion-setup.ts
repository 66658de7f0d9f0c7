// First setup file of the conformance project (before allure-vitest/setup, see bigint-assertions.ts).
import { installBigIntAssertionOperands } from './bigint-assertions.js';

installBigIntAssertionOperands();
