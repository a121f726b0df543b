/** `mcpkit login` run without a browser, for the login tests. */
import { spawn } from "node:child_process";
import { browserlessUser } from "../helpers/oauth-servers.js";
import { CLI, ROOT } from "./run.js";

/** `mcpkit login --no-browser <url>`, signed in by a browserless user once it prints the URL. */
export function loginWithoutBrowser(url: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "login", "--no-browser", url], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let signedIn = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const shown = /open this URL on this machine:\n {2}(\S+)/.exec(stderr);
      if (!shown || signedIn) return;
      signedIn = true;
      const authorization = new URL(shown[1]!);
      const redirectUri = authorization.searchParams.get("redirect_uri")!;
      const user = browserlessUser({ visitRedirect: true });
      Promise.resolve(
        user.handler(authorization, { redirectUri, signal: AbortSignal.timeout(30_000) }),
      ).catch(reject);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
