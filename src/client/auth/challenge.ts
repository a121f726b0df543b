/** One challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1). */
export interface Challenge {
  /** The scheme, lower case: `bearer`, `dpop`. */
  scheme: string;
  /** Its parameters by lower-case name. */
  params: Record<string, string>;
}

/** Longer headers are cut: no legitimate challenge comes near this. */
const MAX_HEADER = 8192;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/**
 * Parses a `WWW-Authenticate` header into its challenges. Malformed parts end the parse; what was
 * read before them is kept.
 */
export function parseWwwAuthenticate(header: string | undefined): Challenge[] {
  if (!header) return [];
  const text = header.slice(0, MAX_HEADER);
  const challenges: Challenge[] = [];
  let at = 0;
  const skip = (chars: RegExp) => {
    while (at < text.length && chars.test(text[at]!)) at++;
  };
  const token = (): string | undefined => {
    const match = TOKEN.exec(text.slice(at));
    if (!match) return undefined;
    at += match[0].length;
    return match[0];
  };
  const quoted = (): string | undefined => {
    if (text[at] !== '"') return undefined;
    let value = "";
    for (at++; at < text.length; at++) {
      const c = text[at]!;
      if (c === "\\") value += text[++at] ?? "";
      else if (c === '"') {
        at++;
        return value;
      } else value += c;
    }
    return undefined;
  };
  let current: Challenge | undefined;
  while (at < text.length) {
    skip(/[\s,]/);
    const start = at;
    const name = token();
    if (name === undefined) break;
    skip(/[ \t]/);
    if (text[at] === "=" && current) {
      at++;
      skip(/[ \t]/);
      const value = text[at] === '"' ? quoted() : token();
      if (value === undefined) break;
      current.params[name.toLowerCase()] ??= value;
      continue;
    }
    // A token not followed by "=" starts a new challenge (or is a token68 after the scheme).
    if (current && start > 0 && /[^\s,]/.test(text[start - 1] ?? "")) break;
    current = { scheme: name.toLowerCase(), params: {} };
    challenges.push(current);
    skip(/[ \t]/);
    const token68 = /^[A-Za-z0-9\-._~+/]+=*(?=\s*(,|$))/.exec(text.slice(at));
    if (
      token68 &&
      !text
        .slice(at + token68[0].length)
        .trimStart()
        .startsWith("=")
    )
      at += token68[0].length;
  }
  return challenges;
}

/** The challenge this client answers: `DPoP` or `Bearer`, the first of them; else the first one. */
export function oauthChallenge(challenges: Challenge[]): Challenge | undefined {
  return challenges.find((c) => c.scheme === "dpop" || c.scheme === "bearer") ?? challenges[0];
}

/** The space-separated scopes of a `scope` parameter. */
export function scopesOf(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const scopes = value.split(/\s+/).filter(Boolean);
  return scopes.length > 0 ? scopes : undefined;
}
