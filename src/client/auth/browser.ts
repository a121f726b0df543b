import { spawn } from "node:child_process";
import { checkBrowserUrl } from "./url-policy.js";

/** The command that opens a URL with the user's default browser on this platform, as argv. */
function opener(url: string): [string, string[]] {
  if (process.platform === "darwin") return ["open", [url]];
  if (process.platform === "win32") return ["rundll32", ["url.dll,FileProtocolHandler", url]];
  return ["xdg-open", [url]];
}

/**
 * Opens `url` in the user's browser. Only `https:` URLs (and `http:` on this machine) are opened,
 * without a shell, and never one a command line could read as more than a URL: anything else is
 * refused before a process is started. Resolves once the opener started.
 */
export async function openBrowser(url: string | URL): Promise<void> {
  const checked = checkBrowserUrl(String(url));
  const [command, args] = opener(checked.href);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "ignore", detached: true, shell: false });
    child.once("error", (error) =>
      reject(new Error(`Could not open a browser (${command}): ${error.message}`)),
    );
    child.once("spawn", () => {
      child.unref();
      resolve();
    });
  });
}
