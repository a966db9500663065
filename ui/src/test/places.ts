// A stand-in for the server's place reference in unit tests: `GET
// /api/places` answers what each test gives per query (the search itself is
// tested in Go, core/places), a request honours its AbortSignal, and every
// other request fails. The places are as the reference has them.
import { vi } from 'vitest'

/** A place of an answer of `GET /api/places`. */
export interface PlaceJSON {
  code: string
  kind: 'commune' | 'arrondissement' | 'former'
  name: string
  commune: string
  department: string
  postalCode: string
  postalCodes: string[]
  population: number
  latitude: number
  longitude: number
  position: 'own' | 'postcode' | 'area'
  approximate: boolean
}

function commune(code: string, name: string, postalCodes: string[], population: number, lat: number, lon: number) {
  return {
    code,
    kind: 'commune',
    name,
    commune: '',
    department: code.slice(0, 2),
    postalCode: postalCodes[0],
    postalCodes,
    population,
    latitude: lat,
    longitude: lon,
    position: 'own',
    approximate: false,
  } satisfies PlaceJSON
}

export const ANNECY = commune(
  '74010',
  'Annecy',
  ['74000', '74370', '74600', '74940', '74960'],
  132117,
  45.90878,
  6.12565,
)
export const ANNEMASSE = commune('74012', 'Annemasse', ['74100'], 37628, 46.19439, 6.23775)
export const THONES = commune('74280', 'Thônes', ['74230'], 6654, 45.88123, 6.32572)
export const MANIGOD = commune('74160', 'Manigod', ['74230'], 1000, 45.86208, 6.37594)
export const SERRAVAL = commune('74265', 'Serraval', ['74230'], 758, 45.80098, 6.34021)
/** Allèves has no point of its own: the mean of its postal code's communes. */
export const ALLEVES = {
  ...commune('74004', 'Allèves', ['74540'], 397, 45.805, 6.02429),
  position: 'postcode' as const,
}
export const ANNECY_LE_VIEUX: PlaceJSON = {
  ...commune('74011', 'Annecy-le-Vieux', ANNECY.postalCodes, 0, 45.91971, 6.14393),
  kind: 'former',
  commune: 'Annecy',
}
export const PARIS_15: PlaceJSON = {
  ...commune('75115', 'Paris 15e Arrondissement', ['75015'], 227746, 48.85341, 2.3488),
  kind: 'arrondissement',
  commune: 'Paris',
  position: 'area',
}

export const MARSEILLE_1: PlaceJSON = {
  ...commune('13201', 'Marseille 1er Arrondissement', ['13001'], 37599, 43.29814, 5.38407),
  kind: 'arrondissement',
  commune: 'Marseille',
}

/**
 * A commune of each overseas department, as core/places/data/places.tsv has
 * it (its chef-lieu): Guadeloupe, Martinique, Guyane, La Réunion (south of
 * the equator) and Mayotte (south too, east of Greenwich).
 */
const overseas = (p: PlaceJSON, department: string): PlaceJSON => ({ ...p, department })
export const POINTE_A_PITRE = overseas(commune('97120', 'Pointe-à-Pitre', ['97110'], 15040, 16.24125, -61.53614), '971')
export const FORT_DE_FRANCE = overseas(
  commune('97209', 'Fort-de-France', ['97200', '97234'], 75506, 14.60365, -61.07418),
  '972',
)
export const CAYENNE = overseas(commune('97302', 'Cayenne', ['97300'], 62675, 4.93333, -52.33333), '973')
export const SAINT_DENIS_REUNION = overseas(
  commune('97411', 'Saint-Denis', ['97400', '97417', '97490'], 155634, -20.88231, 55.4504),
  '974',
)
export const MAMOUDZOU = overseas(commune('97611', 'Mamoudzou', ['97600', '97605'], 71437, -12.78234, 45.22878), '976')
export const OVERSEAS = [POINTE_A_PITRE, FORT_DE_FRANCE, CAYENNE, SAINT_DENIS_REUNION, MAMOUDZOU] as const

/** The place marked as found on a neighbouring postal code (a CEDEX code typed). */
export const near = (p: PlaceJSON): PlaceJSON => ({ ...p, approximate: true })

/**
 * Stubs fetch: `GET /api/places?q=…` answers `answers[q]` (q lower-cased,
 * spaces collapsed; none for an unknown query), after `delay` ms when given.
 * Returns the spy, whose calls are the requests.
 */
export function stubPlaces(answers: Record<string, PlaceJSON[]>, { delay = 0 }: { delay?: number } = {}) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = new URL(String(input), 'http://localhost')
    if (url.pathname !== '/api/places') return Promise.reject(new Error(`unexpected request ${url.pathname}`))
    return answerLater(placesBody(url, answers), init?.signal, delay)
  })
}

/** The body `GET /api/places` answers for this URL: `answers[q]` (q lower-cased, spaces collapsed). */
export function placesBody(url: URL, answers: Record<string, PlaceJSON[]>): string {
  const q = (url.searchParams.get('q') ?? '').trim().replace(/\s+/g, ' ').toLowerCase()
  const limit = Number(url.searchParams.get('limit') ?? 10)
  return JSON.stringify({ places: (answers[q] ?? []).slice(0, limit) })
}

/** A response of `body` after `delay` ms that honours the request's AbortSignal. */
export function answerLater(
  body: string,
  signal: AbortSignal | null | undefined,
  delay: number,
  status = 200,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'))
    if (signal?.aborted) return abort()
    const timer = setTimeout(() => resolve(new Response(body, { status })), delay)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      abort()
    })
  })
}
