// Prints `vitest: N passed, N failed, N skipped` from vitest's JSON report; exits 1 on failures or no tests.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-report.json';
if (!existsSync(file)) {
  console.log('vitest: 0 passed, 0 failed, 0 skipped');
  console.error(`no vitest report at ${file}: the tests did not run`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`vitest: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || report.success === false) process.exit(1);
if (passed === 0) {
  console.error('no test passed');
  process.exit(1);
}
