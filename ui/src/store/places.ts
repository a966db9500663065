// The place reference of the server (PRODUCT §3 "Place reference"): `GET
// /api/places` finds every French commune by postal code or name. Answers are
// kept per query (the last 50), so retyping or going back costs no request;
// the reference itself never comes to the browser.
import { proxy, useSnapshot } from 'valtio'
import { api } from '../api'
import { type PlaceMatch, placeMatchOf } from '../map/places'

export interface PlacesState {
  /** Answers by `placesKey`. */
  answers: Record<string, PlaceMatch[]>
  /** Keys of `answers`, oldest first. */
  order: string[]
}

/** How many answers the store keeps. */
export const PLACES_KEPT = 50

export const places = proxy<PlacesState>({ answers: {}, order: [] })

/** Empties the store (tests, and a change of user). */
export function resetPlaces(): void {
  Object.assign(places, { answers: {}, order: [] })
}

/** The key of a query: what the server reads of it (trimmed, spaces collapsed) and the limit. */
export function placesKey(query: string, limit: number): string {
  return `${limit}|${query.trim().replace(/\s+/g, ' ').toLowerCase()}`
}

/** The answer kept for a query, undefined when there is none yet. */
export const usePlacesAnswer = (key: string): readonly PlaceMatch[] | undefined =>
  // A snapshot is deeply read-only; the places are only read.
  useSnapshot(places).answers[key] as readonly PlaceMatch[] | undefined

function isPlaceList(x: unknown): x is { places: unknown[] } {
  return !!x && Array.isArray((x as { places?: unknown }).places)
}

/**
 * The places for what a user typed, best first, at most `limit` (1 to 50).
 * A blank query is answered at once with none. `signal` cancels the request
 * (the promise then rejects with the AbortError); a failure rejects with the
 * ApiError, and nothing is kept.
 */
export async function searchPlaces(
  query: string,
  { limit = 10, signal }: { limit?: number; signal?: AbortSignal } = {},
): Promise<PlaceMatch[]> {
  const q = query.trim().replace(/\s+/g, ' ').slice(0, 100)
  if (q === '') return []
  const key = placesKey(q, limit)
  const kept = places.answers[key]
  if (kept) return kept
  const answer = await api.get<unknown>(`/api/places?q=${encodeURIComponent(q)}&limit=${limit}`, signal)
  if (!isPlaceList(answer)) throw new Error('réponse inattendue de /api/places')
  const matches = answer.places.map(placeMatchOf).filter((m): m is PlaceMatch => m !== null)
  if (!(key in places.answers)) places.order.push(key)
  places.answers[key] = matches
  while (places.order.length > PLACES_KEPT) delete places.answers[places.order.shift()!]
  return matches
}
