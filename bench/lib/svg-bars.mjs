/**
 * A compact SVG writer for horizontal bar charts: a legend, then panels stacked one under the
 * other, each with its own axis (its unit and ticks), one bar per series with its value written at
 * its end, an optional min–max whisker and an optional dashed reference line. It knows nothing of
 * the bench: bench/lib/charts.mjs turns a report into the model below. Hand-written rather than a
 * charting library: the bars are simple, and the bench stays free of a dependency and of a DOM; a
 * library that renders SVG server-side could replace this module behind the same model.
 *
 * The model: `{ title, subtitle?, series: [{ id, label, color }], panels: [{ id, title, subtitle?,
 * reference?: { value, label }, rows: [{ series, value, min?, max?, text, tip? } | { series, note }] }] }`.
 */

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const INK = "#1f2328";
const MUTED = "#59636e";
const GRID = "#d8dee4";
const WIDTH = 880;
const PAD = 20;
/** The series labels' column, left of the bars. */
const LABEL_W = 170;
/** Room right of the longest bar for its value. */
const VALUE_W = 150;
const BAR_H = 16;
const ROW_H = 22;

// An explicit white page: the colours are chosen for it, and it reads the same on a dark theme.
const BACKGROUND = "#ffffff";

/** Text for XML: the five special characters as entities, and no control characters (XML 1.0 forbids them). */
export function escapeXml(text) {
  return (
    String(text)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "")
      .replace(
        /[&<>"']/g,
        (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c],
      )
  );
}

/** About how wide a text is drawn: enough to lay out a legend and shorten labels, not to measure. */
const textWidth = (text, size) => String(text).length * size * 0.58;

function shorten(text, size, width) {
  if (textWidth(text, size) <= width) return text;
  const keep = Math.max(1, Math.floor(width / (size * 0.58)) - 1);
  return `${text.slice(0, keep)}…`;
}

const compactFormat = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
/** 2.5k, 1.5M: a tick's label, with the small k the values are written with. */
const compact = (n) => compactFormat.format(n).replace("K", "k");

