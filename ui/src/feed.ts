// Activity feed (PRODUCT §2 "Activity feed", §4 event types): events grouped
// by calendar day in Europe/Paris, newest day first, newest event first, and
// one French sentence per event type, worded for the viewer ("vous" for its
// own actions, the emitter's name otherwise). Pure.
import { dayOf, formatEUR, formatLongDay, formatMonthYear, formatNumber, formatTime } from './format'
import type { ActivityEvent, EventType } from './types'
import { de, to } from './grammar'
import { unitAfter, unitDigits } from './units'

// The contractions of names, kept here for the feed's callers and tests.
export { de, to }

/** One day of the feed. */
/** The one field grouping needs; accepts store snapshots (readonly) as well as events. */
type Dated = Pick<ActivityEvent, 'createdAt'>

export interface FeedDay<E extends Dated = ActivityEvent> {
  /** "YYYY-MM-DD" in Europe/Paris. */
  day: string
  /** Heading, e.g. "jeudi 24 décembre 2026". */
  label: string
  /** Newest first. */
  events: FeedEntry<E>[]
}

/** One event with its display time. */
export interface FeedEntry<E extends Dated = ActivityEvent> {
  event: E
  /** "14:05" in Europe/Paris. */
  time: string
}

/** Groups events by day, newest first. Events with an unreadable date are dropped. */
export function groupEventsByDay<E extends Dated>(events: readonly E[]): FeedDay<E>[] {
  const dated = events
    .map((event) => ({ event, at: Date.parse(event.createdAt) }))
    .filter(({ at }) => Number.isFinite(at))
    .sort((a, b) => b.at - a.at)
  const days: FeedDay<E>[] = []
  for (const { event } of dated) {
    const day = dayOf(event.createdAt)
    let group = days[days.length - 1]
    if (!group || group.day !== day) {
      group = { day, label: formatLongDay(day), events: [] }
      days.push(group)
    }
    group.events.push({ event, time: formatTime(event.createdAt) })
  }
  return days
}

/**
 * Who did it: "vous" for the viewer's own actions (PRODUCT §2), else the
 * emitter's name, after the member of its team who did it when the daemon
 * names one (PRODUCT §13 "Teams"): "Marie (Épicerie du Lac)".
 */
export function emitterLabel(
  event: Pick<ActivityEvent, 'origin'> & { person?: string },
  viewerEmail: string | null | undefined,
): string {
  if (isViewer(event.origin.email, viewerEmail)) return 'vous'
  const name = event.origin.name || event.origin.email || 'Quelqu\u2019un'
  return event.person ? `${event.person} (${name})` : name
}

/** The event types of PRODUCT §4, the only ones the feed can word. */
export const EVENT_TYPES: readonly EventType[] = [
  'need:update',
  'need:delete',
  'need:create',
  'need:create:bulk',
  'need:import',
  'proposal:request',
  'proposal:review',
  'fix:request',
  'fix:review',
  'claim:request',
  'claim:review',
  'claim:autovalidate',
  'payment:record',
  'payment:declare',
  'payment:confirm',
  'payment:undo',
  'invoice:status',
]

/** PRODUCT §4: an unknown event type raises an error. */
export class UnknownEventTypeError extends Error {
  readonly type: string
  constructor(type: string) {
    super(`Type d'évènement inconnu : ${type}`)
    this.name = 'UnknownEventTypeError'
    this.type = type
  }
}

/** The line shown instead of an event that cannot be worded. */
export const UNREADABLE_EVENT = 'Activité non reconnue'

/**
 * Whether a name takes a plural verb: one starting with the article "Les "
 * or "Des " ("Les Jardins d'Alby vous ont proposé").
 */
export function isPlural(name: string): boolean {
  return /^(Les|Des) /.test(name)
}

/** The auxiliary "avoir" after a name: "a", or "ont" after a plural one. */
export function avoir(name: string): 'a' | 'ont' {
  return isPlural(name) ? 'ont' : 'a'
}

