// The deliveries screen's pure rules (PRODUCT §2 "Deliveries page", §4): rows
// from the orders, filters, sorting, pagination, and what each side may do
// with a delivery. The daemon decides for real; these rules only choose
// what the screen offers.
import { dayOf, formatLongDay } from '../format'
import type { ClaimStatus, CreditRef, Delivery, DeliveryStatus, Order, UserType } from '../types'

/** Who sent a delivery's claim: the producer, or the shop at its reception. */
export type ClaimBy = Delivery['claimBy']

/** One delivery of the table, with its order and the other party's name. */
export interface DeliveryRow {
  order: Order
  delivery: Delivery
  /** The shop (for a producer) or the producer (for a shop). */
  partner: string
}

/** Builds the rows of the user's deliveries; `names` maps ids to names. */
export function deliveryRows(
  orders: readonly Order[],
  role: UserType,
  names: ReadonlyMap<string, string>,
): DeliveryRow[] {
  const rows: DeliveryRow[] = []
  for (const order of orders) {
    const partnerId = (role === 'producer' ? order.distributor : order.producer) ?? ''
    const partner = names.get(partnerId) ?? partnerId
    for (const delivery of order.deliveries ?? []) rows.push({ order, delivery, partner })
  }
  return rows
}

/** The filter tabs (PRODUCT §2): upcoming within 14 days, upcoming, done in the last 14 days, done. */
export type FilterKey = 'upcoming14' | 'upcoming' | 'done14' | 'done'

export const FILTERS: readonly { key: FilterKey; label: string }[] = [
  { key: 'upcoming14', label: 'À venir (14 jours)' },
  { key: 'upcoming', label: 'À venir' },
  { key: 'done14', label: 'Passées (14 jours)' },
  { key: 'done', label: 'Passées' },
]

/** Shifts a "YYYY-MM-DD" day by n days. */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10)
}

/** The last day of the month of a "YYYY-MM-DD" day. */
export function endOfMonth(day: string): string {
  const [y, m] = day.split('-').map(Number)
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10)
}

/**
 * Whether a delivery is still to come: planned, or cancelled with a date
 * not yet past. Done deliveries, and cancelled ones of past days, are past.
 */
export function isUpcoming(d: Delivery, today: string): boolean {
  return d.status === 'planned' || (d.status === 'cancelled' && d.date >= today)
}

/** Keeps the rows of a filter; `today` is the Paris day. */
export function filterRows(rows: readonly DeliveryRow[], filter: FilterKey, today: string): DeliveryRow[] {
  const soon = addDays(today, 14)
  const recent = addDays(today, -14)
  return rows.filter(({ delivery: d }) => {
    switch (filter) {
      case 'upcoming14':
        return isUpcoming(d, today) && d.date <= soon
      case 'upcoming':
        return isUpcoming(d, today)
      case 'done14':
        return !isUpcoming(d, today) && d.date >= recent
      case 'done':
        return !isUpcoming(d, today)
    }
  })
}

/** Sortable columns. */
export type SortKey = 'partner' | 'chrono' | 'status' | 'date'
export type SortDirection = 'asc' | 'desc'

/** Status sort order (PRODUCT §2): planned, done, cancelled. */
export const STATUS_ORDER: Record<DeliveryStatus, number> = { planned: 0, done: 1, cancelled: 2 }

const collator = new Intl.Collator('fr', { sensitivity: 'base', numeric: true })

function compare(a: DeliveryRow, b: DeliveryRow, key: SortKey): number {
  switch (key) {
    case 'partner':
      return collator.compare(a.partner, b.partner)
    case 'chrono':
      return a.delivery.chrono - b.delivery.chrono
    case 'status':
      return STATUS_ORDER[a.delivery.status] - STATUS_ORDER[b.delivery.status]
    case 'date':
      return a.delivery.date < b.delivery.date ? -1 : a.delivery.date > b.delivery.date ? 1 : 0
  }
}

