import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The benchmark report's own tests: `pnpm exec vitest run --config tools/bench/report/vitest.config.ts`. */
export default defineConfig({
  test: { root: fileURLToPath(new URL('.', import.meta.url)), include: ['*.test.ts'] },
});
