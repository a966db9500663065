// The server's places for what a user is typing (PRODUCT §2 "Map", "Profile
// form"): asked once typing pauses, the request of a query typed over
// cancelled, answers kept in the store (store/places.ts).
import { useEffect, useRef, useState } from 'react'
import { placesKey, searchPlaces, usePlacesAnswer } from '../store/places'
import type { PlaceMatch } from './places'

/** How long typing must pause before a request, in ms. */
export const PLACE_SEARCH_DELAY = 250

export type PlaceSearchStatus = 'idle' | 'loading' | 'done' | 'error'

const NONE: readonly PlaceMatch[] = []

/**
 * The places for `query`, best first, at most `limit`: none for a blank
 * query; while a new answer is on its way, the previous one stays (status
 * "loading"); "error" when the server could not answer.
 */
export function usePlaceSearch(
  query: string,
  { limit = 10, delay = PLACE_SEARCH_DELAY }: { limit?: number; delay?: number } = {},
): { matches: readonly PlaceMatch[]; status: PlaceSearchStatus } {
  const blank = query.trim() === ''
  const key = placesKey(query, limit)
  const answer = usePlacesAnswer(key)
  const [failed, setFailed] = useState<string | null>(null)
  const shown = useRef<readonly PlaceMatch[]>(NONE)

  useEffect(() => {
    if (blank || answer) return
    const controller = new AbortController()
    const timer = setTimeout(() => {
      searchPlaces(query, { limit, signal: controller.signal })
        .then(() => setFailed(null))
        .catch((err: unknown) => {
          if (controller.signal.aborted) return
          console.error('places:', err)
          setFailed(key)
        })
    }, delay)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
    // The key says everything of the query and limit that the request reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, blank, answer !== undefined, delay])

  if (blank) {
    shown.current = NONE
    return { matches: NONE, status: 'idle' }
  }
  if (answer) {
    shown.current = answer
    return { matches: answer, status: 'done' }
  }
  if (failed === key) return { matches: NONE, status: 'error' }
  return { matches: shown.current, status: 'loading' }
}
