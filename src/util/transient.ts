/**
 * Collections for entries that come and go one at a time, such as the requests in flight on a
 * connection: when the last entry goes, they start a new `Map` or `Set` instead of deleting it
 * from the one they have.
 *
 * Why: V8 shrinks a `Map`'s or `Set`'s table when it empties, and allocates the new table in the
 * generation of the one it replaces. Once a full collection has moved a long-lived collection's
 * table to old space, each request that empties it leaves a table of old-space garbage (about
 * 60–180 bytes) that only the next full collection frees, and brings that collection nearer. A
 * new collection is young, and dies young. While more than one entry is held they behave as the
 * native ones do; iterating one while its last entry is deleted finishes the old collection.
 */
export class TransientMap<K, V> implements Iterable<[K, V]> {
  private map = new Map<K, V>();

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): this {
    this.map.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    const map = this.map;
    if (map.size !== 1) return map.delete(key);
    if (!map.has(key)) return false;
    this.map = new Map();
    return true;
  }

  clear(): void {
    this.map = new Map();
  }

  keys(): MapIterator<K> {
    return this.map.keys();
  }

  values(): MapIterator<V> {
    return this.map.values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.map[Symbol.iterator]();
  }
}

/** A `Set` that starts a new one when its last entry goes: see `TransientMap`. */
export class TransientSet<T> implements Iterable<T> {
  private set = new Set<T>();

  get size(): number {
    return this.set.size;
  }

  has(value: T): boolean {
    return this.set.has(value);
  }

  add(value: T): this {
    this.set.add(value);
    return this;
  }

  delete(value: T): boolean {
    const set = this.set;
    if (set.size !== 1) return set.delete(value);
    if (!set.has(value)) return false;
    this.set = new Set();
    return true;
  }

  clear(): void {
    this.set = new Set();
  }

  values(): SetIterator<T> {
    return this.set.values();
  }

  [Symbol.iterator](): SetIterator<T> {
    return this.set[Symbol.iterator]();
  }
}
