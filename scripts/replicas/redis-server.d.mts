export interface RedisProcess {
  readonly url: string;
  readonly port: number;
  /** Stops it (SIGKILL: what a crash looks like to the replicas). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Sends it a signal, if it runs: SIGSTOP freezes it (connections stay open, nothing answers), SIGCONT thaws it. */
  signal(name: NodeJS.Signals): void;
  /** A command through redis-cli, for checks. */
  cli(...args: string[]): string;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number>;
/** Starts redis-server on a free port (throws saying how to install it if it is missing). */
export function startRedis(): Promise<RedisProcess>;