/** Sorts rows by a column; ties by date then chrono, in the same direction. */
export function sortRows(rows: readonly DeliveryRow[], key: SortKey, direction: SortDirection): DeliveryRow[] {
  const sign = direction === 'asc' ? 1 : -1
  return [...rows].sort((a, b) => sign * (compare(a, b, key) || compare(a, b, 'date') || compare(a, b, 'chrono')))
}

/** The default sort of a filter: soonest first for what is to come, latest first for the past. */
export function defaultDirection(filter: FilterKey): SortDirection {
  return filter === 'upcoming14' || filter === 'upcoming' ? 'asc' : 'desc'
}

/** Page sizes (PRODUCT §2, §9): 5 rows, or 20. */
export const PAGE_SIZES = [5, 20] as const

/** One page of rows (pages count from 1) and the number of pages (at least 1). */
export function paginate<T>(
  rows: readonly T[],
  page: number,
  size: number,
): { rows: T[]; pages: number; page: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size))
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages)
  return { rows: rows.slice((current - 1) * size, current * size), pages, page: current }
}

/** Status labels. */
export const STATUS_LABELS: Record<DeliveryStatus, string> = {
  planned: 'Prévue',
  done: 'Livrée',
  cancelled: 'Annulée',
}

/** The claim as each side reads it: sent by the producer, received by the shop (PRODUCT §6). */
export function claimLabel(status: ClaimStatus, role: UserType, by: ClaimBy = 'producer'): string {
  // The shop's claim is made by its reception (PRODUCT §16 "Reception").
  const mine = (role === 'producer') === (by === 'producer')
  const base = `Demande d'avoir ${mine ? 'envoyée' : 'reçue'}${by === 'shop' ? ' à la réception' : ''}`
  switch (status) {
    case 'void':
      return ''
    case 'sent':
      return `${base}, en attente de réponse`
    case 'accepted':
      return `${base}, acceptée`
    case 'rejected':
      return `${base}, refusée`
  }
}

/** The delivery-note number, as on the PDF: BL-000012. */
export function noteNumber(chrono: number): string {
  return `BL-${String(chrono).padStart(6, '0')}`
}

/** Document links (PRODUCT §2). */
export const notePath = (orderId: string, deliveryId: string) =>
  `/print/delivery/${encodeURIComponent(orderId)}/${encodeURIComponent(deliveryId)}`
export const invoicePath = (orderId: string) => `/print/invoice/${encodeURIComponent(orderId)}`
export const creditNotePath = (id: string) => `/print/creditnote/${encodeURIComponent(id)}`
/** The link text of a credit note, an escompte's credit note or a complementary invoice. */
export const creditLabel = (c: CreditRef) =>
  ({
    credit: `Télécharger l'avoir ${c.number}`,
    discount: `Télécharger l'avoir d'escompte ${c.number}`,
    complement: `Télécharger la facture complémentaire ${c.number}`,
  })[c.kind]

/** Whether the delivery note can be downloaded (planned or done). */
export const hasNote = (d: Delivery) => d.status === 'planned' || d.status === 'done'

/** Default lock time of the delivery note on the delivery date, in minutes after midnight, Europe/Paris (PRODUCT §4, §9: 12h). */
export const DEFAULT_LOCK_MINUTES = 12 * 60

/** The time of day in Paris, in minutes after midnight. */
function parisMinutes(now: Date): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Paris',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now)
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  return get('hour') * 60 + get('minute')
}

/** Whether the note of a delivery dated `date` is past its lock at `now` (`lock` in minutes after midnight). */
export function isLocked(date: string, now: Date, lock = DEFAULT_LOCK_MINUTES): boolean {
  const today = dayOf(now)
  if (date !== today) return date < today
  return parisMinutes(now) >= lock
}

/** The shop may change or cancel a planned delivery before its lock. */
export function canEdit(d: Delivery, role: UserType, now: Date, lock = DEFAULT_LOCK_MINUTES): boolean {
  return role === 'distributor' && d.status === 'planned' && !isLocked(d.date, now, lock)
}

