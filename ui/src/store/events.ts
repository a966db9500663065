// Activity feed paging (PRODUCT §2 "Activity feed"): the user load carries the
// newest 50 events; older ones come from `GET /api/events?before=ID`.
import { api } from '../api'
import { reportError } from './session'
import { dashboard } from './dashboard'
import { held, state } from './state'
import type { ActivityEvent } from '../types'

/** Size of a feed page (the daemon's default, and the user load's). */
export const EVENTS_PAGE = 50

/** Whether older events may exist: the list holds at least a page and paging back has not run dry. */
export function hasOlderEvents(events: readonly Pick<ActivityEvent, '_id'>[], exhaustedAt: string | null): boolean {
  const oldest = events.at(-1)?._id
  return events.length >= EVENTS_PAGE && !!oldest && oldest !== exhaustedAt
}

/** Appends the page of events older than the oldest held. Returns how many came. */
export async function loadOlderEvents(): Promise<number> {
  const oldest = state.events.at(-1)?._id
  if (!oldest || state.loading.events === 'busy') return 0
  state.loading.events = 'busy'
  try {
    const page = await api.get<ActivityEvent[]>(`/api/events?before=${encodeURIComponent(oldest)}&limit=${EVENTS_PAGE}`)
    const known = new Set(state.events.map((e) => e._id))
    const fresh = (page ?? []).filter((e) => !known.has(e._id))
    state.events.push(...fresh.map((e) => held(e)))
    if ((page ?? []).length < EVENTS_PAGE) dashboard.eventsExhaustedAt = state.events.at(-1)?._id ?? null
    state.loading.events = 'idle'
    return fresh.length
  } catch (err) {
    state.loading.events = 'error'
    reportError('Échec du chargement', err)
    return 0
  }
}
