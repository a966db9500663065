// Offers a shop can take, and a producer's suggestions of product types
// (PRODUCT §3 "Offers", "Suggesting a type"). Their own endpoints
// (`/api/offers`, `/api/type-suggestions`), outside the user load: a
// producer's offers and suggestions in their own valtio proxy, read through
// useOffers(); a shop reads the offers near a need or on a producer's page
// when it shows them (listOffers), and taking one answers the need, the
// order and the events as a trade action does (applyTradeAnswer).
import { proxy, useSnapshot } from 'valtio'
import { ApiError, api, errorMessage } from '../api'
import { progress } from '../notify'
import type { components } from '../schema.gen'
import type { TradeAnswer } from '../types'
import { held, state } from './state'
import { applyTradeAnswer } from './trade'

export type Offer = components['schemas']['OffersOffer']
export type TypeSuggestion = components['schemas']['CatalogadminSuggestion']

/** What the producer's offer form sends. */
export interface OfferInput {
  suppliedProduct: string
  /** "2027-02". */
  month: string
  quantity: number
  price: number
}

/** What the suggestion form sends. */
export interface SuggestionInput {
  name: string
  family: string
  unit: string
  note: string
}

export const OFFERS_TEXTS = {
  posted: 'Offre publiée',
  postFailed: 'Échec de la publication de l’offre',
  withdrawn: 'Offre retirée',
  withdrawFailed: 'Échec du retrait de l’offre',
  takeProgress: 'Traitement en cours',
  taken: 'Offre prise : le besoin et l’engagement sont enregistrés',
  takeFailed: 'Échec de la prise de l’offre',
  suggested: 'Suggestion envoyée',
  suggestFailed: 'Échec de l’envoi de la suggestion',
} as const

export interface OffersState {
  /** The producer's offers. */
  mine: Offer[]
  /** The producer's suggestions, newest first. */
  suggestions: TypeSuggestion[]
  loaded: boolean
}

export const offersState = proxy<OffersState>({ mine: [], suggestions: [], loaded: false })

export const useOffers = () => useSnapshot(offersState)

/** Reads the producer's offers and suggestions; a failure leaves them as they were. */
export async function loadMyOffers(): Promise<void> {
  try {
    const [offers, suggestions] = await Promise.all([
      api.get<Offer[]>('/api/offers'),
      api.get<TypeSuggestion[]>('/api/type-suggestions'),
    ])
    if (Array.isArray(offers)) offersState.mine = offers
    if (Array.isArray(suggestions)) offersState.suggestions = suggestions
    offersState.loaded = true
  } catch {
    // The sections say nothing of what they could not read.
  }
}

/** The offers a shop may take, restricted by type, month ("2027-02-01") or producer. */
export async function listOffers(
  filter: { productType?: string; month?: string; producer?: string },
  signal?: AbortSignal,
): Promise<Offer[]> {
  const query = new URLSearchParams()
  for (const [k, v] of Object.entries(filter)) if (v) query.set(k, v)
  const list = await api.get<Offer[]>(`/api/offers?${query}`, signal)
  return Array.isArray(list) ? list : []
}

/** What a form's action reports: done, or the daemon's field errors. */
export type FormOutcome = { ok: true } | { ok: false; errors: Record<string, string> }

async function send<T>(call: () => Promise<T>, texts: { ok: string; failed: string }, then: (v: T) => void) {
  const toast = progress('Modification en cours')
  try {
    const v = await call()
    then(v)
    toast.success(texts.ok)
    return { ok: true } as const
  } catch (err) {
    toast.failure(texts.failed, errorMessage(err))
    return { ok: false, errors: err instanceof ApiError ? err.fieldErrors() : {} } as const
  }
}

/** Posts an offer. */
export function postOffer(input: OfferInput): Promise<FormOutcome> {
  return send(
    () => api.post<Offer>('/api/offers', input),
    { ok: OFFERS_TEXTS.posted, failed: OFFERS_TEXTS.postFailed },
    (o) => {
      offersState.mine = [...offersState.mine, o].sort((a, b) => a.month.localeCompare(b.month))
    },
  )
}

/** Withdraws one of the producer's offers. */
export function withdrawOffer(id: string): Promise<FormOutcome> {
  return send(
    () => api.del<unknown>(`/api/offers/${encodeURIComponent(id)}`),
    { ok: OFFERS_TEXTS.withdrawn, failed: OFFERS_TEXTS.withdrawFailed },
    () => {
      offersState.mine = offersState.mine.filter((o) => o._id !== id)
    },
  )
}

/** Suggests a product type the catalogue lacks. */
export function suggestType(input: SuggestionInput): Promise<FormOutcome> {
  return send(
    () => api.post<TypeSuggestion>('/api/type-suggestions', input),
    { ok: OFFERS_TEXTS.suggested, failed: OFFERS_TEXTS.suggestFailed },
    (s) => {
      offersState.suggestions = [s, ...offersState.suggestions]
    },
  )
}

/**
 * Takes `quantity` of an offer (`POST /api/offers/{id}/take`): the need,
 * the order and the events of the answer join the store as after an
 * acceptance.
 */
export function takeOffer(id: string, quantity: number): Promise<FormOutcome> {
  return send(
    () => api.post<TradeAnswer>(`/api/offers/${encodeURIComponent(id)}/take`, { quantity }),
    { ok: OFFERS_TEXTS.taken, failed: OFFERS_TEXTS.takeFailed },
    (answer) => {
      const need = applyTradeAnswer(answer)
      // A need the take created joins the shop's list (storeNeed replaces known ones only).
      if (state.user?._id === need.distributor && !state.needs.some((n) => n._id === need._id))
        state.needs.push(held(need))
    },
  )
}

/** What a suggestion's answer says to its producer. */
export function suggestionOutcome(s: TypeSuggestion): string {
  switch (s.status) {
    case 'accepted':
      return `Ajouté au catalogue : « ${s.productTypeName} »`
    case 'merged':
      return `Déjà au catalogue : choisissez « ${s.productTypeName} »`
    default:
      return 'En attente de la réponse d’un administrateur'
  }
}
