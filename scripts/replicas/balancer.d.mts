export interface Balancer {
  /** The MCP endpoint's URL through the balancer. */
  readonly url: string;
  readonly port: number;
  /** The replica ports requests went to, in order. */
  readonly routed: number[];
  /** How many connections to replicas were refused. */
  readonly refused: number;
  close(): Promise<void>;
}

/**
 * Listens on `port` (0: a free one) and spreads requests round-robin over the replicas `ports()`
 * names; one that refuses a connection gets no requests for `downFor` ms (default 5 s).
 */
export function startBalancer(
  ports: () => number[],
  options?: { port?: number; path?: string; downFor?: number },
): Promise<Balancer>;
