import { describe, expect, it } from 'vitest'
import table from '../../../daemon/testdata/roles.json'
import type { Actions } from './actions'
import { ACTION_OPERATIONS, withinRole } from './roleActions'

const everything: Actions = {
  propose: true,
  commitment: ['corriger'],
  open: ['accepter', 'modifier', 'refuser', 'supprimer'],
}
const nothing: Actions = { propose: false, commitment: [], open: [] }

describe('withinRole', () => {
  it.each([
    ['owner', everything],
    [undefined, everything],
    ['buyer', everything],
    ['sales', everything],
    ['accountant', nothing],
    ['receiver', nothing],
    ['delivery', nothing],
  ] as const)('leaves a %s the actions its role may take', (role, want) => {
    expect(withinRole(everything, role)).toEqual(want)
  })

  it('names operations the daemon states', () => {
    for (const op of Object.values(ACTION_OPERATIONS)) expect(Object.keys(table.operations)).toContain(op)
  })
})
