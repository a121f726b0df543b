/**
 * While the server starts or is reached: a spinner on the status line (stderr, a terminal only),
 * with a hint once it takes long — the first run of `npx` downloads the package.
 */
import { clearStatus, setStatus } from "./status.js";
import { err } from "./terminal.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 100;
/** After this long the hint joins the spinner. */
const SLOW_START_MS = 5000;

/** Commands that may fetch a package before the server runs. */
const FETCHERS = new Set(["npx", "npm", "pnpm", "pnpx", "yarn", "bunx", "uvx", "uv", "pipx"]);
/** Commands that may pull an image first. */
const PULLERS = new Set(["docker", "podman"]);

/** What to say once starting takes long. */
export function slowStartHint(command: string | undefined): string {
  if (command === undefined) return "still connecting; is the server up at that URL?";
  const program = command
    .split(/[\\/]/)
    .at(-1)!
    .replace(/\.(cmd|exe)$/i, "");
  if (FETCHERS.has(program) || PULLERS.has(program)) {
    const what = PULLERS.has(program) ? "the image" : "the package";
    return `still starting: the first run of ${program} may be downloading ${what}…`;
  }
  return "still starting; --verbose shows what the server writes to stderr";
}

/**
 * Shows `label` with a spinner until the returned function is called. Does nothing when stderr is
 * not a terminal or `quiet`.
 */
export function startupStatus(label: string, command: string | undefined, quiet = false): () => void {
  if (quiet || process.stderr.isTTY !== true) return () => {};
  const started = Date.now();
  let frame = 0;
  const draw = () => {
    // Plain text after the frame: the status line is clipped to the terminal's width.
    const hint = Date.now() - started >= SLOW_START_MS ? ` (${slowStartHint(command)})` : "";
    setStatus(`${err("cyan", FRAMES[frame++ % FRAMES.length]!)} ${label}${hint}`);
  };
  draw();
  const timer = setInterval(draw, FRAME_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    clearStatus();
  };
}
