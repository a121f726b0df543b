/**
 * Collections for entries that come and go one at a time, such as the requests in flight on a
 * connection: a delete that leaves at most `FEW` entries starts a new `Map` or `Set` holding them,
 * instead of deleting from the one it has.
 *
 * Why: V8 reallocates a `Map`'s or `Set`'s table when it empties (it shrinks) and when deleted
 * entries fill it (it is rehashed), and allocates the new table in the generation of the one it
 * replaces. Once a full collection has moved a long-lived collection's table to old space, each
 * request leaves tables of old-space garbage (about 60–180 bytes each) that only the next full
 * collection frees, and brings that collection nearer. A new collection is young and dies young.
 * A long-lived entry (a `subscriptions/listen` request that stays open) is why "empty" is not
 * enough. With more entries the copy would cost more than the table, and they behave as the
 * native ones do. A loop over one may still visit an entry deleted after the loop started (it
 * goes on over the collection it started with); deleting the entry it is on is safe.
 */
const FEW = 2;

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
    if (map.size > FEW + 1) return map.delete(key);
    if (!map.has(key)) return false;
    if (map.size === 1) {
      this.map = new Map();
      return true;
    }
    // A young copy: what deleting from it reallocates is young too, and `map` stays as it was.
    const next = new Map(map);
    next.delete(key);
    this.map = next;
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

/** A `Set` that starts a new one when a delete leaves few values: see `TransientMap`. */
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
    if (set.size > FEW + 1) return set.delete(value);
    if (!set.has(value)) return false;
    if (set.size === 1) {
      this.set = new Set();
      return true;
    }
    const next = new Set(set);
    next.delete(value);
    this.set = next;
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
