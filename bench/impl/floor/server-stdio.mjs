// The floor over stdio: newline-delimited JSON-RPC read from stdin by scanning buffers for "\n",
// one JSON.parse and one JSON.stringify + write per message.
import { ServerStats, serverConfig } from "../../lib/server-common.mjs";
import { floorServer } from "./tools.mjs";

const config = serverConfig();
const handle = floorServer(config, new ServerStats(config));

let pending = [];
process.stdin.on("data", (chunk) => {
  let start = 0;
  for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
    let line = chunk.subarray(start, nl);
    if (pending.length) {
      pending.push(line);
      line = Buffer.concat(pending);
      pending = [];
    }
    start = nl + 1;
    const response = handle(JSON.parse(line.toString()));
    if (response) process.stdout.write(`${JSON.stringify(response)}\n`);
  }
  if (start < chunk.length) pending.push(chunk.subarray(start));
});
process.stdin.on("end", () => process.exit(0));
