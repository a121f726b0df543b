/**
 * What the harness runs: the scenarios behind mcpkit's performance targets and the implementations ("variants": an
 * implementation speaking one protocol era) they run against.
 */

/**
 * The implementations, each with the eras its bench scripts serve ("legacy": the 2025-11-25
 * handshake; "modern": 2026-07-28, stateless). The floor is era-less: the same hand-written JSON-RPC
 * is the reference for both eras. A client script gets the era in its config and pins it; a server
 * script gets it too (SDK v2's HTTP server is wired differently per era).
 */
export const IMPLEMENTATIONS = [
  { name: "floor", label: "floor", eras: ["legacy"], floor: true },
  { name: "mcpkit", label: "mcpkit", eras: ["legacy", "modern"] },
  { name: "sdk-v1", label: "SDK v1", eras: ["legacy"] },
  { name: "sdk-v2", label: "SDK v2", eras: ["legacy", "modern"] },
];

/** `mcpkit`, `sdk-v2@modern`, …: one per implementation and era. */
export function allVariants() {
  const variants = [];
  for (const impl of IMPLEMENTATIONS) {
    for (const era of impl.eras) {
      variants.push({
        id: era === "legacy" ? impl.name : `${impl.name}@${era}`,
        label: era === "legacy" ? impl.label : `${impl.label} (2026-07-28)`,
        impl: impl.name,
        era,
        floor: impl.floor === true,
      });
    }
  }
  return variants;
}

const PER_CALL_CPU = [
  { key: "serverCpuUsPerCall", label: "server CPU µs/call", better: "lower", digits: 1 },
  { key: "clientCpuUsPerCall", label: "client CPU µs/call", better: "lower", digits: 1 },
];

/**
 * The metrics of a `tools/list` scenario. With zod, server start and memory are also held to
 * bounds against the plain JSON Schema scenario and SDK v1: start without building the schema
 * objects (the application's code) ≤ 1.3× the JSON Schema case, RSS growth ≤ 1.5× SDK v1's, in
 * all and beyond what the schema objects take by themselves.
 */
function listMetrics(schema) {
  const zod = schema === "zod";
  return [
    { key: "firstMs", label: "first list ms", better: "lower", digits: 1, target: { max: 1.5 } },
    { key: "warmMs", label: "warm list ms", better: "lower", digits: 1 },
    { key: "listedHeapMiB", label: "heap growth MiB", better: "lower", digits: 1, target: { max: 1.5 } },
    { key: "registerHeapMiB", label: "heap growth MiB, before listing", better: "lower", digits: 1 },
    {
      key: "listedRssMiB",
      label: "RSS growth MiB",
      better: "lower",
      digits: 1,
      ...(zod && { target: { max: 1.5, versus: { variant: "sdk-v1" } } }),
    },
    { key: "schemasHeapMiB", label: "heap of the schema objects MiB", better: "lower", digits: 1 },
    { key: "ownHeapMiB", label: "heap growth beyond the schema objects MiB", better: "lower", digits: 1 },
    {
      key: "ownRssMiB",
      label: "RSS growth beyond the schema objects MiB",
      better: "lower",
      digits: 1,
      ...(zod && { target: { max: 1.5, versus: { variant: "sdk-v1" } } }),
    },
    { key: "startMs", label: "server start ms", better: "lower", digits: 1 },
    {
      key: "ownStartMs",
      label: "server start without building schemas ms",
      better: "lower",
      digits: 1,
      ...(zod && { target: { max: 1.3, versus: { scenario: "list-10k-json" } } }),
    },
    { key: "schemasMs", label: "building the schemas ms", better: "lower", digits: 1 },
    { key: "registerMs", label: "registering ms", better: "lower", digits: 1 },
  ];
}

/**
 * Counts are `{ full, quick }`. `target` is a ratio to the floor's median (`min`: at least, `max`:
 * at most), to another implementation's median (`versus: { variant }`) or to the same
 * implementation's in another scenario (`versus: { scenario }`), or an absolute bound (`absMax`).
 * Metrics are what the client script reports.
 */
