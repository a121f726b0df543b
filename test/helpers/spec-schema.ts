/**
 * Test helper: checks every JSON-RPC message an MCP peer emits against the official JSON Schema of the
 * negotiated protocol revision (`<revision>/schema.json` in {@link SPEC_DIR}: `$MCP_SPEC_DIR`, else
 * `<repo root>/../shared/spec/`). Where that folder is absent, checks find no problems, and the run says
 * once that they were skipped (spec-schema-location.ts).
 *
 *   const checker = new SpecChecker("2025-11-25");
 *   checker.check(request, "client");   // [] when valid, else human-readable problems
 *   checker.check(response, "server");  // result validated against the definition for the request's method
 *
 *   const log = new MessageLog();
 *   log.record("client", msg); ...
 *   expect(log.problems("2025-11-25")).toEqual([]);
 *
 * `direction` is always the side that SENDS the message ("server" for responses to client requests).
 *
 * Notes on the schemas (they differ per revision, everything here is derived from schema.json itself):
 * - 2024-11-05 … 2025-06-18 are draft-07 (`definitions`), 2025-11-25 and later draft 2020-12 (`$defs`).
 * - Envelope definitions: `JSONRPCResponse`/`JSONRPCError` up to 2025-06-18, then `JSONRPCResultResponse`/
 *   `JSONRPCErrorResponse` (where `JSONRPCResponse` becomes the union of both and the error `id` is optional).
 * - 2025-03-26 alone defines JSON-RPC batches (`JSONRPCBatchRequest`/`JSONRPCBatchResponse`).
 * - Up to 2025-06-18 the per-method request definitions carry only `method`/`params`; from 2025-11-25 they
 *   also carry `jsonrpc`/`id`. Either way the whole message is validated against them.
 * - 2026-07-28 has no `ServerRequest` union: sampling/roots/elicitation requests only travel inside an
 *   `InputRequiredResult`'s `inputRequests`. Its `ClientNotification` is not a union but the inlined
 *   `CancelledNotification`. Every result requires `resultType`, and `<X>ResultResponse` definitions say
 *   which result a method returns (some allow `InputRequiredResult` instead, chosen by
 *   `resultType: "input_required"`).
 * - No definition uses `additionalProperties: false`, so misspelled/extra fields are never reported.
 */
import { readdirSync, readFileSync } from "node:fs";
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { SPEC_DIR, specSchemasAvailable } from "./spec-schema-location.js";

export { SPEC_DIR, specSchemasAvailable } from "./spec-schema-location.js";

export type Direction = "client" | "server";

