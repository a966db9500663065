// Activity feed grouping (SPEC §2 "Activity feed"): events grouped by
// calendar day in Europe/Paris, newest day first, newest event first.
// Per-type wording comes later; this module only orders and groups.
import { dayOf, formatLongDay, formatTime } from './format'
import type { ActivityEvent } from './types'

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

/** Who did it: "vous" for the viewer's own actions (SPEC §2), else the emitter's name. */
export function emitterLabel(event: Pick<ActivityEvent, 'origin'>, viewerEmail: string | null | undefined): string {
  if (viewerEmail && event.origin.email.toLowerCase() === viewerEmail.toLowerCase()) return 'vous'
  return event.origin.name || event.origin.email
}
