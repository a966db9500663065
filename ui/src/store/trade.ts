// Trade actions (PRODUCT §4 proposals, §7 proposal calls, §8 toasts): propose
// (or counter-propose, or correct), answer the open proposal, withdraw it.
// Each answers the need and what else it changed (TradeAnswer): the need
// replaces the stored one, the order is upserted (or removed), the events
// prepended to the feed; the user is never
// loaded again. The actions show their toasts and return what happened;
// they never navigate.
import { ApiError, api, errorMessage } from '../api'
import { progress } from '../notify'
import type { Need, TradeAnswer } from '../types'
import { forgetComparisons } from './comparison'
import { prependEvents, removeOrder, upsertOrder } from './merge'
import { held, state } from './state'

/** The daemon's detail when a producer has no delivery day (PRODUCT §8). */
export const NO_DELIVERY_DAYS_DETAIL = 'Producer should first provide delivery days'

/** Toast texts of PRODUCT §8. */
export const TRADE_MESSAGES = {
  noDeliveryDays: "Veuillez renseigner vos jours de livraison sur la page d'accueil avant de soumettre une proposition",
  createProgress: 'Création en cours',
  created: 'Création effectuée',
  proposeProgress: 'Modification en cours',
  proposed: 'Modification effectuée',
  proposeFailed: 'Échec de la modification',
  reviewProgress: 'Traitement en cours',
  reviewed: 'Votre réponse a été correctement enregistrée',
  reviewFailed: 'Échec de la modification',
  withdrawProgress: 'Suppression en cours',
  withdrawn: 'Suppression effectuée',
  withdrawFailed: 'Échec de la suppression',
} as const

/** What an action did: the need, or the failure with field messages (422). */
export type TradeResult = { ok: true; need: Need } | { ok: false; message: string; fieldErrors: Record<string, string> }

/** A proposal's body. */
export interface Offer {
  quantity: number
  price: number
  /** The producer's own product it names; '' none; absent keeps the one named. */
  suppliedProduct?: string
}

const path = (base: string, needId: string, producerId: string) =>
  `/api/${base}/${encodeURIComponent(needId)}/${encodeURIComponent(producerId)}`

/** Replaces a need wherever the store holds it (the user's needs, or a shop's needs viewed by a producer). */
export function storeNeed(need: Need): void {
  const replace = (list: Need[]) => {
    const i = list.findIndex((n) => n._id === need._id)
    if (i >= 0) list[i] = held(need)
    return i >= 0
  }
  const known = replace(state.needs)
  // The shop's needs a producer is viewing in the planner.
  if (state.shopNeeds.distributor === need.distributor) replace(state.shopNeeds.needs)
  // A producer's own list holds the needs it trades on: add a new one.
  if (!known && state.user?.type === 'producer' && need.proposals.length > 0) state.needs.push(held(need))
}

/**
 * Brings the store up to date with a trade answer, as a new user load would
 * show it: the need replaced, the order upserted or removed, the events
 * recorded put on top of the feed. An acceptance (it answers the order)
 * changed the commitments the price comparisons count: they are read again.
 * Returns the need.
 */
export function applyTradeAnswer(answer: TradeAnswer): Need {
  const { order, removedOrder, events, ...need } = answer
  storeNeed(need)
  if (order) upsertOrder(order)
  if (removedOrder) removeOrder(removedOrder)
  if (order || removedOrder) forgetComparisons()
  prependEvents(events ?? [])
  return need
}

async function run(
  titles: { progress: string; success: string; failure: string },
  call: () => Promise<TradeAnswer>,
): Promise<TradeResult> {
  const toast = progress(titles.progress)
  try {
    const need = applyTradeAnswer(await call())
    toast.success(titles.success)
    return { ok: true, need }
  } catch (err) {
    if (err instanceof ApiError && err.detail === NO_DELIVERY_DAYS_DETAIL) {
      toast.failure(TRADE_MESSAGES.noDeliveryDays)
      return { ok: false, message: TRADE_MESSAGES.noDeliveryDays, fieldErrors: {} }
    }
    const message = errorMessage(err)
    toast.failure(titles.failure, message)
    return { ok: false, message, fieldErrors: err instanceof ApiError ? err.fieldErrors() : {} }
  }
}

/**
 * What a submission of the proposal form does: `create` a first proposal
 * (nothing on the need yet), or `modify` — modify, counter-propose, correct.
 */
export type ProposeKind = 'create' | 'modify'

/**
 * Creates or replaces the open proposal of a producer on a need (`PUT
 * /api/proposals/{needId}/{producerId}`). A first proposal is a creation
 * ("Création en cours", "Création effectuée"); the others modify
 * ("Modification …"). Every proposal failure reads "Échec de la
 * modification" (PRODUCT §8: "Other proposal failures").
 */
export function propose(needId: string, producerId: string, offer: Offer, kind: ProposeKind): Promise<TradeResult> {
  return run(
    kind === 'create'
      ? {
          progress: TRADE_MESSAGES.createProgress,
          success: TRADE_MESSAGES.created,
          failure: TRADE_MESSAGES.proposeFailed,
        }
      : {
          progress: TRADE_MESSAGES.proposeProgress,
          success: TRADE_MESSAGES.proposed,
          failure: TRADE_MESSAGES.proposeFailed,
        },
    () => api.put<TradeAnswer>(path('proposals', needId, producerId), offer),
  )
}

/** Accepts or refuses the open proposal (`PUT /api/proposalreview/{needId}/{producerId}`). */
export function review(needId: string, producerId: string, accepted: boolean): Promise<TradeResult> {
  return run(
    { progress: TRADE_MESSAGES.reviewProgress, success: TRADE_MESSAGES.reviewed, failure: TRADE_MESSAGES.reviewFailed },
    () => api.put<TradeAnswer>(path('proposalreview', needId, producerId), { accepted }),
  )
}

/** Withdraws the open proposal (`DELETE /api/proposals/{needId}/{producerId}`). */
export function withdraw(needId: string, producerId: string): Promise<TradeResult> {
  return run(
    {
      progress: TRADE_MESSAGES.withdrawProgress,
      success: TRADE_MESSAGES.withdrawn,
      failure: TRADE_MESSAGES.withdrawFailed,
    },
    () => api.del<TradeAnswer>(path('proposals', needId, producerId)),
  )
}