/** Ticks at 1, 2, 2.5 or 5 × a power of ten, about five of them, the last at or past `max`. */
export function axisTicks(max) {
  if (!(max > 0)) return [0, 1];
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
  const count = Math.ceil(max / step - 1e-9);
  return Array.from({ length: count + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

function text(x, y, content, { size = 12, fill = INK, anchor = "start", weight, style, cls, halo } = {}) {
  const attrs = [`x="${round(x)}"`, `y="${round(y)}"`, `font-size="${size}"`, `fill="${fill}"`];
  // A white outline under the glyphs keeps a value readable where a line crosses it.
  if (halo) attrs.push(`stroke="${BACKGROUND}" stroke-width="3" paint-order="stroke"`);
  if (anchor !== "start") attrs.push(`text-anchor="${anchor}"`);
  if (weight) attrs.push(`font-weight="${weight}"`);
  if (style) attrs.push(`font-style="${style}"`);
  if (cls) attrs.push(`class="${cls}"`);
  return `<text ${attrs.join(" ")}>${escapeXml(content)}</text>`;
}

const round = (n) => Math.round(n * 10) / 10;

function legend(chart, y, out) {
  const items = chart.series.map((s) => ({ label: s.label, swatch: "bar", color: s.color }));
  if (chart.panels.some((p) => p.reference))
    items.push({ label: chart.referenceLabel ?? "reference", swatch: "dash" });
  if (chart.panels.some((p) => p.rows.some((r) => Number.isFinite(r.min) && Number.isFinite(r.max))))
    items.push({ label: "min–max over the repetitions", swatch: "whisker" });
  let x = PAD;
  for (const item of items) {
    const width = 18 + textWidth(item.label, 12) + 18;
    if (x + width > WIDTH - PAD && x > PAD) {
      x = PAD;
      y += 20;
    }
    if (item.swatch === "bar")
      out.push(`<rect x="${x}" y="${y - 10}" width="12" height="12" rx="2" fill="${item.color}"/>`);
    else if (item.swatch === "dash")
      out.push(
        `<line x1="${x + 6}" y1="${y - 12}" x2="${x + 6}" y2="${y + 4}" stroke="${INK}" stroke-width="1.5" stroke-dasharray="3 2"/>`,
      );
    else
      out.push(
        `<path d="M${x} ${y - 4}h12M${x} ${y - 8}v8M${x + 12} ${y - 8}v8" stroke="${INK}" stroke-width="1.2" fill="none"/>`,
      );
    out.push(text(x + 18, y, item.label, { cls: "legend" }));
    x += width;
  }
  return y;
}

function panel(chart, p, y, out) {
  const colour = new Map(chart.series.map((s) => [s.id, s]));
  out.push(`<g class="panel" data-panel="${escapeXml(p.id)}">`);
  out.push(text(PAD, y, p.title, { size: 14, weight: "600", cls: "panel-title" }));
  if (p.subtitle) {
    y += 18;
    out.push(text(PAD, y, p.subtitle, { fill: MUTED, cls: "panel-subtitle" }));
  }
  const top = y + 12;
  const bars = p.rows.filter((r) => Number.isFinite(r.value));
  const highest = Math.max(
    0,
    ...bars.map((r) => Math.max(r.value, Number.isFinite(r.max) ? r.max : 0)),
    p.reference?.value ?? 0,
  );
  const ticks = axisTicks(highest);
  const x0 = PAD + LABEL_W;
  const span = WIDTH - PAD - VALUE_W - x0;
  const scale = (v) => (Math.max(0, v) / ticks[ticks.length - 1]) * span;
  const bottom = top + p.rows.length * ROW_H;
  // Drawn last, over the bars and the reference line.
  const values = [];
  for (const t of ticks) {
    const x = x0 + scale(t);
    out.push(
      `<line x1="${round(x)}" y1="${top - 2}" x2="${round(x)}" y2="${bottom}" stroke="${GRID}" stroke-width="1"/>`,
    );
    out.push(text(x, bottom + 14, compact(t), { size: 11, fill: MUTED, anchor: "middle" }));
  }
  p.rows.forEach((row, i) => {
    const rowY = top + i * ROW_H;
    const s = colour.get(row.series);
    const label = s?.label ?? row.series;
    out.push(
      text(x0 - 8, rowY + 12.5, shorten(label, 12, LABEL_W - 12), { anchor: "end", cls: "series-label" }),
    );
    if (!Number.isFinite(row.value)) {
      out.push(
        text(x0 + 4, rowY + 12.5, shorten(row.note ?? "not measured", 12, span + VALUE_W - 8), {
          fill: MUTED,
          style: "italic",
          cls: "note",
          halo: true,
        }),
      );
      return;
    }
    const width = scale(row.value);
    out.push(
      `<rect class="bar" data-series="${escapeXml(row.series)}" x="${x0}" y="${rowY + 1}" width="${round(width)}" height="${BAR_H}" rx="2" fill="${s?.color ?? MUTED}"><title>${escapeXml(row.tip ?? `${label}: ${row.text}`)}</title></rect>`,
    );
    let end = width;
    if (Number.isFinite(row.min) && Number.isFinite(row.max)) {
      const a = x0 + scale(row.min);
      const b = x0 + scale(row.max);
      const mid = rowY + 1 + BAR_H / 2;
      out.push(
        `<path class="whisker" d="M${round(a)} ${mid}H${round(b)}M${round(a)} ${mid - 4}v8M${round(b)} ${mid - 4}v8" stroke="${INK}" stroke-width="1.2" fill="none"/>`,
      );
      end = Math.max(end, scale(row.max));
    }
    values.push(text(x0 + end + 6, rowY + 12.5, row.text, { cls: "value", halo: true }));
  });
  if (p.reference && Number.isFinite(p.reference.value)) {
    const x = round(x0 + scale(p.reference.value));
    out.push(
      `<line class="reference" x1="${x}" y1="${top - 4}" x2="${x}" y2="${bottom + 2}" stroke="${INK}" stroke-width="1.5" stroke-dasharray="4 3"><title>${escapeXml(p.reference.label ?? "")}</title></line>`,
    );
  }
  out.push(...values, "</g>");
  return bottom + 14;
}

/** The chart as a standalone SVG document (UTF-8). */
export function renderBarChart(chart) {
  const body = [];
  let y = PAD + 14;
  body.push(text(PAD, y, chart.title, { size: 18, weight: "600", cls: "title" }));
  if (chart.subtitle) {
    y += 20;
    body.push(text(PAD, y, chart.subtitle, { size: 12, fill: MUTED, cls: "subtitle" }));
  }
  y = legend(chart, y + 28, body);
  for (const p of chart.panels) y = panel(chart, p, y + 34, body);
  const height = Math.ceil(y + PAD);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="chart-title" font-family="${escapeXml(FONT)}">`,
    `<title id="chart-title">${escapeXml(chart.title)}</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="${BACKGROUND}"/>`,
    ...body,
    "</svg>",
    "",
  ].join("\n");
}
