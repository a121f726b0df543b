/** "Did you mean …?" for a mistyped tool, prompt, resource, server or revision name. */
import { editDistance } from "../../util/edit-distance.js";
import { peerText } from "./peer-text.js";

/** Names longer than this are not compared: the work stays bounded whatever a server lists. */
const MAX_LENGTH = 256;

/**
 * The candidate closest to `name`: the same name in other case, else the nearest within a third of
 * its length (at least 1, at most 4 edits), else one that has `name` as a prefix. `undefined` when
 * none is close.
 */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length === 0 || name.length > MAX_LENGTH) return undefined;
  const lower = name.toLowerCase();
  const max = Math.min(4, Math.max(1, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = max + 1;
  let prefixed: string | undefined;
  for (const candidate of candidates) {
    if (typeof candidate !== "string" || candidate === name || candidate.length > MAX_LENGTH) continue;
    const other = candidate.toLowerCase();
    if (other === lower) return candidate;
    const distance = editDistance(lower, other, max);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
    if (prefixed === undefined && name.length >= 3 && other.startsWith(lower)) prefixed = candidate;
  }
  return best ?? prefixed;
}

/**
 * `; did you mean "echo"?` when a candidate is close to `name`, else the empty string. The candidate
 * is inert: candidates are often a server's names.
 */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const match = closest(name, candidates);
  return match === undefined ? "" : `; did you mean "${peerText(match, "name")}"?`;
}
