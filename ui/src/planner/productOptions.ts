import type { Family, Product } from '../types'

export interface ProductGroup {
  group: string
  items: { value: string; label: string }[]
}

/**
 * The product types a form offers, one group per family in the families' order (then any type of a family the
 * load does not name, under "Autres"), by name within a family; a retired type only when it is the one chosen.
 */
export function productOptions(products: readonly Product[], families: readonly Family[], chosen = ''): ProductGroup[] {
  const collator = new Intl.Collator('fr', { sensitivity: 'base' })
  const groups = new Map<string, ProductGroup>(families.map((f) => [f._id, { group: f.name, items: [] }]))
  const others: ProductGroup = { group: 'Autres', items: [] }
  for (const p of [...products].sort((a, b) => collator.compare(a.name, b.name))) {
    if (p.retired && p._id !== chosen) continue
    ;(groups.get(p.family) ?? others).items.push({ value: p._id, label: p.name })
  }
  return [...groups.values(), others].filter((g) => g.items.length > 0)
}
