// Status messages said to screen readers (WCAG 4.1.3, RGAA 7.5): a
// polite live region that exists from the first render (LiveRegion) and
// receives the text of each status the interface shows — the toasts'
// progress and success titles (notify.ts). A region added with its text
// is often not read; this one is always there. Failures keep their own
// role="alert", read at once.
import { useSyncExternalStore } from 'react'

let current = { text: '', seq: 0 }
const listeners = new Set<() => void>()

/** Says `text` politely (after what is being read). The same text twice is said twice. */
export function announce(text: string): void {
  const trimmed = text.trim()
  if (!trimmed) return
  current = { text: trimmed, seq: current.seq + 1 }
  listeners.forEach((listener) => listener())
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The latest announcement, and its number (a repeated text changes the number). */
export function useAnnouncement(): { text: string; seq: number } {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  )
}
