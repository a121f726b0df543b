/**
 * The idle-sessions scenario's client, the same for every server: opens a control session, asks the
 * server for its memory (after a forced GC), opens `sessions` more 2025-11-25 sessions (initialize +
 * notifications/initialized, nothing else; at most 16 connections, so sessions hold no socket),
 * then asks again. Prints one JSON line like the implementations' clients.
 */
import { RawHttpClient } from "./http-raw.mjs";

const VERSION = "2025-11-25";
const config = JSON.parse(process.argv[2] ?? "{}");
const http = new RawHttpClient(config.target.url, { maxSockets: 16 });

async function open() {
  const { result, headers } = await http.request("initialize", {
    protocolVersion: VERSION,
    capabilities: {},
    clientInfo: { name: "bench-sessions", version: "1.0.0" },
  });
  const session = headers["mcp-session-id"];
  if (!session) throw new Error("the server gave no Mcp-Session-Id");
  if (result.protocolVersion !== VERSION) throw new Error(`the server chose ${result.protocolVersion}`);
  const sessionHeaders = { "mcp-session-id": session, "mcp-protocol-version": VERSION };
  const ack = await http.post({ jsonrpc: "2.0", method: "notifications/initialized" }, sessionHeaders);
  if (ack.status !== 202 && ack.status !== 200)
    throw new Error(`notifications/initialized: HTTP ${ack.status}`);
  return sessionHeaders;
}

async function memory(headers) {
  const { result } = await http.request("tools/call", { name: "stats", arguments: { gc: true } }, headers);
  return JSON.parse(result.content[0].text).memory;
}

try {
  const control = await open();
  const before = await memory(control);
  const start = performance.now();
  let opened = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (opened < config.sessions) {
        opened++;
        await open();
      }
    }),
  );
  const ms = performance.now() - start;
  const after = await memory(control);
  const per = (key) => (after[key] - before[key]) / config.sessions / 1024;
  const metrics = {
    heapKiBPerSession: per("heapUsed"),
    rssKiBPerSession: per("rss"),
    externalKiBPerSession: per("external"),
    sessionsPerSec: config.sessions / (ms / 1000),
  };
  process.stdout.write(`${JSON.stringify({ ok: true, metrics })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: error?.stack ?? String(error) })}\n`);
  process.exitCode = 1;
}
http.close();
