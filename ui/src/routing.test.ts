import { describe, expect, it } from 'vitest'
import {
  isNavItemActive,
  linkToken,
  loginNotice,
  navItems,
  parseLandingMode,
  redirectTarget,
  sectionOf,
} from './routing'

describe('redirectTarget', () => {
  it.each([
    ['/', false, '/landing'],
    ['/dis/needs', false, '/landing/login'],
    ['/prod/needs/abc', false, '/landing/login'],
    ['/prod/deliveries', false, '/landing/login'],
    ['/', true, null],
    ['/dis/needs', true, null],
  ])('%s loggedIn=%s → %s', (path, loggedIn, expected) => {
    expect(redirectTarget(path, loggedIn)).toBe(expected)
  })

  it('sends a rejected session to the login form, even from /', () => {
    expect(redirectTarget('/', false, true)).toBe('/landing/login')
    expect(redirectTarget('/dis/supply', false, true)).toBe('/landing/login')
  })
})

describe('loginNotice', () => {
  it.each([
    [null, null],
    ['/', null],
    ['/dis/needs', 'Vous devez vous connecter pour consulter la page /dis/needs'],
    ['/prod/needs/42', 'Vous devez vous connecter pour consulter la page /prod/needs/42'],
  ])('%s', (origin, expected) => {
    expect(loginNotice(origin)).toBe(expected)
  })
})

describe('parseLandingMode', () => {
  it.each([
    [undefined, 'login'],
    ['login', 'login'],
    ['register', 'register'],
    ['producer', 'producer'],
    ['distributor', 'distributor'],
    ['forgot', 'forgot'],
    ['reset', 'reset'],
    ['confirm', 'confirm'],
    ['revert', 'revert'],
    ['unsubscribe', 'unsubscribe'],
    ['anything', 'login'],
    ['Confirm', 'login'],
  ])('%s → %s', (mode, expected) => {
    expect(parseLandingMode(mode)).toBe(expected)
  })
})

describe('linkToken', () => {
  it.each([
    ['#abc_DEF-123', 'abc_DEF-123'],
    ['#  jeton ', 'jeton'],
    ['', ''],
    ['#', ''],
  ])('%j → %j', (hash, token) => {
    expect(linkToken(hash)).toBe(token)
  })
})

describe('navigation highlight', () => {
  it.each([
    ['/', 'home'],
    ['/prod/needs/abc', 'needs'],
    ['/dis/needs', 'needs'],
    ['/prod/deliveries', 'deliveries'],
    ['/dis/deliveries', 'deliveries'],
    ['/dis/supply', 'supply'],
  ])('sectionOf(%s) = %s', (path, section) => {
    expect(sectionOf(path)).toBe(section)
  })

  const active = (type: 'producer' | 'distributor', path: string) =>
    navItems(type)
      .filter((item) => isNavItemActive(item, path))
      .map((item) => item.label)

  it.each([
    ['producer', '/', ['Vendre']],
    ['producer', '/prod/needs/abc', ['Vendre']],
    ['producer', '/prod/deliveries', ['Livrer']],
    ['distributor', '/', ['Accueil']],
    ['distributor', '/dis/needs', ['Planifier']],
    ['distributor', '/dis/supply', ['Réasso.']],
    ['distributor', '/dis/deliveries', ['Récep.']],
  ] as const)('%s on %s highlights %j', (type, path, labels) => {
    expect(active(type, path)).toEqual(labels)
  })

  it('never has two items to one place', () => {
    for (const type of ['producer', 'distributor'] as const) {
      const hrefs = navItems(type).map((i) => i.href)
      expect(new Set(hrefs).size).toBe(hrefs.length)
    }
  })

  it('lists the PRODUCT §6 entries per role', () => {
    // One item per destination: the producer's home is where it sells (issue 37).
    expect(navItems('producer').map((i) => [i.label, i.href])).toEqual([
      ['Vendre', '/'],
      ['Livrer', '/prod/deliveries'],
      ['Encaisser', '/prod/payments'],
    ])
    expect(navItems('distributor').map((i) => [i.label, i.href])).toEqual([
      ['Accueil', '/'],
      ['Planifier', '/dis/needs'],
      ['Réasso.', '/dis/supply'],
      ['Récep.', '/dis/deliveries'],
      ['Payer', '/dis/payments'],
    ])
  })
})
