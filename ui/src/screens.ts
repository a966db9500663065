// The protected screens' code (PRODUCT §2), split out of the entry so the
// landing page stays small, and how the entry fetches a screen's code and
// the user load at the same time (issue 19 "Fast on a slow line"): without
// it the browser waited for the shell's code, then the user load, then the
// screen's code, one after the other.
import type { ComponentType } from 'react'
import { parse } from 'regexparam'
import { matchRoute } from 'wouter'
import { subscribe } from 'valtio'
import { readAhead } from './api'
import { dayOf } from './format'
import { firstMapArea } from './map/ahead'
import { shopLonLat } from './map/coordinates'
import { addMonths, currentMonth, spanFor } from './planner/period'
import { ROUTES } from './routing'
import { ordersPeriod, periodPath, shopNeedsPath } from './store/periods'
import { state } from './store/state'
import type { User } from './types'

/** Fetches a code chunk whose default export is a component (React's `lazy` contract). */
export type ChunkLoader = () => Promise<{ default: ComponentType }>

/** The frame of every protected screen (user load, bottom navigation). */
export const loadShell = () => import('./components/ProtectedShell').then((m) => ({ default: m.ProtectedShell }))

/** Each protected route's screen. Both payments routes share one screen. */
export const SCREENS = {
  dashboard: () => import('./pages/Dashboard').then((m) => ({ default: m.Dashboard })),
  prodNeeds: () => import('./pages/ProducerNeeds').then((m) => ({ default: m.ProducerNeeds })),
  prodDeliveries: () => import('./pages/ProducerDeliveries').then((m) => ({ default: m.ProducerDeliveries })),
  prodDay: () => import('./pages/ProducerDay').then((m) => ({ default: m.ProducerDay })),
  disNeeds: () => import('./pages/DistributorNeeds').then((m) => ({ default: m.DistributorNeeds })),
  disSupply: () => import('./pages/DistributorSupply').then((m) => ({ default: m.DistributorSupply })),
  disDeliveries: () => import('./pages/DistributorDeliveries').then((m) => ({ default: m.DistributorDeliveries })),
  disReception: () => import('./pages/ShopReception').then((m) => ({ default: m.ShopReception })),
  prodPayments: () => import('./pages/Payments').then((m) => ({ default: m.Payments })),
  disPayments: () => import('./pages/Payments').then((m) => ({ default: m.Payments })),
  prodProducts: () => import('./pages/ProducerProducts').then((m) => ({ default: m.ProducerProducts })),
  disProducer: () => import('./pages/ProducerPage').then((m) => ({ default: m.ProducerPage })),
  team: () => import('./team/TeamPage').then((m) => ({ default: m.TeamPage })),
} as const satisfies Partial<Record<keyof typeof ROUTES, ChunkLoader>>

/** The protected screen of `path` (its route's name), or null for a public or unknown path. */
export function screenOf(path: string): keyof typeof SCREENS | null {
  for (const name of Object.keys(SCREENS) as (keyof typeof SCREENS)[]) {
    if (matchRoute(parse, ROUTES[name], path)[0]) return name
  }
  return null
}

/**
 * The API reads a screen makes as it first renders, as the store builds
 * their addresses (pure): the planner's months in view from the current
 * month (8, or 3 in a portrait window of `width` × `height`), the
 * deliveries' first tab (the weeks around `now`) and their settings, the
 * payments, the dashboard's statistics. The map, whose read follows the
 * viewer's place, is read once the user is known (`startUserReads`).
 */
export function screenReads(
  screen: keyof typeof SCREENS,
  path: string,
  now: Date,
  width: number,
  height: number,
): string[] {
  const from = currentMonth(now)
  const months = { from, to: addMonths(from, spanFor(width, height) - 1) }
  switch (screen) {
    case 'dashboard':
      return ['/api/stats/progression', '/api/stats/purchases']
    case 'disNeeds':
      return [periodPath('needs', months)]
    case 'prodNeeds': {
      const [, params] = matchRoute(parse, ROUTES.prodNeeds, path)
      return params?.distributorId ? [shopNeedsPath(params.distributorId, months)] : []
    }
    case 'disDeliveries':
    case 'prodDeliveries':
      return [
        periodPath('orders', ordersPeriod('upcoming14', dayOf(now))),
        '/api/deliveries/settings',
        '/api/accounting',
      ]
    case 'disPayments':
    case 'prodPayments':
      return ['/api/payments']
    default:
      return []
  }
}

/** Calls `then` with the user once the user load has it (at once if it has); never if the load fails. */
function whenUser(then: (user: User) => void): void {
  if (state.user) return then(state.user)
  const stop = subscribe(state, () => {
    if (state.user) {
      stop()
      then(state.user)
    } else if (state.loading.user === 'error' || state.rejected) stop()
  })
}

/**
 * The reads of a screen that need the user, started once the user load
 * has it (beside the screen's code on a slow line): the dashboard's map's
 * first area, around the viewer's own place and as wide as the window
 * (map/ahead.ts firstMapArea), which the map's store serves its first view
 * from (store/shopmap.ts readMapAhead, issue 42).
 */
export function startUserReads(screen: keyof typeof SCREENS, width: number): void {
  if (screen !== 'dashboard') return
  whenUser((user) => {
    const area = firstMapArea(shopLonLat(user), width)
    // The map's store comes with the dashboard's code; a failure here is the map's to meet again.
    void import('./store/shopmap').then((m) => m.readMapAhead(area)).catch(() => undefined)
  })
}

/**
 * At the entry, before the first render: for a visitor with a stored
 * session on a protected path, starts the user load, the shell's code, the
 * screen's code and the screen's own reads (`screenReads`, and `startUserReads` once the user is
 * known, issue 42) together. The shell's
 * effect then finds the load under way, `lazy` finds the chunks fetched
 * (a module is fetched once), and the screen's store
 * takes the answers its reads asked for (api.ts `readAhead`) instead of
 * asking once its code has run. Returns the screen started, or null when
 * there is nothing to start.
 */
export function startScreen(
  path: string,
  loggedIn: boolean,
  loadUser: () => unknown,
  read: (path: string) => void = readAhead,
): keyof typeof SCREENS | null {
  const screen = screenOf(path)
  if (!screen || !loggedIn) return null
  loadUser()
  for (const address of screenReads(screen, path, new Date(), window.innerWidth, window.innerHeight)) read(address)
  startUserReads(screen, window.innerWidth)
  // A chunk that fails here fails again, and is reported, when the route renders it.
  void loadShell().catch(() => undefined)
  void SCREENS[screen]().catch(() => undefined)
  return screen
}