export const SCENARIOS = [
  {
    id: "stdio-seq",
    title: "stdio, sequential echo `tools/call`",
    kind: "echo",
    transport: "stdio",
    concurrency: 1,
    calls: { full: 30_000, quick: 500 },
    warmup: { full: 10_000, quick: 100 },
    metrics: [
      { key: "callsPerSec", label: "calls/s", better: "higher", digits: 0, target: { min: 0.8 } },
      ...PER_CALL_CPU,
    ],
  },
  {
    id: "stdio-64",
    title: "stdio, 64 echo `tools/call` in flight",
    kind: "echo",
    transport: "stdio",
    concurrency: 64,
    calls: { full: 40_000, quick: 1_000 },
    warmup: { full: 10_000, quick: 200 },
    metrics: [
      { key: "callsPerSec", label: "calls/s", better: "higher", digits: 0, target: { min: 0.6 } },
      ...PER_CALL_CPU,
    ],
  },
  {
    id: "http-seq",
    title: "Streamable HTTP on 127.0.0.1, sequential echo `tools/call`",
    kind: "echo",
    transport: "http",
    concurrency: 1,
    calls: { full: 2_000, quick: 200 },
    warmup: { full: 500, quick: 50 },
    metrics: [
      { key: "callsPerSec", label: "calls/s", better: "higher", digits: 0, target: { min: 0.6 } },
      ...PER_CALL_CPU,
    ],
  },
  {
    id: "http-64",
    title: "Streamable HTTP on 127.0.0.1, 64 echo `tools/call` in flight",
    kind: "echo",
    transport: "http",
    concurrency: 64,
    calls: { full: 3_000, quick: 300 },
    warmup: { full: 500, quick: 64 },
    metrics: [
      { key: "callsPerSec", label: "calls/s", better: "higher", digits: 0, target: { min: 0.5 } },
      ...PER_CALL_CPU,
    ],
  },
  {
    id: "list-10k",
    title: "`tools/list` with 10,000 registered tools (zod schemas), stdio",
    kind: "list",
    transport: "stdio",
    tools: { full: 10_000, quick: 1_000 },
    repeats: { full: 3, quick: 1 },
    measureMemory: true,
    metrics: listMetrics("zod"),
  },
  {
    id: "list-10k-json",
    title: "`tools/list` with 10,000 registered tools (plain JSON Schema), stdio",
    kind: "list",
    transport: "stdio",
    schema: "json",
    tools: { full: 10_000, quick: 1_000 },
    repeats: { full: 3, quick: 1 },
    measureMemory: true,
    metrics: listMetrics("json"),
  },
  {
    id: "cold",
    title: "Cold start: spawn → handshake → first `tools/list`, stdio (zod schemas)",
    kind: "cold",
    transport: "stdio",
    metrics: [
      { key: "totalMs", label: "spawn → tools/list ms", better: "lower", digits: 1, target: { max: 1.3 } },
      { key: "connectMs", label: "spawn → connected ms", better: "lower", digits: 1 },
      { key: "clientReadyMs", label: "client process ready ms", better: "lower", digits: 1 },
    ],
  },
  {
    id: "cold-json",
    title: "Cold start: spawn → handshake → first `tools/list`, stdio (plain JSON Schema)",
    kind: "cold",
    transport: "stdio",
    schema: "json",
    metrics: [
      { key: "totalMs", label: "spawn → tools/list ms", better: "lower", digits: 1, target: { max: 1.3 } },
      { key: "connectMs", label: "spawn → connected ms", better: "lower", digits: 1 },
    ],
  },
  {
    id: "sessions",
    title: "1,000 idle 2025-11-25 Streamable HTTP sessions: server memory per session",
    kind: "sessions",
    transport: "http",
    eras: ["legacy"],
    sessions: { full: 1_000, quick: 100 },
    metrics: [
      {
        key: "heapKiBPerSession",
        label: "heap KiB/session",
        better: "lower",
        digits: 2,
        target: { absMax: 12 },
      },
      { key: "rssKiBPerSession", label: "RSS KiB/session", better: "lower", digits: 1 },
      { key: "sessionsPerSec", label: "sessions opened/s", better: "higher", digits: 0 },
    ],
  },
  {
    id: "big-stdio",
    title: "A 5 MiB tool result, stdio",
    kind: "big",
    transport: "stdio",
    warmup: { full: 2, quick: 1 },
    repeats: { full: 5, quick: 2 },
    metrics: [
      { key: "msPerCall", label: "ms/call", better: "lower", digits: 1, target: { max: 1.3 } },
      { key: "serverCpuMsPerCall", label: "server CPU ms/call", better: "lower", digits: 1 },
      { key: "clientCpuMsPerCall", label: "client CPU ms/call", better: "lower", digits: 1 },
    ],
  },
  {
    id: "big-http",
    title: "A 5 MiB tool result, Streamable HTTP",
    kind: "big",
    transport: "http",
    warmup: { full: 2, quick: 1 },
    repeats: { full: 5, quick: 2 },
    metrics: [
      { key: "msPerCall", label: "ms/call", better: "lower", digits: 1, target: { max: 1.3 } },
      { key: "serverCpuMsPerCall", label: "server CPU ms/call", better: "lower", digits: 1 },
      { key: "clientCpuMsPerCall", label: "client CPU ms/call", better: "lower", digits: 1 },
    ],
  },
  {
    id: "tasks",
    title:
      "Tasks over Streamable HTTP: a `tools/call` creating a task, `tasks/get` until it is completed, its result (mcpkit)",
    kind: "tasks",
    transport: "http",
    impls: ["mcpkit"],
    concurrency: 1,
    calls: { full: 2_000, quick: 100 },
    warmup: { full: 500, quick: 20 },
    // Its target is on instructions (bench/lib/feature-cells.mjs): timings here are for reading.
    metrics: [
      { key: "msPerTask", label: "ms/task", better: "lower", digits: 2 },
      { key: "serverCpuUsPerTask", label: "server CPU µs/task", better: "lower", digits: 1 },
      { key: "clientCpuUsPerTask", label: "client CPU µs/task", better: "lower", digits: 1 },
    ],
  },
];

/** Whether a variant can run a scenario, or why not. */
export function skipReason(scenario, variant) {
  if (scenario.impls && !scenario.impls.includes(variant.impl))
    return `${scenario.id} measures ${scenario.impls.join(", ")} alone`;
  if (scenario.eras && !scenario.eras.includes(variant.era) && !variant.floor)
    return `${scenario.id} is a ${scenario.eras.join("/")}-era scenario`;
  if (scenario.schema === "json" && variant.impl === "sdk-v1")
    return "SDK v1's McpServer takes only zod schemas";
  return undefined;
}
