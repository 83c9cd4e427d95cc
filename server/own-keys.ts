/**
 * Objects read and written by a key that came from text: a comment's word, a CSV header, a
 * metadata key, a query parameter. On `{}` or a Record such a key may name an Object.prototype
 * member ("constructor", "toString", "__proto__"): reading answers the member, and writing
 * "__proto__" replaces the prototype. A Map is the first choice; where a plain object is needed (a
 * lookup table written as a literal, JSON that goes out as an object), these read own keys only and
 * make objects without a prototype. The lint rule masthead/no-string-key-on-plain-object
 * (scripts/lint/plain-object-keys.mjs) flags the other ways.
 */

/** `object[key]` when `key` is the object's own property, else undefined. */
export function ownValue<V>(object: Readonly<Record<string, V>> | null | undefined, key: string): V | undefined {
  return object && Object.hasOwn(object, key) ? object[key] : undefined;
}

declare const nullPrototype: unique symbol;
/**
 * An object made by nullPrototypeRecord. The type says so (the lint rule reads it), so that the
 * object may be passed around and still be indexed by any key.
 */
export type NullPrototypeRecord<V> = Record<string, V> & { readonly [nullPrototype]?: true };

/** An empty object without a prototype, filled from `entries`: any key is an ordinary own key. */
export function nullPrototypeRecord<V>(entries: Iterable<readonly [string, V]> = []): NullPrototypeRecord<V> {
  const record = Object.create(null) as NullPrototypeRecord<V>;
  for (const [key, value] of entries) record[key] = value;
  return record;
}