/**
 * The real lock of a delivery note, said in its editor (PRODUCT §4: the note
 * is editable until 12h on the delivery date; the landing page's 7h is
 * marketing text, and both figures are given). `lockLabel` is the setting's
 * ("12h"); nothing for a cancelled delivery.
 */
export function lockNotice(d: Delivery, now: Date, lock: number, lockLabel: string): string {
  if (d.status === 'cancelled') return ''
  if (d.status === 'planned' && !isLocked(d.date, now, lock))
    return `Bon de livraison modifiable jusqu'à ${lockLabel} le jour de la livraison, puis envoyé par email aux deux parties.`
  return `Bon de livraison verrouillé à ${lockLabel} le jour de la livraison.`
}

/** Reads a lock time "HH:MM" into minutes after midnight; the default when malformed. */
export function lockMinutes(lock: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(lock)
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return DEFAULT_LOCK_MINUTES
  return Number(m[1]) * 60 + Number(m[2])
}

/**
 * The claim window in force (`GET /api/deliveries/settings`, PRODUCT §16
 * "Claims"): a claim may be sent until the end of the `workingDays`-th
 * working day after the delivery date — Monday to Friday, `holidays` (the
 * French public holidays falling on a weekday, "YYYY-MM-DD") excepted.
 */
export interface ClaimWindow {
  workingDays: number
  holidays: readonly string[]
}

/** PRODUCT's window until the settings are read: two working days (holidays then unknown). */
export const DEFAULT_CLAIM_WINDOW: ClaimWindow = { workingDays: 2, holidays: [] }

/** Whether a "YYYY-MM-DD" day is a working day: Monday to Friday, not a holiday (core/delivery WorkingDay). */
export function isWorkingDay(day: string, holidays: readonly string[]): boolean {
  const [y, m, d] = day.split('-').map(Number)
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay()
  return weekday !== 0 && weekday !== 6 && !holidays.includes(day)
}

/**
 * The last day a claim may be sent on a delivery dated `date`: its
 * `workingDays`-th working day after it (core/delivery ClaimDeadline).
 */
export function claimDeadline(date: string, window: ClaimWindow = DEFAULT_CLAIM_WINDOW): string {
  let day = date
  for (let n = 0; n < window.workingDays;) {
    day = addDays(day, 1)
    if (isWorkingDay(day, window.holidays)) n++
  }
  return day
}

/**
 * The producer may send or modify a claim on a done delivery until the end
 * of its claim window (Paris day), while the shop has not answered, before
 * or after the order's invoice (an accepted claim is then settled by a
 * credit note).
 */
export function canClaim(row: DeliveryRow, role: UserType, now: Date, window = DEFAULT_CLAIM_WINDOW): boolean {
  const d = row.delivery
  return (
    role === 'producer' &&
    d.status === 'done' &&
    dayOf(now) <= claimDeadline(d.date, window) &&
    (d.claimStatus === 'void' || (d.claimStatus === 'sent' && d.claimBy !== 'shop'))
  )
}

/**
 * The shop may receive a delivery on its phone (PRODUCT §16 "Reception")
 * once, from when it is planned until the end of its claim window, before
 * or after its lock: receiving is not a change of the order.
 */
export function canReceive(d: Delivery, role: UserType, now: Date, window = DEFAULT_CLAIM_WINDOW): boolean {
  if (role !== 'distributor' || d.receivedAt) return false
  return d.status === 'planned' || (d.status === 'done' && dayOf(now) <= claimDeadline(d.date, window))
}

/**
 * What the producer reads of the claim window of a done delivery it has not
 * had answered: until when a claim is possible, or since when it is not.
 */
