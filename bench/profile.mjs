#!/usr/bin/env node
/**
 * Summarizes V8 CPU profiles (`node --cpu-prof`, or `node bench/run.mjs --cpu-prof server`): the
 * functions with the most self time and the most total (inclusive) time, with mcpkit's dist/ frames
 * mapped back to src/*.ts lines through the source maps, and the time per area (mcpkit, node
 * internals, each package, GC).
 *
 *   node bench/profile.mjs <file.cpuprofile | directory> … [--top 25] [--filter TEXT]
 *
 * Several profiles (or every profile under a directory) are merged. `--filter` keeps the rows whose
 * location contains TEXT (e.g. `src/`). `--lines` adds the source lines with the most self time
 * (V8's per-line ticks), which tells apart the work of functions V8 inlined into one another.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function profilesIn(path) {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path, { recursive: true })
    .map((name) => join(path, String(name)))
    .filter((file) => file.endsWith(".cpuprofile"));
}

// --- source maps (only what mapping a position back needs) ---

const B64 = new Map(
  [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].map((c, i) => [c, i]),
);

function decodeMappings(mappings) {
  const lines = [];
  const state = [0, 0, 0, 0]; // source, original line, original column, (name unused)
  for (const lineText of mappings.split(";")) {
    const segments = [];
    let column = 0;
    for (const segment of lineText.split(",")) {
      if (!segment) continue;
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = B64.get(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length >= 4) {
        state[0] += fields[1];
        state[1] += fields[2];
        state[2] += fields[3];
        segments.push([column, state[0], state[1]]);
      }
    }
    lines.push(segments);
  }
  return lines;
}

const maps = new Map();

/** `src/x.ts:line` for a 0-based position in a built file with a source map, else undefined. */
function original(file, line, column) {
  if (!maps.has(file)) {
    let map;
    try {
      const raw = JSON.parse(readFileSync(`${file}.map`, "utf8"));
      map = {
        sources: raw.sources.map((s) => resolve(dirname(file), s)),
        lines: decodeMappings(raw.mappings),
      };
    } catch {
      map = undefined;
    }
    maps.set(file, map);
  }
  const map = maps.get(file);
  const segments = map?.lines[line];
  if (!segments?.length) return undefined;
  let found = segments[0];
  for (const segment of segments) {
    if (segment[0] <= column) found = segment;
    else break;
  }
  return `${relative(ROOT, map.sources[found[1]])}:${found[2] + 1}`;
}

function locationOf(frame) {
  const { url, lineNumber, columnNumber } = frame;
  if (!url) return "";
  const file = url.startsWith("file://") ? fileURLToPath(url) : url;
  if (file.startsWith(join(ROOT, "dist"))) {
    const mapped = original(file, lineNumber, columnNumber);
    if (mapped) return mapped;
  }
  return `${file.startsWith("/") ? relative(ROOT, file) : file}:${lineNumber + 1}`;
}

function areaOf(frame) {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node internals";
  const file = url.startsWith("file://") ? fileURLToPath(url) : url;
  const modules = file.lastIndexOf("node_modules/");
  if (modules !== -1) {
    const rest = file.slice(modules + "node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (file.startsWith(join(ROOT, "dist"))) return "mcpkit";
  if (file.startsWith(join(ROOT, "bench"))) return "bench scripts";
  return relative(ROOT, file);
}

function main() {
  const args = process.argv.slice(2);
  let top = 25;
  let filter;
  let lines = false;
  const paths = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--top") top = Number(args[++i]);
    else if (args[i] === "--filter") filter = args[++i];
    else if (args[i] === "--lines") lines = true;
    else paths.push(args[i]);
  }
  const files = paths.flatMap((p) => (existsSync(p) ? profilesIn(p) : []));
  if (files.length === 0) {
    process.stderr.write(
      "usage: node bench/profile.mjs <file.cpuprofile | directory> … [--top N] [--filter TEXT]\n",
    );
    process.exit(2);
  }
  const self = new Map();
  const total = new Map();
  const areas = new Map();
  const byLine = new Map();
  let all = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, "utf8"));
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    // Time of each sample: the delta to the next one.
    const micros = new Map();
    for (let i = 0; i < profile.samples.length; i++) {
      const delta = profile.timeDeltas[i + 1] ?? 0;
      micros.set(profile.samples[i], (micros.get(profile.samples[i]) ?? 0) + Math.max(0, delta));
    }
    if (lines) ticksByLine(profile, micros, byLine);
    for (const [id, us] of micros) {
      const node = byId.get(id);
      const frame = node.callFrame;
      if (frame.functionName === "(idle)") continue;
      all += us;
      const key = `${frame.functionName || "(anonymous)"}\t${locationOf(frame)}`;
      self.set(key, (self.get(key) ?? 0) + us);
      const area = areaOf(frame);
      areas.set(area, (areas.get(area) ?? 0) + us);
      // Inclusive: every distinct function on the stack, once.
      const seen = new Set();
      for (let at = id; at !== undefined; at = parent.get(at)) {
        const f = byId.get(at).callFrame;
        const k = `${f.functionName || "(anonymous)"}\t${locationOf(f)}`;
        if (seen.has(k)) continue;
        seen.add(k);
        total.set(k, (total.get(k) ?? 0) + us);
      }
    }
  }
  const pct = (us) => `${((100 * us) / all).toFixed(1).padStart(5)}%`;
  const ms = (us) => `${(us / 1000).toFixed(1).padStart(8)} ms`;
  const print = (title, map) => {
    process.stdout.write(`\n${title}\n`);
    const rows = [...map].filter(([key]) => !filter || key.includes(filter)).sort((a, b) => b[1] - a[1]);
    for (const [key, us] of rows.slice(0, top)) {
      const [name, location] = key.split("\t");
      process.stdout.write(`${ms(us)} ${pct(us)}  ${name}  ${location}\n`);
    }
  };
  process.stdout.write(
    `${files.length} profile(s), ${(all / 1000).toFixed(1)} ms of samples (idle excluded)\n`,
  );
  print("by area (self time)", new Map([...areas].map(([k, v]) => [`${k}\t`, v])));
  print("self time", self);
  print("total time (inclusive)", total);
  if (lines) print("self time by line", byLine);
}

/** Adds each node's self time to its lines, in proportion to V8's ticks per line. */
function ticksByLine(profile, micros, byLine) {
  for (const node of profile.nodes) {
    const us = micros.get(node.id);
    if (!us || !node.positionTicks?.length || node.callFrame.functionName === "(idle)") continue;
    const ticks = node.positionTicks.reduce((sum, tick) => sum + tick.ticks, 0);
    for (const tick of node.positionTicks) {
      const frame = { ...node.callFrame, lineNumber: tick.line - 1, columnNumber: 0 };
      const key = `${node.callFrame.functionName || "(anonymous)"}\t${locationOf(frame)}`;
      byLine.set(key, (byLine.get(key) ?? 0) + (us * tick.ticks) / ticks);
    }
  }
}

process.stdout.on("error", () => process.exit(0));
main();
