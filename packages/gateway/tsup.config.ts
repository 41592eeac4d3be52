import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  target: 'es2022',
  platform: 'node',
  dts: { entry: 'src/index.ts', compilerOptions: { ignoreDeprecations: '6.0' } },
  clean: true,
  sourcemap: false,
  treeshake: true,
  // One file per entry: the package ships exactly dist/index.js and the bin dist/cli.js.
  splitting: false,
  // The operator console (packages/console) is built into dist/console/, which the gateway serves under /console.
  async onSuccess() {
    const { buildConsole } = (await import(pathToFileURL(resolve('../console/build-console.mjs')).href)) as { buildConsole: (out: URL) => Promise<void> };
    await buildConsole(pathToFileURL(`${resolve('dist/console')}/`));
  },
});
