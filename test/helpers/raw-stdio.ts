import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { INITIALIZED, initializeRequest } from "./initialize.js";

/** A fixture of `test/fixtures`, by file name. */
export const fixture = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/**
 * A stdio server spoken to in raw bytes: what is written goes to its stdin as given, and each line
 * of its stdout is kept, parsed. For inputs no client would send.
 */
export class RawStdio {
  readonly received: unknown[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiters: (() => void)[] = [];
  private rest = "";
  stderr = "";

  constructor(args: string[]) {
    this.child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] });
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
    this.child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr += chunk;
    });
    this.child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (this.rest + chunk).split("\n");
      this.rest = lines.pop()!;
      for (const line of lines) if (line.trim() !== "") this.received.push(JSON.parse(line));
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Writes `text` to the server's stdin as it is. */
  write(text: string): void {
    this.child.stdin.write(text);
  }

  /** Writes each message as one line of JSON. */
  send(...messages: object[]): void {
    this.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(""));
  }

  /** Sends `initialize` and `notifications/initialized` for `protocolVersion`, and waits for the answer. */
  async initialize(protocolVersion = "2025-11-25"): Promise<void> {
    this.send(initializeRequest({ id: "init", protocolVersion }));
    await this.next((m) => m.id === "init");
    this.send(INITIALIZED);
  }

  /** The first message received that `match` accepts, once it came. */
  async next(match: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (;;) {
      const found = this.received.find(
        (m) => typeof m === "object" && m !== null && match(m as Record<string, unknown>),
      );
      if (found) return found as Record<string, unknown>;
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(
          `the server exited (${this.child.exitCode ?? this.child.signalCode}): ${this.stderr}`,
        );
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        this.child.once("exit", () => resolve());
      });
    }
  }

  /** The answer to request `id`. */
  answer(id: unknown): Promise<Record<string, unknown>> {
    return this.next((m) => m.id === id && !("method" in m));
  }

  /** Whether the server process is still running. */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Ends stdin and waits for the server to exit. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}
