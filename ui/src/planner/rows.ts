// What the planner grid shows (PRODUCT §2 "Needs planner"): one row per product
// having a need in the period, filtered by the fuzzy search and the status
// tab. The rules, decided here once:
//
// - A row is a product with at least one need in one of the period's months.
//   Products without a need in the period are not listed (the add bar
//   creates the first need of a product); a need whose product is not in the
//   catalogue is ignored (the database forbids it).
// - Rows are sorted by product name (French collation).
// - The search keeps the rows whose product name matches the query with
//   fuse.js at threshold 0.3, accents ignored; an empty query keeps all.
// - Tabs, over the needs of the row inside the period only:
//   - À VALIDER: a need has a proposal with status "proposed" made by the
//     other side, so the viewer is the one to answer it. For the shop, a
//     proposal from a producer (`from` absent or "producer"); for a
//     producer, a counter-proposal from the shop on its own proposal.
//   - ENGAGÉS: a need has commitments (quantityAccepted > 0).
//   - TOUS: every row.
// - Tab counts are counted over the rows of the period that match the search,
//   so each tab's count is the number of rows it shows.
// - An empty list says why: "no-match" when a query is typed and no row of
//   the period matches it ("Aucun résultat"), otherwise "no-needs" (Macache:
//   no need in this period or filter).
import { searchByName } from '../search'
import type { Month } from './period'
import type { NeedRO, ProductRO, Viewer } from './model'
import type { ReadOnly } from './model'
import type { Proposal } from '../types'

/** Fuzzy search threshold (PRODUCT §9; search.ts). */
export { SEARCH_THRESHOLD } from '../search'

export type Tab = 'pending' | 'engaged' | 'all'

/** Tab order and labels (PRODUCT §2). */
export const TABS: readonly { value: Tab; label: string }[] = [
  { value: 'pending', label: 'À VALIDER' },
  { value: 'engaged', label: 'ENGAGÉS' },
  { value: 'all', label: 'TOUS' },
]

/** "À VALIDER (3)". */
export function tabLabel(tab: Tab, count: number): string {
  return `${TABS.find((t) => t.value === tab)?.label ?? tab} (${count})`
}

export interface PlannerRow {
  product: ProductRO
  /** The product's needs in the period, by month. */
  needs: ReadonlyMap<Month, NeedRO>
  /** A need of the row awaits the viewer's answer. */
  pending: boolean
  /** A need of the row has commitments. */
  engaged: boolean
  /** The tone of each month's cell. */
  tones: ReadonlyMap<Month, CellTone>
}

/** Whether the viewer is the side that has to answer this proposal. */
export function awaitsAnswerFrom(proposal: ReadOnly<Proposal>, viewer: Viewer): boolean {
  if (proposal.status !== 'proposed') return false
  const from = proposal.from ?? 'producer'
  if (viewer.type === 'distributor') return from === 'producer'
  return from === 'distributor' && proposal.producer === viewer.id
}

/** Whether a need has a proposal awaiting the viewer's answer. */
export function needAwaitsViewer(need: NeedRO, viewer: Viewer): boolean {
  return need.proposals.some((p) => awaitsAnswerFrom(p, viewer))
}

/** Whether a need has commitments. */
export function needIsEngaged(need: NeedRO): boolean {
  return need.quantityAccepted > 0
}

/**
 * How a cell reads at a glance: a proposal awaits the viewer's answer
 * (`awaits`), the need is entirely committed (`covered`) or partly
 * (`engaged`), proposals are under way without a commitment (`proposed`), or
 * nothing has happened on it yet (`open`). No need: `none`.
 */
export type CellTone = 'awaits' | 'covered' | 'engaged' | 'proposed' | 'open' | 'none'

export function cellTone(need: NeedRO | undefined, viewer: Viewer): CellTone {
  if (!need) return 'none'
  if (needAwaitsViewer(need, viewer)) return 'awaits'
  if (needIsEngaged(need)) return need.quantityAvailable <= 0 && need.quantityProposed <= 0 ? 'covered' : 'engaged'
  if (need.quantityProposed > 0) return 'proposed'
  return 'open'
}

/** The background of each tone (Mantine's light variants). */
export const TONE_COLORS: Record<CellTone, string | undefined> = {
  awaits: 'var(--mantine-color-orange-light)',
  proposed: 'var(--mantine-color-yellow-light)',
  engaged: 'var(--mantine-color-green-light)',
  covered: 'var(--mantine-color-teal-light)',
  open: 'var(--mantine-color-gray-0)',
  none: undefined,
}

