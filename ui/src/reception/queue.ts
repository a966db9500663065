// The receptions typed on the phone, kept until the daemon has them
// (PRODUCT §16 "Reception", §20 "Offline"). Every reception goes through
// this queue, online or not: it is written to IndexedDB (idb-keyval) first,
// then sent; one that cannot be sent — no network, the daemon out of
// reach — stays and goes when the network returns (`online`), at the next
// start, or at the next reception. Each carries the key the phone made when
// it was typed: sent twice (two tabs draining at once, an answer lost on
// the way back), the daemon records it once and answers the same order.
// A reception the daemon refuses (4xx: the delivery locked meanwhile, a
// photo it cannot read) stays with the refusal's text, for the shop to read
// and discard; it is never sent again by itself.
import { createStore, del, entries, set, type UseStore } from 'idb-keyval'
import { proxy } from 'valtio'
import { ApiError } from '../api'

/** What the phone sends: the body of POST /api/deliveries/reception/{orderId}/{deliveryId}. */
export interface ReceptionBody {
  key: string
  receivedBy: string
  /** RFC 3339: when it was typed. */
  receivedAt: string
  /** The drawn signature, base64 PNG. */
  signature?: string
  deliveryLines: {
    _id: string
    quantityReceived: number
    receptionReason?: 'quality' | 'quantity'
    receptionComment?: string
    /** The photo of the problem, base64 JPEG. */
    photo?: string
  }[]
}

/** A reception waiting in the queue. */
export interface QueuedReception {
  /** The reception's key, also its key in the store. */
  key: string
  /** The account that typed it: only its session sends it. */
  email: string
  orderId: string
  deliveryId: string
  body: ReceptionBody
  /** The daemon's refusal, when it refused it (never sent again). */
  refused?: string
}

/** The queue as the screens read it, for the logged-in account. */
export const queueState = proxy<{ waiting: QueuedReception[]; sending: boolean }>({ waiting: [], sending: false })

let store: UseStore | null = null
const db = () => (store ??= createStore('primeur-receptions', 'queue'))

/** The waiting receptions of `email`, oldest first (by their typing time). */
export async function waitingOf(email: string): Promise<QueuedReception[]> {
  const all = await entries<string, QueuedReception>(db())
  return all
    .map(([, r]) => r)
    .filter((r) => r.email === email)
    .sort((a, b) => a.body.receivedAt.localeCompare(b.body.receivedAt) || a.key.localeCompare(b.key))
}

async function refresh(email: string): Promise<void> {
  queueState.waiting = await waitingOf(email)
}

/** Keeps a reception until it is sent. */
export async function enqueue(r: QueuedReception): Promise<void> {
  await set(r.key, r, db())
  await refresh(r.email)
}

/** Forgets a reception (sent, or a refused one the shop discards). */
export async function discard(email: string, key: string): Promise<void> {
  await del(key, db())
  await refresh(email)
}

/** What sending one reception did. */
export type Outcome = 'sent' | 'later' | { refused: string }

/** Sends one reception; the daemon's answer decides what becomes of it. */
export type Send = (r: QueuedReception) => Promise<unknown>

/** What an error of `send` means for the queue: try later, or refused for good. */
export function outcomeOf(err: unknown): Outcome {
  if (
    err instanceof ApiError &&
    err.status >= 400 &&
    err.status < 500 &&
    err.status !== 401 &&
    err.status !== 408 &&
    err.status !== 429
  ) {
    return { refused: err.detail || err.title || `HTTP ${err.status}` }
  }
  return 'later' // no network, the daemon busy or away, the session to open again
}

let draining: Promise<number> | null = null
let again = false

/**
 * Sends the waiting receptions of `email`, oldest first, until one cannot
 * go (then the rest wait too: the network is likely gone). Answers how many
 * were sent. A drain already running is joined, not doubled; it makes one
 * more pass once done, so that a call that came meanwhile (the network
 * back while a pass was failing offline) is not lost.
 */
export function drain(email: string, send: Send): Promise<number> {
  if (draining) {
    again = true
    return draining
  }
  draining = (async () => {
    queueState.sending = true
    let sent = 0
    try {
      do {
        again = false
        sent += await pass(email, send)
      } while (again)
    } finally {
      queueState.sending = false
      draining = null
      await refresh(email)
    }
    return sent
  })()
  return draining
}

/** One pass of drain: sends what waits until one cannot go; answers how many went. */
async function pass(email: string, send: Send): Promise<number> {
  let sent = 0
  for (const r of await waitingOf(email)) {
    if (r.refused) continue
    let outcome: Outcome = 'sent'
    try {
      await send(r)
    } catch (err) {
      outcome = outcomeOf(err)
    }
    if (outcome === 'later') break
    if (outcome === 'sent') {
      await del(r.key, db())
      sent++
    } else {
      await set(r.key, { ...r, refused: outcome.refused }, db())
    }
  }
  return sent
}

/** "3 réceptions en attente d'envoi", or null when none waits to be sent. */
export function waitingLabel(waiting: readonly { readonly refused?: string }[]): string | null {
  const n = waiting.filter((r) => !r.refused).length
  if (n === 0) return null
  return n === 1 ? "1 réception en attente d'envoi" : `${n} réceptions en attente d'envoi`
}

/** Makes a reception's key: a random UUID where the browser has one. */
export function newKey(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID()
  return `r-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`
}
