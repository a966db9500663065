import { describe, expect, it } from 'vitest'
import table from '../../../daemon/testdata/roles.json'
import { ROLE_LABELS, may, rolesOf } from './roles'

describe('roles', () => {
  it('are the daemon’s: each kind of organisation’s, the owner first', () => {
    expect(rolesOf('distributor')).toEqual(['owner', 'buyer', 'receiver', 'accountant'])
    expect(rolesOf('producer')).toEqual(['owner', 'sales', 'delivery', 'accountant'])
    for (const role of [...table.shop, ...table.farm])
      expect(ROLE_LABELS[role as keyof typeof ROLE_LABELS]).toBeTruthy()
  })

  it.each([
    ['owner', 'update-need', true],
    ['buyer', 'update-need', true],
    ['accountant', 'update-need', false],
    ['accountant', 'get-transfer-file', true],
    ['buyer', 'get-transfer-file', false],
    ['receiver', 'receive-delivery', true],
    ['buyer', 'invite-member', false],
    ['owner', 'invite-member', true],
    [undefined, 'invite-member', true],
    ['sales', 'put-proposal', true],
    ['delivery', 'set-delivery-round', true],
    ['delivery', 'put-proposal', false],
  ] as const)('%s may call %s: %s', (role, operation, allowed) => {
    expect(may(role, operation)).toBe(allowed)
  })

  it('lets the owner call every operation', () => {
    for (const roles of Object.values(table.operations)) expect(roles).toContain('owner')
  })
})
