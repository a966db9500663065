// The site's public settings (GET /public/site, PRODUCT §2 "Other pages"):
// what every visitor may know of the platform from its operator's
// settings — the accessibility statement's contact. Read without a session,
// once per page load (it changes only with the daemon's settings), in a
// small store of its own.
import { proxy, useSnapshot } from 'valtio'
import { api } from '../api'
import type { LoadStatus } from './state'

/** Where the accessibility contact comes from (the daemon's `accessibility.contact`, else its mail sender). */
export type ContactSource = 'setting' | 'mail-sender' | 'none'

/** The answer of GET /public/site. */
export interface SiteInfo {
  /** A bare email address; empty when the source is `none`. */
  accessibilityContact: string
  accessibilityContactSource: ContactSource
}

export interface SiteState {
  data: SiteInfo | null
  status: LoadStatus
}

export const site = proxy<SiteState>({ data: null, status: 'idle' })

/** Empties the store (tests). */
export function resetSite(): void {
  Object.assign(site, { data: null, status: 'idle' })
}

const SOURCES: readonly string[] = ['setting', 'mail-sender', 'none']

/** Whether an answer has the expected shape. */
function isSiteInfo(x: unknown): x is SiteInfo {
  const s = x as SiteInfo | null
  return (
    !!s &&
    typeof s.accessibilityContact === 'string' &&
    SOURCES.includes(s.accessibilityContactSource) &&
    (s.accessibilityContactSource === 'none') === (s.accessibilityContact === '')
  )
}

/** Loads the site's settings unless they are loaded or loading; a failure marks them error. */
export async function loadSite(): Promise<boolean> {
  if (site.data || site.status === 'busy') return !!site.data
  site.status = 'busy'
  try {
    const answer = await api.get<unknown>('/public/site')
    if (!isSiteInfo(answer)) throw new Error('réponse inattendue de /public/site')
    site.data = answer
    site.status = 'idle'
    return true
  } catch (err) {
    console.error('site:', err)
    site.status = 'error'
    return false
  }
}

/** The site's settings and their loading state. */
export function useSite(): { data: SiteInfo | null; status: LoadStatus } {
  const s = useSnapshot(site)
  return { data: s.data as SiteInfo | null, status: s.status }
}