export function claimWindowNotice(row: DeliveryRow, role: UserType, now: Date, window = DEFAULT_CLAIM_WINDOW): string {
  const d = row.delivery
  if (role !== 'producer' || d.status !== 'done' || (d.claimStatus !== 'void' && d.claimStatus !== 'sent')) return ''
  if (d.claimStatus === 'sent' && d.claimBy === 'shop') return ''
  const deadline = formatLongDay(claimDeadline(d.date, window))
  if (canClaim(row, role, now, window))
    return `Demande d'avoir possible jusqu'au ${deadline} inclus (deux jours ouvrés après la livraison).`
  return `Délai de demande d'avoir dépassé : elle était possible jusqu'au ${deadline}.`
}

/**
 * Whether the system may accept a claim the shop leaves unanswered
 * (core/delivery AcceptedBySilence): it lowers the amount — some line
 * claimed down — and no line raises it. Silence is not acceptance (art.
 * 1120 C. civ.): a claim asking the shop to pay more waits for its answer.
 */
export function acceptedBySilence(claimed: readonly number[], by: ClaimBy = 'producer'): boolean {
  // The producer's: down only; the shop's (its reception): up only.
  const sign = by === 'shop' ? 1 : -1
  return claimed.some((q) => q * sign > 0) && !claimed.some((q) => q * sign < 0)
}

/**
 * What each side reads of a pending claim's answer: the shop left silent
 * accepts a claim that lowers the amount after `hours`; one that raises it
 * needs the shop's answer, which the shop is asked for.
 */
export function claimAnswerNotice(d: Delivery, role: UserType, hours: number): string {
  if (d.claimStatus !== 'sent') return ''
  if (d.claimBy === 'shop') {
    // The shop's claim waits for the producer (PRODUCT §16 "Auto-validation").
    if (
      acceptedBySilence(
        d.deliveryLines.map((l) => l.quantityClaimed),
        'shop',
      )
    )
      return role === 'producer'
        ? `Sans réponse de votre part ${hours} h après son envoi, la demande sera acceptée automatiquement.`
        : `Sans réponse du producteur ${hours} h après son envoi, la demande sera acceptée automatiquement.`
    return role === 'producer'
      ? "Le magasin a signalé ces écarts à la réception : la demande n'est acceptée que par votre réponse. Merci d'y répondre."
      : "Cette demande attend la réponse du producteur : elle n'est jamais acceptée sans elle."
  }
  if (acceptedBySilence(d.deliveryLines.map((l) => l.quantityClaimed))) {
    return role === 'producer'
      ? `Sans réponse du magasin ${hours} h après son envoi, la demande sera acceptée automatiquement.`
      : `Sans réponse de votre part ${hours} h après son envoi, la demande sera acceptée automatiquement.`
  }
  return role === 'producer'
    ? "Cette demande augmente le montant facturé : elle attend la réponse du magasin et n'est jamais acceptée sans elle."
    : "Cette demande augmente le montant facturé : elle n'est acceptée que par votre réponse. Merci d'y répondre."
}

/** Each party may answer the other's pending claim: the shop the producer's, the producer the shop's. */
export function canReview(row: DeliveryRow, role: UserType): boolean {
  // Once the order is invoiced, the answer is settled by a credit note.
  const d = row.delivery
  return d.claimStatus === 'sent' && role === (d.claimBy === 'shop' ? 'producer' : 'distributor')
}

/** The dates the shop may choose: from tomorrow to the end of the order's (or the delivery's) month. */
export function dateBounds(row: DeliveryRow, now: Date): { min: string; max: string } {
  const month = row.order.date.slice(0, 10)
  const last = [endOfMonth(month), endOfMonth(row.delivery.date)].sort()[1]
  return { min: addDays(dayOf(now), 1), max: last }
}

/**
 * Why the date picker stops where it does (PRODUCT §16 "Shop's changes"): a
 * delivery stays in its order's month, billed once the month is over.
 */
export function dateBoundsHint({ min, max }: { min: string; max: string }): string {
  const why = 'une livraison reste dans le mois de sa commande, facturée une fois le mois terminé'
  if (min > max) return `Plus aucune autre date possible : ${why}.`
  return `Au plus tôt demain, au plus tard le ${formatLongDay(max)} : ${why}.`
}
