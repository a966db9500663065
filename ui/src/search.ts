import Fuse from 'fuse.js'

/**
 * Product search (PRODUCT §2 "Needs planner", §9): fuse.js at threshold 0.3 over a searchable form of the
 * names — lower case, accents and punctuation aside, ligatures written out — so that "oeufs", "Œuf" and
 * "œufs" find "Œufs de poule plein air", and "comte" finds "Comté" (core/catalog's NameKey, the same rule).
 */
export const SEARCH_THRESHOLD = 0.3

/** The form names are searched under: "Œufs de poule" → "oeufs de poule", "Pêche" → "peche". */
export function searchKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/** The items whose name matches `query`, in their order; an empty query keeps all. */
export function searchByName<T>(items: readonly T[], name: (item: T) => string, query: string): T[] {
  const q = searchKey(query)
  if (!q) return [...items]
  const keyed = items.map((item) => ({ item, key: searchKey(name(item)) }))
  const fuse = new Fuse(keyed, { keys: ['key'], threshold: SEARCH_THRESHOLD })
  const matched = new Set(fuse.search(q).map((r) => r.item.item))
  return items.filter((item) => matched.has(item))
}
