// The one valtio store of the app (PRODUCT §20): a mirror of the user load
// (`GET /api/user`) plus a few UI flags. Components read it through the
// hooks of `hooks.ts`; only the action modules (`session.ts`, …) write it.
import { proxy, ref } from 'valtio'
import { forgetAnswers } from '../api'
import { forgetComparisons } from './comparison'
import type {
  ActivityEvent,
  DistributorEntry,
  Family,
  LoadCounts,
  Need,
  Order,
  ProducerEntry,
  Product,
  User,
} from '../types'

/** Loading state of a list (PRODUCT §4). */
export type LoadStatus = 'idle' | 'busy' | 'error'

/** Lists with their own loading state. `user` covers the whole user load. */
export type ListName = 'user' | 'needs' | 'products' | 'distributors' | 'producers' | 'events' | 'orders' | 'shopNeeds'

/** One shop's needs as a producer sees them (`GET /api/needs?distributor=ID`). */
export interface ShopNeeds {
  /** The shop they belong to; null before the first load. */
  distributor: string | null
  needs: Need[]
}

/** The lists a screen reads itself, apart from the user load (issue 42). */
export type ScreenList = 'needs' | 'orders' | 'events'

/** localStorage key of the logged-in email (PRODUCT §3). */
export const EMAIL_KEY = 'primeur.email'

export interface State {
  /** Logged-in email, mirrored from localStorage; null when logged out. */
  email: string | null
  /** The user; null until known. Its `type` decides the screens. */
  user: User | null
  needs: Need[]
  products: Product[]
  /** The families of product types, in the order the interface lists them. */
  families: Family[]
  distributors: DistributorEntry[]
  producers: ProducerEntry[]
  events: ActivityEvent[]
  orders: Order[]
  /** The user load's counters (a shop's needs, every month). */
  counts: LoadCounts
  /** Which of the screens' lists this session has read (store/lists.ts, issue 42). */
  fetched: Record<ScreenList, boolean>
  /** The shop a producer is viewing in the planner (not the producer's own `needs`). */
  shopNeeds: ShopNeeds
  /** Whether a full user load has succeeded since login or page load. */
  loaded: boolean
  /** Loading state per list. */
  loading: Record<ListName, LoadStatus>
  /**
   * The last failed user load: its HTTP status (0 when the server could not
   * be reached) and message. A 401 shows the credentials card, anything else
   * the server-error card.
   */
  loadError: { status: number; message: string } | null
  /** The protected path a logged-out visitor was sent away from (PRODUCT §2). */
  origin: string | null
  /** The server rejected the stored session: send the visitor to the login form. */
  rejected: boolean
}

/**
 * An item of the user load's large lists (needs, orders, events, a
 * shop's needs as a producer views them), held as it came rather than as a
 * deep proxy. Valtio would wrap every need's proposals and every order's
 * deliveries and lines in proxies of their own, then snapshot them whole:
 * on a shop's year of trade (1.5 MB) that was about 0.35 s of the
 * planner's first paint, and a share of the collector's (docs/BENCHMARKS.md,
 * "The planner's first paint"). The lists stay proxies: an item is never
 * changed in place, only replaced, added or taken out, which the list's
 * proxy sees. Every write of an item into these lists goes through `held`
 * or `heldAll` (store/held.test.ts).
 */
export function held<T extends object>(item: T): T {
  return ref(item)
}

/** `held` for each item of a list from the daemon (none: an empty list). */
export function heldAll<T extends object>(items: readonly T[] | null | undefined): T[] {
  return (items ?? []).map((item) => ref(item))
}

/** Reads the stored email; null when absent or when storage is unavailable. */
export function readStoredEmail(): string | null {
  try {
    return window.localStorage.getItem(EMAIL_KEY) || null
  } catch {
    return null
  }
}

const idleLoading = (): Record<ListName, LoadStatus> => ({
  user: 'idle',
  needs: 'idle',
  products: 'idle',
  distributors: 'idle',
  producers: 'idle',
  events: 'idle',
  orders: 'idle',
  shopNeeds: 'idle',
})

/** A fresh logged-out (or not yet loaded) state. */
export function initialState(email: string | null = readStoredEmail()): State {
  return {
    email,
    user: null,
    needs: [],
    products: [],
    families: [],
    distributors: [],
    producers: [],
    events: [],
    orders: [],
    counts: { needs: 0 },
    fetched: { needs: false, orders: false, events: false },
    shopNeeds: { distributor: null, needs: [] },
    loaded: false,
    loading: idleLoading(),
    loadError: null,
    origin: null,
    rejected: false,
  }
}

/** The store. */
export const state = proxy<State>(initialState())

/** Puts the store back to its initial state (tests, logout). Keeps `origin`. */
export function resetState(email: string | null = null): void {
  const origin = state.origin
  Object.assign(state, initialState(email), { origin })
  forgetComparisons()
  forgetAnswers()
}
