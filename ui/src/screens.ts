// The protected screens' code (PRODUCT §2), split out of the entry so the
// landing page stays small, and how the entry fetches a screen's code and
// the user load at the same time (issue 19 "Fast on a slow line"): without
// it the browser waited for the shell's code, then the user load, then the
// screen's code, one after the other.
import type { ComponentType } from 'react'
import { parse } from 'regexparam'
import { matchRoute } from 'wouter'
import { ROUTES } from './routing'

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
 * At the entry, before the first render: for a visitor with a stored
 * session on a protected path, starts the user load, the shell's code and
 * the screen's code together. The shell's effect then finds the load under
 * way, and `lazy` finds the chunks fetched (a module is fetched once).
 * Returns the screen started, or null when there is nothing to start.
 */
export function startScreen(path: string, loggedIn: boolean, loadUser: () => unknown): keyof typeof SCREENS | null {
  const screen = screenOf(path)
  if (!screen || !loggedIn) return null
  loadUser()
  // A chunk that fails here fails again, and is reported, when the route renders it.
  void loadShell().catch(() => undefined)
  void SCREENS[screen]().catch(() => undefined)
  return screen
}
