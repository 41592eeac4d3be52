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
});
