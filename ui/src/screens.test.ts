import { describe, expect, it, vi } from 'vitest'
import { screenOf, startScreen } from './screens'

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
