/**
 * Serializing around a `_meta` that never changes. In the stateless revision every request carries
 * the client's identity in `params._meta` and every result the server's in `result._meta`: the same
 * object each time, which would otherwise be serialized again for each message.
 */

/** Returns the object it is given from `super()`, so that a subclass adds its fields to that object. */
class Stamp {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the point of the class
    return target;
  }
}

/**
 * The JSON of a kept `_meta`, in a private field of the `_meta` object itself: serializing,
 * spreading and listing keys never see it, and a copy made with a spread has none. Kept in a
 * `WeakMap`, each request's copy with its progress token cost an entry that every young collection
 * had to walk.
 */
class KeptJson extends Stamp {
  readonly #json: string;
  private constructor(target: object, json: string) {
    super(target);
    this.#json = json;
  }
  /** Keeps `json` with `target` (before it is frozen: a frozen object takes no new fields). */
  static keep<T extends object>(target: T, json: string): T {
    new KeptJson(target, json);
    return target;
  }
  /** The JSON kept with `value`, if it is a kept `_meta`. */
  static of(value: unknown): string | undefined {
    return typeof value === "object" && value !== null && #json in value
      ? (value as KeptJson).#json
      : undefined;
  }
}

/** Freezes `value` and everything in it, however deep (a loop, not recursion). */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== "object" || next === null || Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const key in next) stack.push((next as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * A deep-frozen copy of `value` (a JSON value) whose JSON is kept: a message that carries it as
 * its `params._meta` or `result._meta` is serialized with that JSON instead of walking it again.
 */
export function fixedJson<T extends object>(value: T): Readonly<T> {
  const json = JSON.stringify(value);
  return deepFreeze(KeptJson.keep(JSON.parse(json) as T, json));
}

/**
 * `meta` with a request's `progressToken`, frozen like `meta`. When `meta` was made by
 * `fixedJson`, the copy's JSON is its JSON with the token added, not walked again.
 */
export function withProgressToken(
  meta: Readonly<Record<string, unknown>>,
  token: string | number,
): Readonly<Record<string, unknown>> {
  const fixed = KeptJson.of(meta);
  const copy = { ...meta, progressToken: token };
  if (fixed === undefined || Object.hasOwn(meta, "progressToken")) return copy;
  const member = `"progressToken":${typeof token === "number" ? token : JSON.stringify(token)}}`;
  return Object.freeze(
    KeptJson.keep(copy, fixed === "{}" ? `{${member}` : `${fixed.slice(0, -1)},${member}`),
  );
}

/**
 * A JSON-RPC message as JSON: `JSON.stringify(message)`, with a `_meta` made by `fixedJson` spliced
 * in as already-serialized text when the rest is short. Member order aside, the text is the same.
 */
export function messageJson(message: object): string {
  // The body must be the message's last member, so that its closing brace is the text's last but one.
  let last: string | undefined;
  for (const key in message) last = key;
  if (last !== "params" && last !== "result") return JSON.stringify(message);
  const body = (message as Record<string, unknown>)[last];
  if (typeof body !== "object" || body === null) return JSON.stringify(message);
  const meta = (body as Record<string, unknown>)._meta;
  const fixed = KeptJson.of(meta);
  // Splicing cuts the text, which copies it: for a long message that costs more than it saves.
  if (
    fixed === undefined ||
    typeof (body as { toJSON?: unknown }).toJSON === "function" ||
    !surelyShort(body)
  ) {
    return JSON.stringify(message);
  }
  try {
    (body as Record<string, unknown>)._meta = undefined;
  } catch {
    // A frozen body cannot lend its _meta for the time of the stringify.
    return JSON.stringify(message);
  }
  let text: string;
  try {
    text = JSON.stringify(message);
  } finally {
    (body as Record<string, unknown>)._meta = meta;
  }
  const head = text.slice(0, -2);
  // `{}}`: nothing but _meta in the body.
  return text.charCodeAt(text.length - 3) === 123
    ? `${head}"_meta":${fixed}}}`
    : `${head},"_meta":${fixed}}}`;
}

/** The JSON length under which splicing pays, and the most values looked at to tell. */
const SHORT = 1024;
const LOOKS = 32;
let looks = 0;
let room = 0;

/** Whether a body's JSON, but for its `_meta`, is surely shorter than `SHORT`, from a look at a few of its values. */
function surelyShort(body: object): boolean {
  looks = LOOKS;
  room = SHORT;
  for (const key in body) {
    if (key !== "_meta" && !fits((body as Record<string, unknown>)[key])) return false;
  }
  return true;
}

function fits(value: unknown): boolean {
  if (typeof value !== "object" || value === null) {
    room -= typeof value === "string" ? value.length + 2 : 24;
    return room > 0;
  }
  if (--looks < 0) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!fits(value[i])) return false;
    return true;
  }
  for (const key in value) {
    room -= key.length + 4;
    if (!fits((value as Record<string, unknown>)[key])) return false;
  }
  return room > 0;
}
