// How an answer that carries part of the user load brings the store up to
// date without loading the user again (`GET /api/user`): one rule per list,
// shared by the actions (trade answers, a delivery's order, the event of a
// bulk add or an import). Each item is shaped as in the user load.
import type { ActivityEvent, Order } from '../types'
import { held, state } from './state'

/** Replaces the order with the same `_id`, or adds it. */
export function upsertOrder(order: Order): void {
  const i = state.orders.findIndex((o) => o._id === order._id)
  if (i >= 0) state.orders[i] = held(order)
  else state.orders.push(held(order))
}

/** Takes out an order the daemon deleted. */
export function removeOrder(id: string): void {
  const i = state.orders.findIndex((o) => o._id === id)
  if (i >= 0) state.orders.splice(i, 1)
}

/**
 * Puts new events, newest first, on top of the feed (the user load's
 * order). An event already held (same `_id`) is not added twice.
 */
export function prependEvents(events: readonly ActivityEvent[]): void {
  const known = new Set(state.events.map((e) => e._id).filter((id) => id !== undefined))
  const fresh = events.filter((e) => e._id === undefined || !known.has(e._id))
  if (fresh.length > 0) state.events.unshift(...fresh.map((e) => held(e)))
}
