import { type ImportChange, type ImportError, MSG_PAST_MONTH } from '../store/imports'

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

/** The sheet read, named in the preview and the result: "Feuille lue : « 2027 »". */
export function sheetText(sheet: string): string {
  return `Feuille lue : « ${sheet} »`
}

/**
 * Why a file would change no need, when the lists under the heading do not
 * say it: its quantities are those already recorded, or none of its
 * products is in the product list. Null when the refused cells say it.
 */
export function unchangedText(preview: {
  dbErrors: readonly ImportError[]
  dbSuccesses: number
  productsMissing: readonly string[]
  productsFound: readonly string[]
}): string | null {
  if (preview.dbErrors.length > 0) {
    return preview.dbErrors.every((e) => e.message === MSG_PAST_MONTH) && preview.dbSuccesses === 0
      ? 'Tous ses mois sont passés.'
      : null
  }
  if (preview.dbSuccesses > 0) return 'Ses quantités sont déjà celles de vos besoins.'
  if (preview.productsMissing.length > 0 && preview.productsFound.length === 0) {
    return "Aucun de ses produits n'est dans la liste des produits."
  }
  return null
}
