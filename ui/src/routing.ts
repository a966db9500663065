// Routes of PRODUCT §2 and the pure rules around them: redirects of
// unauthenticated visitors, the login notice and the navigation highlight.
import type { UserType } from './types'

/** Every route of the app (wouter patterns). */
export const ROUTES = {
  landing: '/landing/:mode?',
  about: '/about',
  accessibility: '/accessibilite',
  dashboard: '/',
  prodNeeds: '/prod/needs/:distributorId',
  prodDeliveries: '/prod/deliveries',
  prodDay: '/prod/deliveries/day/:date',
  disNeeds: '/dis/needs',
  disSupply: '/dis/supply',
  disDeliveries: '/dis/deliveries',
  disReception: '/dis/deliveries/reception/:orderId/:deliveryId',
  prodPayments: '/prod/payments',
  prodProducts: '/prod/products',
  disProducer: '/dis/producers/:producerId',
  disPayments: '/dis/payments',
  team: '/team',
} as const

/** Builds concrete paths. */
export const paths = {
  landing: (mode?: LandingMode) => (mode ? `/landing/${mode}` : '/landing'),
  prodNeeds: (distributorId: string) => `/prod/needs/${encodeURIComponent(distributorId)}`,
  prodDay: (date: string) => `/prod/deliveries/day/${encodeURIComponent(date)}`,
  disProducer: (producerId: string) => `/dis/producers/${encodeURIComponent(producerId)}`,
  disReception: (orderId: string, deliveryId: string) =>
    `/dis/deliveries/reception/${encodeURIComponent(orderId)}/${encodeURIComponent(deliveryId)}`,
}

/**
 * Modes of the landing page (PRODUCT §2): the forms, and the pages of the
 * emailed links (PRODUCT §13): a password reset, an email confirmation, the
 * way back of a login email change, an unsubscription.
 */
export type LandingMode =
  | 'login'
  | 'register'
  | 'producer'
  | 'distributor'
  | 'forgot'
  | 'reset'
  | 'confirm'
  | 'revert'
  | 'unsubscribe'
  | 'invitation'

const LANDING_MODES: readonly LandingMode[] = [
  'register',
  'producer',
  'distributor',
  'forgot',
  'reset',
  'confirm',
  'revert',
  'unsubscribe',
  'invitation',
]

/** Reads the landing `:mode?` parameter; anything unknown means login. */
export function parseLandingMode(mode: string | undefined): LandingMode {
  return LANDING_MODES.find((m) => m === mode) ?? 'login'
}

/** The token of an emailed link (/landing/reset#…, /landing/confirm#…): what follows its "#". */
export function linkToken(hash: string): string {
  return hash.replace(/^#/, '').trim()
}

/**
 * Where to send a visitor of a protected route, or null to let them in.
 * Logged out: `/` goes to `/landing`, every other path to `/landing/login` (PRODUCT §2).
 * When the server has just rejected the stored session, always `/landing/login` (PRODUCT §8).
 */
export function redirectTarget(path: string, loggedIn: boolean, rejected = false): string | null {
  if (loggedIn) return null
  return path === '/' && !rejected ? '/landing' : '/landing/login'
}

/** The notice above the login form when the visitor was sent away from `origin`. */
export function loginNotice(origin: string | null): string | null {
  if (!origin || origin === '/') return null
  return `Vous devez vous connecter pour consulter la page ${origin}`
}

/** The navigation sections matched in a route (PRODUCT §2, §6). */
export type Section = 'home' | 'needs' | 'deliveries' | 'supply' | 'payments'

/** The section of `path`: the first of needs, deliveries, supply, payments it contains, else home. */
export function sectionOf(path: string): Section {
  for (const section of ['needs', 'deliveries', 'supply', 'payments'] as const) {
    if (path.includes(section)) return section
  }
  return 'home'
}

/** One entry of the bottom navigation. Activités is a button, not a route. */
export interface NavItem {
  label: string
  href: string
  section: Section
  /** Another section the item stands for (the producer's "Vendre" is its home too). */
  also?: Section
}

/** The bottom navigation per role (PRODUCT §6), without Activités. */
export function navItems(type: UserType): NavItem[] {
  if (type === 'producer') {
    return [
      // The producer's home is where it sells: "Planifier mes ventes", a
      // shop picked on the map. One item for it (issue 37: "Accueil" and
      // "Vendre" both led to /), lit there and on /prod/needs/:distributorId.
      { label: 'Vendre', href: '/', section: 'needs', also: 'home' },
      { label: 'Livrer', href: '/prod/deliveries', section: 'deliveries' },
      { label: 'Encaisser', href: '/prod/payments', section: 'payments' },
    ]
  }
  return [
    { label: 'Accueil', href: '/', section: 'home' },
    { label: 'Planifier', href: '/dis/needs', section: 'needs' },
    { label: 'Réasso.', href: '/dis/supply', section: 'supply' },
    { label: 'Récep.', href: '/dis/deliveries', section: 'deliveries' },
    { label: 'Payer', href: '/dis/payments', section: 'payments' },
  ]
}

/** Whether a navigation item is the current section of `path`. */
export function isNavItemActive(item: NavItem, path: string): boolean {
  const section = sectionOf(path)
  return item.section === section || item.also === section
}
