import type { Attributes } from "@opentelemetry/api";
import { ATTR, requestAttributes } from "./attributes.js";

/** Kinds of request remembered per transport; past them, a duration's attributes are built each time. */
const LIMIT = 256;

/**
 * The attributes of one kind of request (method, tool or prompt, protocol version, transport and
 * error type): what its duration is recorded with, built once and never changed after (the
 * metrics SDK keeps the first object of a series as its key), and the start of its spans'.
 */
export class MetricAttributeSets {
  private readonly byNetwork = new WeakMap<Attributes, Map<string, Attributes>>();

  /** The attributes a duration is recorded with. Not to be changed. */
  get(
    network: Attributes,
    method: string,
    target: string | undefined,
    version: string | undefined,
    errorType: string | undefined,
  ): Attributes {
    let known = this.byNetwork.get(network);
    if (known === undefined) {
      known = new Map();
      this.byNetwork.set(network, known);
    }
    const key =
      target === undefined && version === undefined && errorType === undefined
        ? method
        : `${method}\0${target ?? ""}\0${version ?? ""}\0${errorType ?? ""}`;
    let attributes = known.get(key);
    if (attributes === undefined) {
      attributes = this.spanAttributes(network, method, target, version);
      if (errorType !== undefined) attributes[ATTR.errorType] = errorType;
      if (known.size < LIMIT) known.set(key, attributes);
    }
    return attributes;
  }

  /** A new object of the attributes spans and durations share, for a span to add its own to. */
  spanAttributes(
    network: Attributes,
    method: string,
    target: string | undefined,
    version: string | undefined,
  ): Attributes {
    const attributes = requestAttributes(method, target);
    if (version !== undefined) attributes[ATTR.protocolVersion] = version;
    for (const name in network) attributes[name] = network[name];
    return attributes;
  }
}