/** A quantity in words: "12,5 kg", "1 pièce", "3 pièces". */
export function quantityText(value: number, unit: string | undefined): string {
  return `${formatNumber(value, unitDigits(unit))} ${unitAfter(value, unit)}`
}

/** A change with its direction: "+20 kg", "−2,5 kg" (vector true = increase). */
export function deltaText(delta: number, vector: boolean | undefined, unit: string | undefined): string {
  const up = vector ?? delta >= 0
  return `${up ? '+' : '\u2212'}${quantityText(Math.abs(delta), unit)}`
}

/** "2026-12-12" → "12 décembre 2026", "2026-12-01" → "1er décembre 2026". */
export function formatDayInWords(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value)
  if (!m) return value
  const day = Number(m[3])
  const month = formatMonthYear(value)
  return `${day === 1 ? '1er' : day} ${month}`
}

function isViewer(email: string | undefined, viewerEmail: string | null | undefined): boolean {
  return !!viewerEmail && !!email && email.toLowerCase() === viewerEmail.toLowerCase()
}

/**
 * An invoice's status on the producer's approved platform (PRODUCT §16
 * "Electronic invoicing through an approved platform"), for the producer
 * (own: the event is its own) or the shop.
 */
function invoiceStatusText(data: ActivityEvent['data'], own: boolean, origin: string, target: string): string {
  const number = data?.number ?? ''
  const why = data?.reason ? ` (motif : ${data.reason})` : ''
  // A credit note (AV-…) is "l'avoir", masculine.
  const credit = number.startsWith('AV-')
  const e = credit ? '' : 'e'
  const yours = `${credit ? 'Votre avoir' : 'Votre facture'} ${number}`
  const theirs = `${credit ? "L'avoir" : 'La facture'} ${number} ${de(origin)}`
  const it = credit ? "l'avoir" : 'la facture'
  const pron = credit ? 'il' : 'elle'
  switch (data?.status) {
    case '200':
      return own
        ? `${yours}${target ? ` ${to(target)}` : ''} a été déposé${e} sur votre plateforme agréée.`
        : `${theirs} a été déposé${e} sur sa plateforme agréée.`
    case '210':
      return own
        ? `${target || 'Le magasin'} ${avoir(target || 'Le magasin')} refusé ${credit ? 'votre avoir' : 'votre facture'} ${number}${why}.`
        : `Vous avez refusé ${it} ${number} ${de(origin)}${why}.`
    case '212':
      return own ? `${yours} est encaissé${e}.` : `${theirs} est encaissé${e} : votre paiement est reçu.`
    case '213':
      return own
        ? `Votre plateforme agréée a rejeté ${credit ? 'votre avoir' : 'votre facture'} ${number}${why} : ${pron} est réputé${e} non émis${e}.`
        : `${theirs} a été rejeté${e} par sa plateforme agréée${why} : ${pron} est réputé${e} non émis${e}.`
    case 'irrecevable':
      return own
        ? `Votre plateforme agréée n'a pas reçu ${credit ? 'votre avoir' : 'votre facture'} ${number}${why}.`
        : `${theirs} n'a pas été reçu${e} par sa plateforme agréée.`
  }
  return `${own ? yours : theirs} : statut ${data?.status ?? ''}.`
}

/**
 * One French sentence for an event, worded for the viewer: "Vous avez …"
 * for its own actions; an event someone else emitted toward a target is, in
 * the viewer's feed, one targeting the viewer (the daemon's feed holds only
 * events the viewer emitted or is the target of), so it names the emitter
 * and says "vous"/"votre". Throws UnknownEventTypeError for a type outside
 * PRODUCT §4. Missing data fields are left out of the sentence.
 */
