/**
 * `new Date(ms).toISOString()`, cheaper where it repeats: V8 formats a date through `snprintf`,
 * several thousand instructions each time, and a task's answers format its two times on every
 * poll. The last two times formatted are kept (a task's `createdAt` and `lastUpdatedAt`), and the
 * years 0000–9999 are formatted here, field by field.
 */
let lastMs = Number.NaN;
let lastText = "";
let otherMs = Number.NaN;
let otherText = "";

export function isoTime(ms: number): string {
  if (ms === lastMs) return lastText;
  if (ms === otherMs) return otherText;
  const text = format(ms);
  otherMs = lastMs;
  otherText = lastText;
  lastMs = ms;
  lastText = text;
  return text;
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

function format(ms: number): string {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  // Invalid dates throw and expanded years (±YYYYYY) are written by V8, as before.
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  const milli = `${date.getUTCMilliseconds()}`.padStart(3, "0");
  return `${`${year}`.padStart(4, "0")}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${milli}Z`;
}
