/**
 * The bench's charts (bench/lib/charts.mjs drawing with bench/lib/svg-bars.mjs), made again from the
 * committed sample run by bench/report.mjs: they are the committed ones, well-formed SVG with a bar
 * per implementation measured in each scenario, and they render. The rendering runs headless
 * Chromium where it is installed (/usr/bin/chromium) and is skipped, saying so, where it is not.
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodePng } from "./png.js";
import { elements, parseXml, textOf, type XmlElement } from "./xml.js";

interface Report {
  scenarios: { id: string; metrics: { key: string; label: string }[] }[];
  variants: { id: string; label: string; floor?: boolean; middleware?: string; sdkFloor?: boolean }[];
  summary: Record<string, Record<string, Record<string, { median: number }>>>;
  runs: { scenario: string; variant: string; ok: boolean; metrics?: Record<string, number> }[];
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const RESULTS = join(ROOT, "bench", "results");
const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`${CHROMIUM} is not installed: the charts' rendering is not checked`);

const sample = JSON.parse(readFileSync(join(RESULTS, "sample.json"), "utf8")) as Report;
// The charts compare implementations; the traced variants (what tracing costs) stay in the tables.
const charted = sample.variants.filter((v) => !v.middleware && !v.sdkFloor);

let out: string;
const svgFiles = () =>
  readdirSync(out)
    .filter((f) => f.endsWith(".svg"))
    .sort();
const byClass = (root: XmlElement, cls: string) => [...elements(root)].filter((e) => e.attrs.class === cls);

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "mcpkit-charts-"));
  copyFileSync(join(RESULTS, "sample.json"), join(out, "sample.json"));
  const run = spawnSync(process.execPath, ["bench/report.mjs", join(out, "sample")], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the bench charts", () => {
  it("are made again from sample.json by bench/report.mjs, as committed, and sample.md embeds them", () => {
    expect(svgFiles()).toEqual([
      "sample-instructions.svg",
      "sample-latency.svg",
      "sample-memory.svg",
      "sample-throughput.svg",
    ]);
    const markdown = readFileSync(join(out, "sample.md"), "utf8");
    const embedded = [...markdown.matchAll(/!\[[^\]]+\]\(([^)]+\.svg)\)/g)].map((m) => m[1]).sort();
    expect(embedded).toEqual(svgFiles());
    // The committed report and charts are what the generator makes of the committed data.
    expect(markdown).toBe(readFileSync(join(RESULTS, "sample.md"), "utf8"));
    for (const file of svgFiles())
      expect(readFileSync(join(out, file), "utf8"), file).toBe(readFileSync(join(RESULTS, file), "utf8"));
    // The data is read, never written.
    expect(readFileSync(join(out, "sample.json"), "utf8")).toBe(
      readFileSync(join(RESULTS, "sample.json"), "utf8"),
    );
  });

  it("are well-formed SVG with one bar per implementation measured per scenario, labelled with the scenario", () => {
    const panelled = new Set<string>();
    for (const file of svgFiles()) {
      const root = parseXml(readFileSync(join(out, file), "utf8"));
      expect(root.name).toBe("svg");
      expect(root.attrs.xmlns).toBe("http://www.w3.org/2000/svg");
      const legend = byClass(root, "legend").map(textOf);
      const panels = byClass(root, "panel");
      expect(panels.length, file).toBeGreaterThan(0);
      for (const panel of panels) {
        const id = panel.attrs["data-panel"] as string;
        const title = textOf(byClass(panel, "panel-title")[0] as XmlElement);
        const subtitle = textOf(byClass(panel, "panel-subtitle")[0] as XmlElement);
        let expected: { series: string; value: number }[];
        if (file === "sample-instructions.svg") {
          expect(title).toBe(`instructions: ${id.replace("-", " ")}`);
          expected = charted.flatMap((v) => {
            const run = sample.runs.find((r) => r.scenario === "instructions" && r.variant === v.id && r.ok);
            return run?.metrics?.[id] ? [{ series: v.id, value: run.metrics[id] }] : [];
          });
        } else {
          expect(title.startsWith(`${id}: `), title).toBe(true);
          panelled.add(id);
          const scenario = sample.scenarios.find((s) => s.id === id);
          const metric = scenario?.metrics.find((m) => subtitle.startsWith(`${m.label},`));
          expect(metric, `${file} ${id}: ${subtitle}`).toBeDefined();
          expected = charted.flatMap((v) => {
            const s = sample.summary[id]?.[v.id]?.[metric?.key as string];
            return s ? [{ series: v.id, value: s.median }] : [];
          });
        }
        const bars = byClass(panel, "bar");
        expect(
          bars.map((b) => b.attrs["data-series"]),
          `${file} ${id}`,
        ).toEqual(expected.map((e) => e.series));
        // Bar lengths in proportion to the values, on the panel's own axis (to the SVG's 0.1 px).
        const widths = bars.map((b) => Number(b.attrs.width));
        const longest = widths.indexOf(Math.max(...widths));
        const perUnit = (widths[longest] as number) / (expected[longest]?.value as number);
        for (const [i, e] of expected.entries()) {
          expect(
            Math.abs((widths[i] as number) - e.value * perUnit),
            `${file} ${id} ${e.series}`,
          ).toBeLessThan(0.2);
          expect(legend).toContain(charted.find((v) => v.id === e.series)?.label);
        }
      }
    }
    // Every scenario measured against the floor has a panel somewhere.
    const withFloor = sample.scenarios.filter((s) => sample.summary[s.id]?.floor).map((s) => s.id);
    expect([...panelled].sort()).toEqual(withFloor.sort());
  });

  it("render in headless Chromium", async (ctx) => {
    ctx.skip(!hasChromium, `${CHROMIUM} is not installed (apt-get install chromium)`);
    for (const file of svgFiles()) {
      const svg = parseXml(readFileSync(join(out, file), "utf8"));
      const [width, height] = [Number(svg.attrs.width), Number(svg.attrs.height)];
      const png = join(out, `${file}.png`);
      await render(join(out, file), png, width, height);
      const { width: w, height: h, rgba } = decodePng(readFileSync(png));
      expect([w, h], file).toEqual([width, height]);
      // Not blank: ink on a white page, and every series' bars in their colour.
      let ink = 0;
      const seen = new Map<string, number>();
      for (let p = 0; p < w * h; p++) {
        const [r, g, b] = [rgba[p * 4], rgba[p * 4 + 1], rgba[p * 4 + 2]] as number[];
        if (r !== 255 || g !== 255 || b !== 255) ink++;
        const hex = `#${[r, g, b].map((c) => (c as number).toString(16).padStart(2, "0")).join("")}`;
        seen.set(hex, (seen.get(hex) ?? 0) + 1);
      }
      expect(ink / (w * h), file).toBeGreaterThan(0.02);
      expect(ink / (w * h), file).toBeLessThan(0.6);
      for (const colour of new Set(byClass(svg, "bar").map((b) => (b.attrs.fill as string).toLowerCase())))
        expect(seen.get(colour) ?? 0, `${file}: pixels of ${colour}`).toBeGreaterThan(100);
    }
  }, 300_000);
});

/** A screenshot of the SVG at its own size, by a headless Chromium with a profile of its own. */
function render(svg: string, png: string, width: number, height: number): Promise<void> {
  const profile = mkdtempSync(join(out, "chromium-"));
  const child = spawn(
    CHROMIUM,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--hide-scrollbars",
      `--user-data-dir=${profile}`,
      `--window-size=${width},${height}`,
      `--screenshot=${png}`,
      `file://${svg}`,
    ],
    // Its own process group, so that a Chromium that hangs goes with its helpers.
    { stdio: ["ignore", "ignore", "pipe"], detached: true },
  );
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  // A bound for a loaded machine, not a timing assertion.
  const timer = setTimeout(() => process.kill(-(child.pid as number), "SIGKILL"), 120_000);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0 && existsSync(png)) resolve();
      else reject(new Error(`chromium exited with ${code ?? signal} and no ${png}: ${stderr}`));
    });
  });
}