/** The legend of the tones a viewer can meet, in the order they matter. */
export const TONE_LABELS: Record<Exclude<CellTone, 'none'>, string> = {
  awaits: 'Proposition à traiter',
  proposed: 'Proposition en cours',
  engaged: 'Engagé en partie',
  covered: 'Entièrement couvert',
  open: 'Besoin sans proposition',
}

const collator = new Intl.Collator('fr', { sensitivity: 'base' })

/** One row per product with a need in `months`, sorted by product name. */
export function buildRows(
  needs: readonly NeedRO[],
  products: readonly ProductRO[],
  months: readonly Month[],
  viewer: Viewer,
): PlannerRow[] {
  const inPeriod = new Set(months)
  const byId = new Map(products.map((p) => [p._id, p]))
  const rows = new Map<
    string,
    { product: ProductRO; needs: Map<Month, NeedRO>; pending: boolean; engaged: boolean; tones: Map<Month, CellTone> }
  >()
  for (const need of needs) {
    if (!inPeriod.has(need.date)) continue
    const product = byId.get(need.product)
    if (!product) continue
    let row = rows.get(product._id)
    if (!row) {
      row = { product, needs: new Map(), pending: false, engaged: false, tones: new Map() }
      rows.set(product._id, row)
    }
    row.needs.set(need.date, need)
    row.tones.set(need.date, cellTone(need, viewer))
    row.pending ||= needAwaitsViewer(need, viewer)
    row.engaged ||= needIsEngaged(need)
  }
  return [...rows.values()].sort((a, b) => collator.compare(a.product.name, b.product.name))
}

/** The rows whose product name matches `query` (fuse.js, threshold 0.3, accents and ligatures aside: search.ts). */
export function searchRows(rows: readonly PlannerRow[], query: string): PlannerRow[] {
  return searchByName(rows, (row) => row.product.name, query)
}

/**
 * The planner's filters (PRODUCT §2 "Needs planner", "Filters"): a family
 * ('' any), and the types producers sell with a label within a distance
 * (the daemon's answer, `GET /api/supplied-products/types`; null: no such
 * filter).
 */
export interface RowFilter {
  family: string
  types: ReadonlySet<string> | null
}

/** Whether a filter restricts anything. */
export function filtering(filter: RowFilter | undefined): boolean {
  return !!filter && (filter.family !== '' || filter.types !== null)
}

/** The rows a filter keeps. */
export function filterRows(rows: readonly PlannerRow[], filter: RowFilter | undefined): PlannerRow[] {
  if (!filter) return [...rows]
  return rows.filter(
    (row) =>
      (filter.family === '' || row.product.family === filter.family) &&
      (filter.types === null || filter.types.has(row.product._id)),
  )
}

/** Whether a row belongs to a tab. */
export function inTab(row: PlannerRow, tab: Tab): boolean {
  if (tab === 'pending') return row.pending
  if (tab === 'engaged') return row.engaged
  return true
}

export type TabCounts = Record<Tab, number>

/** The number of rows each tab shows. */
export function tabCounts(rows: readonly PlannerRow[]): TabCounts {
  return {
    pending: rows.filter((r) => r.pending).length,
    engaged: rows.filter((r) => r.engaged).length,
    all: rows.length,
  }
}

/** Why the list is empty: a search without match, or no need in the period or filter. */
export type EmptyReason = 'no-match' | 'no-needs'

export interface PlannerView {
  rows: PlannerRow[]
  counts: TabCounts
  empty: EmptyReason | null
}

/** Everything the grid and the header show for a period, a query and a tab. */
export function plannerView(
  needs: readonly NeedRO[],
  products: readonly ProductRO[],
  months: readonly Month[],
  viewer: Viewer,
  query: string,
  tab: Tab,
  filter?: RowFilter,
): PlannerView {
  const all = buildRows(needs, products, months, viewer)
  const matching = filterRows(searchRows(all, query), filter)
  const rows = matching.filter((row) => inTab(row, tab))
  let empty: EmptyReason | null = null
  if (rows.length === 0)
    empty = (query.trim() !== '' || filtering(filter)) && matching.length === 0 ? 'no-match' : 'no-needs'
  return { rows, counts: tabCounts(matching), empty }
}
