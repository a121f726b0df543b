// The floor's client: over stdio, spawns the server and speaks newline-delimited JSON-RPC on its
// pipes, correlating answers by id; over HTTP, POSTs JSON with a keep-alive node:http agent.
// Same handshake as the libraries (initialize, notifications/initialized), no validation.
import { spawn } from "node:child_process";
import { allPages, runClient } from "../../lib/client-common.mjs";
import { RawHttpClient } from "../../lib/http-raw.mjs";

const INITIALIZE = {
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: { name: "floor-client", version: "1.0.0" },
};

class StdioPeer {
  constructor({ command, args }) {
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
    this.nextId = 1;
    this.waiting = new Map();
    let pending = [];
    this.child.stdout.on("data", (chunk) => {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
        let line = chunk.subarray(start, nl);
        if (pending.length) {
          pending.push(line);
          line = Buffer.concat(pending);
          pending = [];
        }
        start = nl + 1;
        const message = JSON.parse(line.toString());
        const waiter = this.waiting.get(message.id);
        if (!waiter) continue;
        this.waiting.delete(message.id);
        if (message.error) waiter.reject(new Error(JSON.stringify(message.error)));
        else waiter.resolve(message.result);
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
    });
    this.child.on("exit", (code) => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error(`server exited (${code})`));
    });
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  notify(method, params) {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
  }

  close() {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) resolve();
      this.child.once("exit", () => resolve());
      this.child.stdin.end();
    });
  }
}

class HttpPeer {
  constructor({ url }) {
    this.http = new RawHttpClient(url);
    this.headers = {};
  }

  async request(method, params) {
    const { result, headers } = await this.http.request(method, params, this.headers);
    if (method === "initialize") {
      this.headers = {
        "mcp-session-id": headers["mcp-session-id"],
        "mcp-protocol-version": result.protocolVersion,
      };
    }
    return result;
  }

  notify(method, params) {
    return this.http.post({ jsonrpc: "2.0", method, params }, this.headers);
  }

  close() {
    this.http.close();
  }
}

runClient(async (target) => {
  const peer = target.transport === "stdio" ? new StdioPeer(target) : new HttpPeer(target);
  await peer.request("initialize", INITIALIZE);
  await peer.notify("notifications/initialized");
  return {
    call: async (name, args) => (await peer.request("tools/call", { name, arguments: args })).content[0].text,
    list: () =>
      allPages((cursor) => peer.request("tools/list", cursor === undefined ? undefined : { cursor })),
    close: async () => peer.close(),
  };
});
