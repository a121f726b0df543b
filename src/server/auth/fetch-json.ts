import { AuthUnavailableError } from "./errors.js";

/** The largest metadata or introspection response read, in bytes. */
const LIMIT = 256 * 1024;

/**
 * Fetches a JSON object from the authorization server, within `timeout` ms and a size limit,
 * without following redirects (a redirect could lead off the trusted URL). Any failure is an
 * `AuthUnavailableError` naming the URL.
 */
export async function fetchJson(
  url: string,
  init: RequestInit,
  timeout: number,
): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(timeout) });
  } catch (error) {
    throw new AuthUnavailableError(`${url} did not answer: ${(error as Error).message}`);
  }
  const text = await readLimited(response, url);
  if (!/^application\/([a-z.+-]*\+)?json\s*(;|$)/i.test(response.headers.get("content-type") ?? "")) {
    return { status: response.status, body: undefined };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AuthUnavailableError(`${url} answered invalid JSON`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new AuthUnavailableError(`${url} answered JSON that is not an object`);
  }
  return { status: response.status, body: body as Record<string, unknown> };
}

async function readLimited(response: Response, url: string): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > LIMIT) {
        await reader.cancel();
        throw new AuthUnavailableError(`${url} answered more than ${LIMIT} bytes`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof AuthUnavailableError) throw error;
    throw new AuthUnavailableError(`${url} broke off its answer: ${(error as Error).message}`);
  }
  return Buffer.concat(chunks).toString("utf8");
}
