// Texts of the supply screen, pure so they are tested on their own.
import { formatDay, formatNumber, LOCALE } from '../format'
import type { ProducerEntry } from '../types'
import type { RiskLevel, SupplyProduct, SupplyProjection } from './types'

/** Title of the screen (PRODUCT §2). */
export const SUPPLY_TITLE = "Évolution des stocks et conseils d'approvisionnement"

/** Labels of the detail, shared with the terminal viewer (commands/supplyui). */
export const LABELS = {
  order: 'Commande plateforme proposée pour le lendemain',
  assumptions: 'Hypothèses',
  morningStock: 'Stock local restant le matin',
  deliveries: 'Livraisons du jour',
  nextDeliveries: 'Livraisons du lendemain',
  need: 'Besoin du jour',
  nextNeed: 'Besoin du lendemain',
  none: 'aucune',
  prompt: 'Cliquez sur une case de la grille pour afficher le détail du jour et la commande conseillée.',
  sales: 'Ventes moy./jour',
  product: 'Produit',
  stock: 'Stock',
  empty: 'Aucun besoin ni aucune livraison sur cette période.',
  atRisk: 'à risque',
} as const

/**
 * A supply quantity with its unit, up to 2 decimals whatever the unit: the
 * proposed order is exact to the hundredth (PRODUCT §9), even for pieces.
 */
export function formatSupplyQuantity(value: number, unit: string): string {
  return `${formatNumber(value, 2)} ${unit}`
}

/**
 * "2026-11-16" → ["lun.", "16/11"], a column header's two lines (the grid
 * draws them one above the other, so that 8 days fit beside the detail at
 * 1440 px, issue 37); [day, ""] for what is not a day.
 */
export function dayHeaderLines(day: string): [string, string] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!m) return [day, '']
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  const weekday = new Intl.DateTimeFormat(LOCALE, { weekday: 'short', timeZone: 'UTC' }).format(date)
  return [weekday, `${m[3]}/${m[2]}`]
}

/** "2026-11-16" → "lun. 16/11", a column header on one line. */
export function dayHeader(day: string): string {
  return dayHeaderLines(day).filter(Boolean).join(' ')
}

/** The name of a risk level. */
export function riskLabel(level: RiskLevel): string {
  switch (level) {
    case 1:
      return 'Couverture partielle'
    case 2:
      return 'Stock vide'
    default:
      return 'Besoin couvert'
  }
}

/** Mantine colour of a risk level: green, orange, red. */
export function riskColor(level: RiskLevel): string {
  return level === 2 ? 'red' : level === 1 ? 'orange' : 'green'
}

/** The incoming quantity of a cell: "+25,5" or "" when nothing comes. */
export function incomingLabel(delivered: number, deliveries: number): string {
  return deliveries > 0 ? `+${formatNumber(delivered, 2)}` : ''
}

/** The message of a window without deliveries (PRODUCT §2). */
export function noDeliveriesMessage(start: string, end: string): string {
  return `Aucune livraison n'est prévue entre le ${formatDay(start)} et le ${formatDay(end)}. Utilisez les flèches pour consulter d'autres dates.`
}

/** Why a product is flagged (PRODUCT §4). */
export function atRiskText(product: SupplyProduct): string {
  return (
    `Livraisons des 7 derniers jours : ${formatSupplyQuantity(product.deliveredLast7Days, product.unit)}, ` +
    `sous 7 fois les ventes moyennes (${formatSupplyQuantity(7 * product.averageDailySales, product.unit)}).`
  )
}

/**
 * A producer's name: from the user load's producers first, then from the
 * projection, then the id.
 */
export function producerName(
  id: string,
  producers: readonly ProducerEntry[],
  projection: SupplyProjection | null,
): string {
  return producers.find((p) => p._id === id)?.name || projection?.producers.find((p) => p._id === id)?.name || id
}

/** The two chart series of a product line over the window. */
export function chartSeries(product: SupplyProduct): { x: string[]; current: number[]; baseline: number[] } {
  return {
    x: product.days.map((d) => d.date),
    current: product.days.map((d) => d.current),
    baseline: product.days.map((d) => d.baseline),
  }
}