/** Revisions that have a `schema.json` in {@link SPEC_DIR}. */
export function specRevisions(): string[] {
  try {
    return readdirSync(SPEC_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory() && /^\d{4}-\d{2}-\d{2}$/.test(d.name))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

type SchemaNode = Record<string, unknown>;

/** A definition that a message or result is validated against. */
interface DefRef {
  /** Human-readable name, e.g. "CallToolRequest". */
  name: string;
  /** JSON pointer into schema.json, e.g. "/$defs/CallToolRequest". */
  pointer: string;
}

interface ResultSpec {
  /** Definition of the (complete) result; undefined when the schema names none. */
  result: DefRef | undefined;
  /** 2026-07-28+: the method may answer with an InputRequiredResult instead. */
  inputRequired: DefRef | undefined;
}

interface SideMethods {
  /** undefined when the revision has no such union at all. */
  requests: Map<string, DefRef> | undefined;
  notifications: Map<string, DefRef> | undefined;
  requestUnion: string;
  notificationUnion: string;
}

interface Envelope {
  request: DefRef;
  notification: DefRef;
  result: DefRef;
  error: DefRef;
  batchRequest: DefRef | undefined;
  batchResponse: DefRef | undefined;
}

/** Everything compiled for one revision; built once per process. */
class Revision {
  readonly ajv: Ajv | Ajv2020;
  readonly root: SchemaNode;
  readonly defsKey: "definitions" | "$defs";
  readonly defs: Record<string, SchemaNode>;
  readonly envelope: Envelope;
  readonly sides: Record<Direction, SideMethods>;
  /** Methods carried inside InputRequiredResult.inputRequests (2026-07-28+). */
  readonly inputRequestMethods: Set<string>;
  readonly taskResult: DefRef | undefined;
  private readonly results = new Map<string, ResultSpec>();
  private readonly full = new Map<string, ValidateFunction>();
  private readonly shallow = new Map<string, ValidateFunction | null>();
  private readonly key: string;

  constructor(readonly name: string) {
    const file = `${SPEC_DIR}${name}/schema.json`;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      const known = specRevisions();
      throw new Error(
        `no MCP schema for revision "${name}" (looked for ${file}); known: ${known.join(", ") || "none"}`,
      );
    }
    this.root = JSON.parse(text) as SchemaNode;
    const draft = String(this.root.$schema ?? "");
    const options: Options = {
      strict: false,
      allErrors: true,
      verbose: true, // errors carry the offending data, for "(got …)"
      // Lenient format checks: catch obviously wrong values, nothing fancy.
      formats: {
        byte: /^[A-Za-z0-9+/]*={0,2}$/,
        uri: /^[A-Za-z][A-Za-z0-9+.-]*:/,
        "uri-template": true,
      },
    };
    if (draft.includes("2020-12")) this.ajv = new Ajv2020(options);
    else if (draft.includes("draft-07") || draft === "") this.ajv = new Ajv(options);
    else throw new Error(`${file}: unsupported $schema ${draft}`);
    this.key = `mcp-${name}`;
    this.ajv.addSchema(this.root, this.key);

    this.defsKey = this.root.$defs !== undefined ? "$defs" : "definitions";
    this.defs = (this.root[this.defsKey] ?? {}) as Record<string, SchemaNode>;

    const need = (...names: string[]): DefRef => {
      const def = this.optional(...names);
      if (!def) throw new Error(`${file}: none of ${names.join(", ")} is defined`);
      return def;
    };
    this.envelope = {
      request: need("JSONRPCRequest"),
      notification: need("JSONRPCNotification"),
      // From 2025-11-25 JSONRPCResponse is the union of result and error responses.
      result: need("JSONRPCResultResponse", "JSONRPCResponse"),
      error: need("JSONRPCErrorResponse", "JSONRPCError"),
      batchRequest: this.optional("JSONRPCBatchRequest"),
      batchResponse: this.optional("JSONRPCBatchResponse"),
    };
    this.sides = {
      client: this.side("ClientRequest", "ClientNotification"),
      server: this.side("ServerRequest", "ServerNotification"),
    };
    this.inputRequestMethods = new Set(
      this.defs.InputRequest ? this.unionMembers("InputRequest").keys() : [],
    );
    this.taskResult = this.optional("CreateTaskResult");
    for (const side of Object.values(this.sides)) {
      for (const [method, def] of side.requests ?? []) {
        if (!this.results.has(method)) this.results.set(method, this.deriveResult(method, def));
      }
    }
  }

  ref(name: string): DefRef {
    return { name, pointer: `/${this.defsKey}/${escapeSegment(name)}` };
  }

  optional(...names: string[]): DefRef | undefined {
    const name = names.find((n) => this.defs[n] !== undefined);
    return name === undefined ? undefined : this.ref(name);
  }

  resultFor(method: string): ResultSpec | undefined {
    return this.results.get(method);
  }

  private side(requestUnion: string, notificationUnion: string): SideMethods {
    return {
      requests: this.defs[requestUnion] ? this.unionMembers(requestUnion) : undefined,
      notifications: this.defs[notificationUnion] ? this.unionMembers(notificationUnion) : undefined,
      requestUnion,
      notificationUnion,
    };
  }

  /**
   * method → definition for a union such as ClientRequest. Usually `anyOf` of `$ref`s, but a single-member
   * union may be a plain `$ref` or even the member inlined (2026-07-28 ClientNotification).
   */
  private unionMembers(union: string): Map<string, DefRef> {
    const out = new Map<string, DefRef>();
    const visit = (node: SchemaNode, pointer: string, name: string): void => {
      if (typeof node.$ref === "string") {
        const target = refPointer(node.$ref);
        visit(this.resolve(target), target, lastSegment(target));
      } else if (Array.isArray(node.anyOf)) {
        node.anyOf.forEach((_, i) => {
          const p = `${pointer}/anyOf/${i}`;
          visit(this.resolve(p), p, name);
        });
      } else {
        const method = constOf(node, "method");
        // An inlined member (pointer is the union itself) gets the name of the definition it copies.
        const label = name === union ? this.nameOf(node, name) : name;
        if (typeof method === "string") out.set(method, { name: label, pointer });
      }
    };
    const def = this.ref(union);
    visit(this.resolve(def.pointer), def.pointer, union);
    return out;
  }

  /** Name of the definition whose content equals `node` (for inlined union members). */
  private nameOf(node: SchemaNode, fallback: string): string {
    const json = JSON.stringify(node);
    for (const [name, def] of Object.entries(this.defs)) {
      if (def !== node && JSON.stringify(def) === json) return name;
    }
    return fallback;
  }

  /**
   * The result a request method returns, derived from the schema: `<X>ResultResponse.result` where it exists
   * (2026-07-28+), else `<X>Result` for request definition `<X>Request`, else EmptyResult for the methods
   * whose result is defined as empty (ping, logging/setLevel, resources/subscribe|unsubscribe).
   */
  private deriveResult(method: string, request: DefRef): ResultSpec {
    const base = request.name.replace(/Request$/, "");
    const response = this.defs[`${base}ResultResponse`];
    if (response) {
      const resultNode = (response.properties as SchemaNode | undefined)?.result as SchemaNode | undefined;
      const names = refNames(resultNode);
      const complete = names.filter((n) => n !== "InputRequiredResult");
      return {
        result: complete.length === 1 ? this.ref(complete[0]!) : undefined,
        inputRequired: names.includes("InputRequiredResult") ? this.ref("InputRequiredResult") : undefined,
      };
    }
    const direct = this.optional(`${base}Result`);
    if (direct) return { result: direct, inputRequired: undefined };
    if (EMPTY_RESULT_METHODS.has(method)) {
      return { result: this.optional("EmptyResult", "Result"), inputRequired: undefined };
    }
    return { result: undefined, inputRequired: undefined };
  }

  /** The raw schema node at a JSON pointer. */
  resolve(pointer: string): SchemaNode {
    let node: unknown = this.root;
    for (const seg of pointer.split("/").slice(1)) {
      node = (node as Record<string, unknown> | undefined)?.[unescapeSegment(seg)];
    }
    if (node === undefined || node === null || typeof node !== "object") {
      throw new Error(`${this.name}: nothing at ${pointer}`);
    }
    return node as SchemaNode;
  }

  validator(pointer: string): ValidateFunction {
    let v = this.full.get(pointer);
    if (!v) {
      const ref = `${this.key}#${pointer
        .split("/")
        .map((s) => encodeURIComponent(s))
        .join("/")}`;
      v = this.ajv.getSchema(ref);
      if (!v) throw new Error(`${this.name}: cannot compile ${pointer}`);
      this.full.set(pointer, v);
    }
    return v;
  }

  /** A validator for the node's own keywords only (no $ref/anyOf/allOf/children), or null if it has none. */
  shallowValidator(pointer: string): ValidateFunction | null {
    let v = this.shallow.get(pointer);
    if (v === undefined) {
      const node = this.resolve(pointer);
      const own: SchemaNode = {};
      for (const k of SHALLOW_KEYWORDS) if (node[k] !== undefined) own[k] = node[k];
      if (node.additionalProperties === false) {
        own.additionalProperties = false;
        own.properties = Object.fromEntries(
          Object.keys((node.properties as SchemaNode) ?? {}).map((k) => [k, {}]),
        );
      }
      v = Object.keys(own).length === 0 ? null : this.ajv.compile(own);
      this.shallow.set(pointer, v);
    }
    return v;
  }

  /** Readable problems of `value` against the node at `pointer`; [] when valid. */
  explain(pointer: string, value: unknown, path: string, depth = 0): string[] {
    const validate = this.validator(pointer);
    if (passes(validate, value)) return [];
    if (depth > 64) return formatErrors(validate.errors, path);
    const node = this.resolve(pointer);
    const out: string[] = [];

    const own = this.shallowValidator(pointer);
    if (own && !passes(own, value)) out.push(...formatErrors(own.errors, path));

    if (typeof node.$ref === "string")
      out.push(...this.explain(refPointer(node.$ref), value, path, depth + 1));
    if (Array.isArray(node.allOf)) {
      node.allOf.forEach((_, i) => {
        out.push(...this.explain(`${pointer}/allOf/${i}`, value, path, depth + 1));
      });
    }
    if (Array.isArray(node.anyOf)) out.push(...this.explainAnyOf(pointer, node.anyOf, value, path, depth));

    const props = node.properties as Record<string, unknown> | undefined;
    const extra = node.additionalProperties;
    if (isObject(value)) {
      for (const [k, v] of Object.entries(value)) {
        const childPath = `${path}/${escapeSegment(k)}`;
        if (props && Object.hasOwn(props, k)) {
          out.push(...this.explain(`${pointer}/properties/${escapeSegment(k)}`, v, childPath, depth + 1));
        } else if (isObject(extra) && Object.keys(extra).length > 0) {
          out.push(...this.explain(`${pointer}/additionalProperties`, v, childPath, depth + 1));
        }
      }
    }
    if (Array.isArray(value) && isObject(node.items)) {
      value.forEach((item, i) => {
        out.push(...this.explain(`${pointer}/items`, item, `${path}/${i}`, depth + 1));
      });
    }
    // Keywords this walker does not descend into: fall back to ajv's own report.
    return out.length > 0 ? dedupe(out) : formatErrors(validate.errors, path);
  }

  private explainAnyOf(pointer: string, branches: unknown[], value: unknown, path: string, depth: number) {
    const all = branches.map((b, i) => ({
      pointer: `${pointer}/anyOf/${i}`,
      label: this.label(b as SchemaNode, i),
    }));
    // Discriminate by `const` properties (type, method, …) and JSON type, like a human reader would.
    const candidates = all.filter((b) => this.compatible(this.resolve(b.pointer), value));
    if (candidates.length === 1) return this.explain(candidates[0]!.pointer, value, path, depth + 1);
    const labels = all.map((b) => b.label).join(" | ");
    if (candidates.length === 0) {
      const tag = discriminatorHint(value);
      return [`${at(path)}: ${tag}matches none of ${labels}`];
    }
    // Several plausible branches: report the closest one (most of the value's keys known, then fewest errors).
    let best = candidates[0]!;
    let bestScore = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
    for (const c of candidates) {
      const v = this.validator(c.pointer);
      const errors = passes(v, value) ? 0 : (v.errors?.length ?? 1);
      const known = this.propertyNames(this.resolve(c.pointer));
      const overlap = isObject(value) ? Object.keys(value).filter((k) => known.has(k)).length : 0;
      const score = [overlap, -errors];
      if (score[0]! > bestScore[0]! || (score[0] === bestScore[0] && score[1]! > bestScore[1]!)) {
        best = c;
        bestScore = score;
      }
    }
    return [
      `${at(path)}: matches none of ${labels}; closest is ${best.label}, which says:`,
      ...this.explain(best.pointer, value, path, depth + 1),
    ];
  }

  /** Property names a node declares, through $ref and allOf. */
  private propertyNames(node: SchemaNode, depth = 0): Set<string> {
    const names = new Set(Object.keys((node.properties as SchemaNode | undefined) ?? {}));
    if (depth > 16) return names;
    const parts: SchemaNode[] = [];
    if (typeof node.$ref === "string") parts.push(this.resolve(refPointer(node.$ref)));
    if (Array.isArray(node.allOf)) parts.push(...(node.allOf as SchemaNode[]));
    for (const part of parts) for (const n of this.propertyNames(part, depth + 1)) names.add(n);
    return names;
  }

  /** Could `value` be meant as an instance of this branch? (consts and JSON type agree) */
  private compatible(node: SchemaNode, value: unknown, depth = 0): boolean {
    if (depth > 16) return true;
    if (
      typeof node.$ref === "string" &&
      !this.compatible(this.resolve(refPointer(node.$ref)), value, depth + 1)
    ) {
      return false;
    }
    if (
      Array.isArray(node.allOf) &&
      !node.allOf.every((n) => this.compatible(n as SchemaNode, value, depth + 1))
    ) {
      return false;
    }
    if (node.type !== undefined && !typeMatches(node.type, value)) return false;
    if (node.const !== undefined && node.const !== value) return false;
    const props = node.properties as Record<string, SchemaNode> | undefined;
    if (props && isObject(value)) {
      for (const [k, sub] of Object.entries(props)) {
        if (isObject(sub) && sub.const !== undefined && k in value && value[k] !== sub.const) return false;
      }
    }
    return true;
  }

  private label(branch: SchemaNode, i: number): string {
    if (typeof branch.$ref === "string") return lastSegment(refPointer(branch.$ref));
    const props = branch.properties as Record<string, SchemaNode> | undefined;
    for (const k of ["type", "method"]) {
      const c = props?.[k]?.const;
      if (c !== undefined) return `{${k}: ${JSON.stringify(c)}}`;
    }
    if (typeof branch.type === "string") return branch.type;
    return `#${i}`;
  }
}

/** Methods whose result is EmptyResult (the schema has no `<X>Result` for them). */
const EMPTY_RESULT_METHODS = new Set([
  "ping",
  "logging/setLevel",
  "resources/subscribe",
  "resources/unsubscribe",
]);

const SHALLOW_KEYWORDS = [
  "type",
  "const",
  "enum",
  "required",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "pattern",
  "format",
];

/** Compiled revisions, shared by every SpecChecker in the process (compiling is slow). */
const revisions = new Map<string, Revision>();

function loadRevision(name: string): Revision {
  let rev = revisions.get(name);
  if (!rev) {
    rev = new Revision(name);
    revisions.set(name, rev);
  }
  return rev;
}

interface Pending {
  method: string;
  params: unknown;
}

/**
 * Validates a conversation, one message at a time, against one revision's schema. Stateful: it remembers
 * each side's outstanding request ids so responses are checked against the right result definition.
 */
export class SpecChecker {
  readonly revision: string;
  /** Unset when the spec schemas are absent: then nothing is checked. */
  private readonly rev!: Revision;
  /** Outstanding requests by the side that sent them, keyed by JSON of the id (1 and "1" differ). */
  private readonly pending: Record<Direction, Map<string, Pending>> = {
    client: new Map(),
    server: new Map(),
  };

  constructor(revision: string) {
    this.revision = revision;
    if (specSchemasAvailable) this.rev = loadRevision(revision);
  }

  /** Problems with `message` sent by `direction`; [] when it conforms or the spec schemas are absent. */
  check(message: unknown, direction: Direction): string[] {
    if (direction !== "client" && direction !== "server") {
      throw new Error(`direction must be "client" or "server", got ${String(direction)}`);
    }
    if (!specSchemasAvailable) return [];
    if (Array.isArray(message)) return this.checkBatch(message, direction);
    return this.checkOne(message, direction);
  }

  /** Requests sent by `direction` that have not been answered yet. */
  outstanding(direction: Direction): { id: string; method: string }[] {
    return [...this.pending[direction]].map(([id, p]) => ({ id, method: p.method }));
  }

  private checkBatch(batch: unknown[], direction: Direction): string[] {
    const { batchRequest, batchResponse } = this.rev.envelope;
    const out: string[] = [];
    if (!batchRequest || !batchResponse) {
      out.push(`JSON-RPC batches are not part of ${this.revision}`);
    } else if (batch.length === 0) {
      out.push("empty JSON-RPC batch");
    } else if (
      !passes(this.rev.validator(batchRequest.pointer), batch) &&
      !passes(this.rev.validator(batchResponse.pointer), batch)
    ) {
      out.push(
        `batch must hold only requests/notifications (${batchRequest.name}) or only responses (${batchResponse.name})`,
      );
    }
    batch.forEach((m, i) => {
      for (const p of this.checkOne(m, direction)) out.push(`[${i}] ${p}`);
    });
    return out;
  }

  private checkOne(message: unknown, direction: Direction): string[] {
    if (!isObject(message)) return [`not a JSON-RPC message: expected an object, got ${jsonType(message)}`];
    const has = (k: string) => Object.hasOwn(message, k) && message[k] !== undefined;
    const env = this.rev.envelope;
    if (has("method")) {
      const out: string[] = [];
      if (has("result") || has("error")) out.push("message has both a method and a result/error");
      const isRequest = has("id");
      const envelope = isRequest ? env.request : env.notification;
      out.push(...this.validate(envelope, message, ""));
      if (typeof message.method !== "string") return out;
      out.push(...this.checkMethod(message, message.method, isRequest, direction));
      if (isRequest && (typeof message.id === "string" || typeof message.id === "number")) {
        const key = JSON.stringify(message.id);
        const prior = this.pending[direction].get(key);
        if (prior) {
          out.push(`request id ${key} is already used by an unanswered ${direction} ${prior.method} request`);
        }
        this.pending[direction].set(key, { method: message.method, params: message.params });
      }
      return out;
    }
    if (has("result") && has("error")) return ["response has both result and error"];
    if (has("error")) {
      const out = this.validate(env.error, message, "");
      // An error may answer a request that could not be parsed: no id (or null) is fine then.
      if (message.id !== undefined && message.id !== null) {
        const key = JSON.stringify(message.id);
        const requester = other(direction);
        if (!this.pending[requester].delete(key)) {
          out.push(`error response to id ${key}, which no ${requester} request is waiting for`);
        }
      }
      return out;
    }
    if (has("result")) {
      const envelope = this.rev.explain(env.result.pointer, message, "");
      const key = JSON.stringify(message.id);
      const requester = other(direction);
      const request = this.pending[requester].get(key);
      if (!request) {
        return [
          ...envelope.map((p) => `${env.result.name} ${p}`),
          `response to id ${key}, which no ${requester} request is waiting for`,
        ];
      }
      this.pending[requester].delete(key);
      const result = this.checkResult(request, message.result);
      // The envelope's generic Result check repeats what the specific result definition says; keep one.
      const seen = new Set(result.raw);
      return [
        ...envelope.filter((p) => !seen.has(p)).map((p) => `${env.result.name} ${p}`),
        ...result.raw.map((p) => `${result.label} ${p}`),
      ];
    }
    return ["not a JSON-RPC message: no method, result or error"];
  }

  private checkMethod(
    message: Record<string, unknown>,
    method: string,
    isRequest: boolean,
    direction: Direction,
  ): string[] {
    const side = this.rev.sides[direction];
    const kind = isRequest ? "request" : "notification";
    const members = isRequest ? side.requests : side.notifications;
    const def = members?.get(method);
    if (def) return this.validate(def, message, "");

    let problem = `method ${method} is not a ${direction} ${kind} in ${this.revision}`;
    const hints: string[] = [];
    if (!members)
      hints.push(`this revision defines no ${isRequest ? side.requestUnion : side.notificationUnion}`);
    const otherSide = this.rev.sides[other(direction)];
    if ((isRequest ? otherSide.requests : otherSide.notifications)?.has(method)) {
      hints.push(`it is a ${other(direction)} ${kind}`);
    }
    if ((isRequest ? side.notifications : side.requests)?.has(method)) {
      hints.push(`it is a ${direction} ${isRequest ? "notification (no id)" : "request (needs an id)"}`);
    }
    if (this.rev.inputRequestMethods.has(method)) {
      hints.push("it is only sent inside an InputRequiredResult's inputRequests");
    }
    if (hints.length > 0) problem += ` (${hints.join("; ")})`;
    return [problem];
  }

  /** Problems (unlabelled) of a result, and the label naming the definition it was checked against. */
  private checkResult(request: Pending, result: unknown): { label: string; raw: string[] } {
    const rev = this.rev;
    const spec = rev.resultFor(request.method);
    const params = request.params;
    let def: DefRef | undefined;
    let what = `${request.method} result`;
    if (rev.taskResult && isObject(params) && params.task !== undefined) {
      // 2025-11-25: a task-augmented request (params.task) is answered with a CreateTaskResult.
      def = rev.taskResult;
      what = `${request.method} (task-augmented) result`;
    } else if (spec?.inputRequired && isObject(result) && result.resultType === "input_required") {
      // 2026-07-28: resultType "input_required" selects InputRequiredResult where the method allows it.
      // (The schema's anyOf would accept any result with a resultType as an InputRequiredResult.)
      def = spec.inputRequired;
    } else {
      // No specific definition: the request was already reported (unknown method) or the schema names none.
      def = spec?.result ?? rev.optional("Result");
    }
    if (!def) return { label: what, raw: [] };
    return { label: `${what} (${def.name})`, raw: rev.explain(def.pointer, result, "/result") };
  }

  private validate(def: DefRef, value: unknown, path: string, what?: string): string[] {
    const label = what ? `${what} (${def.name})` : def.name;
    return this.rev.explain(def.pointer, value, path).map((p) => `${label} ${p}`);
  }
}

export interface LoggedMessage {
  direction: Direction;
  message: unknown;
}

/** Records a conversation (e.g. from a transport tap) and checks it afterwards. */
export class MessageLog {
  readonly entries: LoggedMessage[] = [];

  /** Stores a JSON copy of `message` (what the peer would see), or the value itself if it is not JSON. */
  record(direction: Direction, message: unknown): void {
    let copy: unknown = message;
    try {
      copy = JSON.parse(JSON.stringify(message));
    } catch {
      // keep the original
    }
    this.entries.push({ direction, message: copy });
  }

  clear(): void {
    this.entries.length = 0;
  }

  /** Replays every recorded message through a fresh SpecChecker; each problem names its message. */
  problems(revision: string): string[] {
    const checker = new SpecChecker(revision);
    const probe = revision === "2026-07-28" ? undefined : new SpecChecker("2026-07-28");
    const probeIds = new Set<unknown>();
    const out: string[] = [];
    this.entries.forEach(({ direction, message }, i) => {
      // A dual-era client probes with server/discover before falling back to the handshake: that
      // exchange belongs to 2026-07-28, so it is checked against that schema (its error reply only
      // by envelope, which both revisions share).
      const m = message as { method?: string; id?: unknown };
      const answer = m.method === undefined && direction === "server" && probeIds.delete(m.id);
      const isProbe = m.method === "server/discover" || answer;
      if (m.method === "server/discover" && direction === "client") probeIds.add(m.id);
      const problems = isProbe && probe ? probe.check(message, direction) : checker.check(message, direction);
      if (problems.length === 0) return;
      const prefix = `#${i} ${direction}→${other(direction)} ${excerpt(message)}`;
      for (const p of problems) out.push(`${prefix}: ${p}`);
    });
    return out;
  }
}

/** At most `max` characters of the message's JSON. */
export function excerpt(message: unknown, max = 300): string {
  let text: string;
  try {
    text = JSON.stringify(message) ?? String(message);
  } catch {
    text = String(message);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// ---------------------------------------------------------------------------------------------------------

function other(direction: Direction): Direction {
  return direction === "client" ? "server" : "client";
}

/** Runs a validator without letting its type predicate narrow `data` (to `never` on failure). */
function passes(validate: ValidateFunction, data: unknown): boolean {
  return validate(data) === true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMatches(type: unknown, value: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  const actual = jsonType(value);
  return types.some((t) => t === actual || (t === "number" && actual === "integer"));
}

function constOf(node: SchemaNode, prop: string): unknown {
  const props = node.properties as Record<string, SchemaNode> | undefined;
  return props?.[prop]?.const;
}

/** Names of the definitions a `$ref` or `anyOf` of `$ref`s points to. */
function refNames(node: SchemaNode | undefined): string[] {
  if (!node) return [];
  if (typeof node.$ref === "string") return [lastSegment(refPointer(node.$ref))];
  if (Array.isArray(node.anyOf)) return node.anyOf.flatMap((n) => refNames(n as SchemaNode));
  return [];
}

function refPointer(ref: string): string {
  if (!ref.startsWith("#")) throw new Error(`external $ref not supported: ${ref}`);
  return decodeURIComponent(ref.slice(1));
}

function lastSegment(pointer: string): string {
  return unescapeSegment(pointer.slice(pointer.lastIndexOf("/") + 1));
}

function escapeSegment(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

function unescapeSegment(s: string): string {
  return s.replace(/~1/g, "/").replace(/~0/g, "~");
}

function at(path: string): string {
  return path === "" ? "(message)" : path;
}

function discriminatorHint(value: unknown): string {
  if (!isObject(value)) return `${jsonType(value)} `;
  for (const k of ["type", "method"]) {
    if (typeof value[k] === "string") return `${k} ${JSON.stringify(value[k])} `;
  }
  return "";
}

function dedupe(list: string[]): string[] {
  return [...new Set(list)];
}

function formatErrors(errors: ErrorObject[] | null | undefined, path: string): string[] {
  return dedupe(
    (errors ?? [])
      .filter((e) => e.keyword !== "anyOf" && e.keyword !== "allOf")
      .map((e) => `${at(path + e.instancePath)}: ${describe(e)}`),
  );
}

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return `missing required property ${JSON.stringify(p.missingProperty)}`;
    case "type":
      return `must be ${String(p.type)} (got ${jsonType(e.data)})`;
    case "const":
      return `must be ${JSON.stringify(p.allowedValue)} (got ${excerpt(e.data, 60)})`;
    case "enum":
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")} (got ${excerpt(e.data, 60)})`;
    case "additionalProperties":
      return `unexpected property ${JSON.stringify(p.additionalProperty)}`;
    case "format":
      return `must be a valid ${String(p.format)} (got ${excerpt(e.data, 60)})`;
    default:
      return e.message ?? e.keyword;
  }
}
