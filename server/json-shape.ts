// What JSON.parse accepts but the server refuses (issue 32): a value nested deeper than MAX_JSON_DEPTH (10,000
// levels parsed fine and then overflowed the stack of the code that walked the value: a 500) and a key repeated in
// one object (JSON.parse keeps the last one silently). Checked on every JSON body, small, sliced or read on the IP
// import's worker (server/plugins/json-body.ts), and on every JSON query or form value (server/core/input.ts).
// One linear pass over the text, before it is parsed. scanJsonShape refers to nothing outside itself: the IP import's
// worker runs its source.

/**
 * How deep a JSON value may nest. The deepest legitimate JSON of this product, a manifest, nests 9 levels; a GitLab
 * webhook, a wlConfig or a device's goalParams fewer.
 */
export const MAX_JSON_DEPTH = 64;

/** What scanJsonShape finds: the nesting went past the limit, or `key` came twice in one object. */
export type ShapeFinding = { deeperThan: number } | { repeated: string };

/**
 * Finds nesting deeper than `maxDepth` (counting `outer` containers around the text) or a key repeated in one object,
 * in one pass without parsing. Text that is not JSON gets no finding or any finding: the parser refuses it anyway.
 * Keys of an object are compared pairwise up to 8 of them, by their text; past 8, or once one holds an escape, they go
 * to a Set as decoded strings, so no object costs more than linear time.
 * @example scanJsonShape('{"a": 1, "a": 2}', 64) // { repeated: 'a' }
 */
export function scanJsonShape(text: string, maxDepth: number, outer = 0): ShapeFinding | undefined {
  // Per open container (1-based depth): whether it is an object, where its keys start in starts/ends, its Set if any.
  const isObject: boolean[] = [];
  const firstKey: number[] = [];
  const sets: (Set<string> | undefined)[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let keys = 0;
  let depth = 0;
  let expectKey = false;
  // The next backslash at or after the current string (2 ** 32 - 1 when there is none).
  let backslash = -1;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i + 1;
      // The closing quote by indexOf (native, several times faster than a loop here) unless an escape comes first.
      if (backslash < start) backslash = text.indexOf('\\', start) >>> 0;
      i = text.indexOf('"', start) >>> 0;
      const escaped = backslash < i;
      if (escaped) {
        for (i = start; i < length; i++) {
          const d = text.charCodeAt(i);
          if (d === 0x5c) i++;
          else if (d === 0x22) break;
        }
      }
      if (i >= length) return undefined;
      if (!expectKey) continue;
      expectKey = false;
      let set = sets[depth];
      if (set === undefined && !escaped && keys - firstKey[depth] < 8) {
        const size = i - start;
        for (let k = firstKey[depth]; k < keys; k++) {
          if (ends[k] - starts[k] !== size) continue;
          let m = 0;
          while (m < size && text.charCodeAt(starts[k] + m) === text.charCodeAt(start + m)) m++;
          if (m === size) return { repeated: text.slice(start, i) };
        }
        starts[keys] = start;
        ends[keys] = i;
        keys++;
        continue;
      }
      if (set === undefined) {
        set = new Set();
        for (let k = firstKey[depth]; k < keys; k++) set.add(text.slice(starts[k], ends[k]));
        sets[depth] = set;
      }
      let key: string;
      try {
        key = escaped ? (JSON.parse(text.slice(start - 1, i + 1)) as string) : text.slice(start, i);
      } catch {
        return undefined;
      }
      if (set.has(key)) return { repeated: key };
      set.add(key);
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth + outer > maxDepth) return { deeperThan: maxDepth };
      isObject[depth] = c === 0x7b;
      firstKey[depth] = keys;
      sets[depth] = undefined;
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return undefined;
      keys = firstKey[depth];
      sets[depth] = undefined;
      depth--;
      expectKey = false;
    } else if (c === 0x2c) {
      expectKey = depth > 0 && isObject[depth];
    }
  }
  return undefined;
}

/** A finding as the end of a sentence about the JSON: `nests deeper than 64 levels`. */
export function describeShape(finding: ShapeFinding): string {
  if ('deeperThan' in finding) return `nests deeper than ${finding.deeperThan} levels`;
  const key = finding.repeated.length > 100 ? `${finding.repeated.slice(0, 100)}…` : finding.repeated;
  return `repeats the key ${JSON.stringify(key)} in one object`;
}

/**
 * Why `text` is refused although it may parse (see the top of this file), as the end of a sentence, else undefined.
 * @example jsonShapeProblem('[[1]]', 63) // 'nests deeper than 64 levels'
 */
export function jsonShapeProblem(text: string, outer = 0): string | undefined {
  const finding = scanJsonShape(text, MAX_JSON_DEPTH, outer);
  return finding && describeShape(finding);
}
