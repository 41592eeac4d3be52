#!/usr/bin/env node
// `npx --yes pnpm@12.4.2 exec tokenforge-replay ...`: the replay CLI in this process, so its exit status reaches
// the shell without pnpm's script wrapper adding an `[ELIFECYCLE]` line to the output.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../src/replay/replay-cli.ts', import.meta.url).href);
