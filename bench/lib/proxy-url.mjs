/** Resolves with the URL a `mcpkit proxy --port` process announces on stderr once it listens. */
export function announcedProxyUrl(child) {
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
      const found = /proxy listening on (\S+)/.exec(stderr);
      if (found) resolve(found[1]);
    });
    child.once("exit", (code) => reject(new Error(`the proxy exited (${code}) before listening: ${stderr}`)));
  });
}
