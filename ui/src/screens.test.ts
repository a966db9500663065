import { afterEach, describe, expect, it, vi } from 'vitest'
import { firstMapArea } from './map/ahead'
import { screenOf, screenReads, startScreen, startUserReads } from './screens'
import { resetShopMap } from './store/shopmap'
import { resetState, state } from './store/state'
import { distributor } from './test/fixtures'
import { mapRequests, stubMap } from './test/shopmap'

describe('screenOf', () => {
  it.each([
    ['/', 'dashboard'],
    ['/prod/needs/4f1c', 'prodNeeds'],
    ['/prod/deliveries', 'prodDeliveries'],
    ['/dis/needs', 'disNeeds'],
    ['/dis/supply', 'disSupply'],
    ['/dis/deliveries', 'disDeliveries'],
    ['/prod/payments', 'prodPayments'],
    ['/dis/payments', 'disPayments'],
    ['/landing', null],
    ['/landing/login', null],
    ['/about', null],
    ['/accessibilite', null],
    ['/prod/needs', null],
    ['/nowhere', null],
  ])('%s → %s', (path, screen) => {
    expect(screenOf(path)).toBe(screen)
  })
})

describe('startScreen', () => {
  it('starts the user load with the code of a protected screen', () => {
    const load = vi.fn()
    expect(startScreen('/dis/needs', true, load)).toBe('disNeeds')
    expect(load).toHaveBeenCalledTimes(1)
  })

  it.each([
    ['/dis/needs', false],
    ['/landing/login', true],
    ['/about', true],
  ])('starts nothing on %s (logged in: %s)', (path, loggedIn) => {
    const load = vi.fn()
    expect(startScreen(path, loggedIn, load)).toBeNull()
    expect(load).not.toHaveBeenCalled()
  })
})

describe('screenReads', () => {
  // 18 November 2026 at 09:00 in Paris: deliveries' first tab reaches 14 days each side.
  const now = new Date('2026-11-18T08:00:00Z')
  it.each([
    ['dashboard', '/', 1440, 900, ['/api/stats/progression', '/api/stats/purchases']],
    ['disNeeds', '/dis/needs', 1440, 900, ['/api/needs?from=2026-11-01&to=2027-06-01']],
    ['disNeeds', '/dis/needs', 360, 640, ['/api/needs?from=2026-11-01&to=2027-01-01']],
    ['prodNeeds', '/prod/needs/4f1c', 1440, 900, ['/api/needs?distributor=4f1c&from=2026-11-01&to=2027-06-01']],
    [
      'disDeliveries',
      '/dis/deliveries',
      1440,
      900,
      ['/api/orders?from=2026-11-01&to=2026-12-01', '/api/deliveries/settings', '/api/accounting'],
    ],
    ['prodPayments', '/prod/payments', 1440, 900, ['/api/payments']],
    ['team', '/team', 1440, 900, []],
  ] as const)('%s at %s (%i × %i)', (screen, path, width, height, reads) => {
    expect(screenReads(screen, path, now, width, height)).toEqual(reads)
  })

  it('asks for the screen’s reads with the user load', () => {
    const read = vi.fn()
    startScreen('/dis/payments', true, () => undefined, read)
    expect(read.mock.calls).toEqual([['/api/payments']])
    read.mockClear()
    startScreen('/dis/payments', false, () => undefined, read)
    expect(read).not.toHaveBeenCalled()
  })
})

describe('startUserReads', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    resetState(null)
    resetShopMap()
  })

  it("reads the map's first area of the dashboard around the viewer's place once the user is known", async () => {
    const fetch = stubMap([])
    resetState('magasin@x.fr')
    startUserReads('disNeeds', 800)
    startUserReads('dashboard', 1440)
    await new Promise((ok) => setTimeout(ok))
    expect(fetch).not.toHaveBeenCalled()
    state.user = { ...distributor, latitude: '45.9', longitude: '6.12' }
    const area = (width: number) => {
      const a = firstMapArea([6.12, 45.9], width)
      return {
        ...a,
        south: expect.closeTo(a.south, 3),
        west: expect.closeTo(a.west, 3),
        east: expect.closeTo(a.east, 3),
        north: expect.closeTo(a.north, 3),
      }
    }
    await vi.waitFor(() => expect(mapRequests(fetch)).toContainEqual(area(1440)))
    expect(mapRequests(fetch)).not.toContainEqual(area(800))
  })
})
