import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/helpers/spec-schema-notice.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll's own default (1 s) fails on a loaded machine; a bound, never a timing assertion.
    expect: { poll: { timeout: 20_000 } },
    pool: "forks",
    // A test file's cost is mostly Vite transforming the ~200 src/ modules it imports, again on every
    // run: kept on disk (node_modules/.experimental-vitest-cache), keyed by each file's content and
    // this config, so an edit is seen at once and only what changed is transformed again.
    experimental: { fsModuleCache: true },
    maxWorkers: 2,
    // oidc-provider 9, the tests' authorization server, warns once per worker that it wants Node 22;
    // it runs fine on the Node 20 the project supports (CONTRIBUTING.md, "Authorization server").
    onConsoleLog: (log) => !log.includes("oidc-provider WARNING: Unsupported runtime"),
  },
});
