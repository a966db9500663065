// The browser's position for the map (PRODUCT §2 "Map", §7: the map uses the
// browser geolocation facility and makes no network call itself).
import { useEffect, useState } from 'react'
import type { LonLat } from './geo'

/** pending: asked, no answer yet; known: position set; unavailable: no API, denied or failed. */
export type PositionStatus = 'pending' | 'known' | 'unavailable'

export interface BrowserPosition {
  status: PositionStatus
  /** [lon, lat] once known. */
  position: LonLat | null
}

/** Asks the browser for its position once. Geolocation missing, denied or failing leaves it unavailable. */
export function useBrowserPosition(): BrowserPosition {
  const [state, setState] = useState<BrowserPosition>(() =>
    typeof navigator !== 'undefined' && navigator.geolocation
      ? { status: 'pending', position: null }
      : { status: 'unavailable', position: null },
  )
  useEffect(() => {
    const geolocation = typeof navigator !== 'undefined' ? navigator.geolocation : undefined
    if (!geolocation) return
    let live = true
    try {
      geolocation.getCurrentPosition(
        ({ coords }) => {
          if (!live) return
          if (Number.isFinite(coords.longitude) && Number.isFinite(coords.latitude)) {
            setState({ status: 'known', position: [coords.longitude, coords.latitude] })
          } else {
            setState({ status: 'unavailable', position: null })
          }
        },
        () => {
          if (live) setState({ status: 'unavailable', position: null })
        },
        { maximumAge: 10 * 60_000, timeout: 15_000 },
      )
    } catch {
      setState({ status: 'unavailable', position: null })
    }
    return () => {
      live = false
    }
  }, [])
  return state
}