export function describeEvent(event: ActivityEvent, viewerEmail: string | null | undefined): string {
  const type = event.type as string
  if (!(EVENT_TYPES as readonly string[]).includes(type)) throw new UnknownEventTypeError(type)
  const data = event.data ?? {}
  const own = isViewer(event.origin?.email, viewerEmail)
  // The member of the emitter's team who did it, when named (PRODUCT §13 "Teams").
  const origin = emitterLabel({ origin: event.origin ?? {}, person: event.person }, null)
  const target = event.target?.name || ''
  // "Épicerie du Lac a proposé", "Les Jardins d'Alby ont proposé".
  const has = avoir(origin)
  // "Vous avez créé", "Épicerie a créé".
  const did = (participle: string) => (own ? `Vous avez ${participle}` : `${origin} ${has} ${participle}`)
  const unit = data.product?.unit
  const product = data.product?.name
  const qty = typeof data.quantity === 'number' ? quantityText(data.quantity, unit) : ''
  const month = data.date ? formatMonthYear(data.date) : ''
  const forMonth = month ? ` pour ${month}` : ''
  const delta = typeof data.delta === 'number' ? deltaText(data.delta, data.vector, unit) : ''
  // "120 kg de Tomate", "120 kg", "Tomate".
  const goods = qty && product ? `${qty} ${de(product)}` : qty || product || ''
  const verdict = data.outcome === undefined ? 'examiné' : data.outcome ? 'accepté' : 'refusé'
  const onDelivery = data.date ? ` pour la livraison du ${formatDayInWords(data.date)}` : ''
  const claimDetail = product && qty ? ` (${product} : ${delta || qty})` : product ? ` (${product})` : ''
  const months = (data.dates ?? []).filter(Boolean).slice().sort()
  const span =
    months.length > 1
      ? ` ${de(formatMonthYear(months[0]))} à ${formatMonthYear(months[months.length - 1])}`
      : months.length === 1
        ? ` pour ${formatMonthYear(months[0])}`
        : forMonth
  const poss = own ? 'votre' : 'son'
  const amount = typeof data.amount === 'number' ? ` de ${formatEUR(data.amount)}` : ''
  const paidOn = data.date && data.date.length === 10 ? ` du ${formatDayInWords(data.date)}` : ''

  switch (event.type) {
    case 'need:create':
      // "un besoin de 120 kg de Tomate", "un besoin de 120 kg", "un besoin de Tomate".
      return `${did('créé un besoin')}${qty ? ` de ${goods}` : product ? ` ${de(product)}` : ''}${forMonth}.`
    case 'need:update':
      return `${did(`modifié ${poss} besoin`)}${product ? ` ${de(product)}` : ''}${forMonth}${
        delta ? ` : ${delta}${qty ? ` (${qty} au total)` : ''}` : qty ? ` : ${qty}` : ''
      }.`
    case 'need:delete':
      return `${did(`supprimé ${poss} besoin`)}${product ? ` ${de(product)}` : ''}${forMonth}${qty ? ` (${qty})` : ''}.`
    case 'need:create:bulk': {
      const n = data.count ?? months.length
      const needs = n > 0 ? `${n} ${n > 1 ? 'besoins' : 'besoin'}` : 'des besoins'
      return `${did(`ajouté ${needs}`)}${product ? ` ${de(product)}` : ''}${span}${qty ? `, ${qty} au total` : ''}.`
    }
    case 'need:import': {
      const n = data.count
      const needs = n !== undefined && n > 0 ? `${n} ${n > 1 ? 'besoins' : 'besoin'}` : 'des besoins'
      return `${did(`importé ${needs}`)}${product ? ` ${de(product)}` : ''}${span}.`
    }
    case 'proposal:request': {
      const offer = `${goods || 'une offre'}${forMonth}`
      if (own) return `Vous avez proposé ${offer}${target ? ` ${to(target)}` : ''}.`
      if (target) return `${origin} vous ${has} proposé ${offer}.`
      return `${origin} ${has} proposé ${offer}.`
    }
    case 'proposal:review':
      if (own)
        return `Vous avez ${verdict} la proposition${target ? ` ${de(target)}` : ''}${goods ? ` : ${goods}` : ''}${forMonth}.`
      if (target) return `${origin} ${has} ${verdict} votre proposition${goods ? ` : ${goods}` : ''}${forMonth}.`
      return `${origin} ${has} ${verdict} une proposition${goods ? ` : ${goods}` : ''}${forMonth}.`
    case 'fix:request': {
      const what = `de corriger l'engagement${product ? ` ${de(product)}` : ''}${forMonth}${qty ? ` : ${qty}${delta ? ` (${delta})` : ''}` : ''}`
      if (own) return `Vous avez demandé${target ? ` ${to(target)}` : ''} ${what}.`
      if (target) return `${origin} vous ${has} demandé ${what}.`
      return `${origin} ${has} demandé ${what}.`
    }
    case 'fix:review': {
      const what = `l'engagement${product ? ` ${de(product)}` : ''}${forMonth}${qty ? ` : ${qty}` : ''}`
      if (own) return `Vous avez ${verdict} la correction${target ? ` ${de(target)}` : ''} sur ${what}.`
      if (target) return `${origin} ${has} ${verdict} votre correction sur ${what}.`
      return `${origin} ${has} ${verdict} une correction sur ${what}.`
    }
    case 'claim:request':
      if (own)
        return `Vous avez envoyé une demande d'avoir${target ? ` ${to(target)}` : ''}${onDelivery}${claimDetail}.`
      if (target) return `${origin} vous ${has} envoyé une demande d'avoir${onDelivery}${claimDetail}.`
      return `${origin} ${has} envoyé une demande d'avoir${onDelivery}${claimDetail}.`
    case 'claim:review':
      if (own) return `Vous avez ${verdict} la demande d'avoir${target ? ` ${de(target)}` : ''}${onDelivery}.`
      if (target) return `${origin} ${has} ${verdict} votre demande d'avoir${onDelivery}.`
      return `${origin} ${has} ${verdict} une demande d'avoir${onDelivery}.`
    case 'claim:autovalidate':
      // Emitted on behalf of the claim's author (the producer), toward the
      // shop that did not answer in time.
      if (own)
        return `Votre demande d'avoir${target ? ` ${to(target)}` : ''}${onDelivery} a été validée automatiquement, faute de réponse dans le délai prévu.`
      return `La demande d'avoir ${de(origin)}${onDelivery} a été validée automatiquement, faute de réponse${
        target ? ' de votre part' : ''
      } dans le délai prévu.`
    case 'payment:record':
      // The producer records a payment received from the shop.
      if (own) return `Vous avez enregistré un paiement${amount}${target ? ` ${de(target)}` : ''}${paidOn}.`
      return `${origin} ${has} enregistré votre paiement${amount}${paidOn}.`
    case 'payment:declare':
      // The shop declares a payment sent to the producer.
      if (own) return `Vous avez déclaré un paiement${amount}${target ? ` ${to(target)}` : ''}${paidOn}.`
      return `${origin} ${has} déclaré vous avoir payé${amount.replace(/^ de /, ' ')}${paidOn.replace(/^ du /, ' le ')} : confirmez-le à sa réception.`
    case 'payment:confirm': {
      const confirmed = data.outcome === false ? 'refusé' : 'confirmé'
      if (own) return `Vous avez ${confirmed} le paiement${amount}${target ? ` ${de(target)}` : ''}${paidOn}.`
      return `${origin} ${has} ${confirmed} votre paiement${amount}${paidOn}.`
    }
    case 'payment:undo':
      if (own) return `Vous avez annulé le paiement${amount}${paidOn}.`
      return `${origin} ${has} annulé le paiement${amount}${paidOn}.`
    case 'invoice:status':
      return invoiceStatusText(data, own, origin, target)
  }
  throw new UnknownEventTypeError(type)
}
