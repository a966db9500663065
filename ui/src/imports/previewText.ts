import type { ImportChange } from '../store/imports'

/** How many needs a preview creates and changes. */
export function previewCounts(changes: readonly ImportChange[]): { created: number; changed: number } {
  const created = changes.filter((c) => c.from === null).length
  return { created, changed: changes.length - created }
}

const needs = (n: number) => (n === 1 ? '1 besoin' : `${n} besoins`)

/** The preview's heading: "3 besoins à créer, 1 besoin à modifier", or that nothing would change. */
export function previewHeading(created: number, changed: number): string {
  if (created === 0 && changed === 0) return 'Ce fichier ne changerait aucun besoin'
  const parts: string[] = []
  if (created > 0) parts.push(`${needs(created)} à créer`)
  if (changed > 0) parts.push(`${needs(changed)} à modifier`)
  return parts.join(', ')
}
