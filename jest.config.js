// One jest configuration for the whole workspace. Sources are ESM TypeScript (client-node 2.x is
// ESM-only), so ts-jest runs in ESM mode and jest needs NODE_OPTIONS=--experimental-vm-modules
// (set by `pnpm jest`). Relative imports are written with their real `.ts` extension, the form
// Node 24 runs directly, so no path mapping is needed.
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/e2e', '<rootDir>/tools', '<rootDir>/bench'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.base.json' }] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // Suites that need the control plane share one, started once per run (packages/testkit/src/jest-global-setup.mjs).
  globalSetup: '<rootDir>/packages/testkit/src/jest-global-setup.mjs',
  globalTeardown: '<rootDir>/packages/testkit/src/jest-global-teardown.mjs',
  testTimeout: 60_000,
};
