#!/usr/bin/env node
// The `promop` and `kubectl-promop` commands in the repository. JavaScript, not TypeScript: Node loads its type
// stripper (about 80 ms of CPU) for the first .ts file it runs, and with the compile cache enabled before the
// first .ts import, every source comes stripped and compiled from the cache instead. The published package runs
// dist/cli.js (compiled by tsc) and does not need this file.
import { enableCompileCache } from 'node:module';

// Not for `run`: the operator starts once, in a pod whose root filesystem may be read-only.
if (process.argv[2] !== 'run') enableCompileCache?.();
await import('../src/cli.ts');
