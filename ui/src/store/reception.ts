// The shop's receptions (PRODUCT §16 "Reception"): each goes through the
// queue of src/reception/queue.ts — written on the phone, then sent to
// POST /api/deliveries/reception/{orderId}/{deliveryId}, whose answer, the
// order, replaces the stored one. The queue is drained when the network
// returns, at the start and after each reception typed.
import { api } from '../api'
import { type QueuedReception, type ReceptionBody, drain, enqueue, queueState, waitingOf } from '../reception/queue'
import type { Order } from '../types'
import { upsertOrder } from './merge'
import { state } from './state'

const receptionPath = (orderId: string, deliveryId: string) =>
  `/api/deliveries/reception/${encodeURIComponent(orderId)}/${encodeURIComponent(deliveryId)}`

/** Sends one reception and stores the order it answers. */
export async function sendReception(r: QueuedReception): Promise<void> {
  upsertOrder(await api.post<Order>(receptionPath(r.orderId, r.deliveryId), r.body))
}

/** Sends what waits for the logged-in account; answers how many went. */
export async function drainReceptions(): Promise<number> {
  const email = state.email
  if (!email) return 0
  return drain(email, sendReception)
}

/** Reads the account's waiting receptions into the queue's state. */
export async function refreshReceptions(): Promise<void> {
  const email = state.email
  queueState.waiting = email ? await waitingOf(email) : []
}

/**
 * Keeps the shop's reception on the phone, then tries to send it: 'sent'
 * once the daemon has it, 'queued' when it waits for the network, or the
 * daemon's refusal.
 */
export async function receive(
  orderId: string,
  deliveryId: string,
  body: ReceptionBody,
): Promise<'sent' | 'queued' | { refused: string }> {
  const email = state.email
  if (!email) return 'queued'
  await enqueue({ key: body.key, email, orderId, deliveryId, body })
  await drainReceptions()
  const left = queueState.waiting.find((r) => r.key === body.key)
  if (!left) return 'sent'
  return left.refused ? { refused: left.refused } : 'queued'
}

/** Starts the queue: what waits is sent now and whenever the network returns. */
export function startReceptionQueue(): void {
  const go = () => {
    void refreshReceptions()
      .then(drainReceptions)
      .catch((err) => console.error('receptions:', err))
  }
  window.addEventListener('online', go)
  go()
}
