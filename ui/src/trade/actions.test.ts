import { describe, expect, it } from 'vitest'
import table from '../../../core/trade/testdata/actions.json'
import { type Actions, type Side, type TradeState, actionLabel, allowedActions, negotiationOf, sideOf } from './actions'

interface Row {
  why: string
  state: TradeState
  viewer: Side
  actions: Actions
}

describe('allowedActions', () => {
  // The same table the daemon's test reads (core/trade/testdata/actions.json).
  const rows = table as Row[]

  it('covers every state for both sides', () => {
    const keys = new Set(rows.map((r) => JSON.stringify([r.state, r.viewer])))
    expect(keys.size).toBe(20)
    expect(rows).toHaveLength(20)
  })

  it.each(rows.map((r) => [`${r.why} (${r.viewer})`, r] as const))('%s', (_, row) => {
    expect(allowedActions(row.state, row.viewer)).toEqual(row.actions)
  })
})

describe('negotiationOf', () => {
  const proposals = [
    { _id: 'a', producer: 'p1', status: 'accepted' as const, quantity: 10, price: 2 },
    { _id: 'b', producer: 'p2', status: 'proposed' as const, quantity: 5, price: 2 },
    { _id: 'c', producer: 'p1', status: 'rejected' as const, from: 'distributor' as const, quantity: 8, price: 2 },
  ]
  it('reads one producer’s commitment and open proposal', () => {
    const n = negotiationOf(proposals, 'p1')
    expect(n.state).toEqual({ committed: true, open: 'rejected', from: 'distributor' })
    expect(n.commitment?._id).toBe('a')
    expect(n.open?._id).toBe('c')
  })
  it('treats an absent `from` as the producer', () => {
    expect(negotiationOf(proposals, 'p2').state).toEqual({ committed: false, open: 'proposed', from: 'producer' })
    expect(sideOf({})).toBe('producer')
  })
  it('is empty for a producer without proposals', () => {
    expect(negotiationOf(proposals, 'p3')).toEqual({ state: { committed: false, open: '', from: '' } })
  })
})

describe('actionLabel', () => {
  it('names every action and throws on an unknown one', () => {
    expect(['accepter', 'modifier', 'refuser', 'supprimer', 'corriger'].map(actionLabel)).toEqual([
      'Accepter',
      'Modifier',
      'Refuser',
      'Supprimer',
      'Corriger',
    ])
    expect(() => actionLabel('annuler')).toThrow('Unknown commitment action: annuler')
  })
})
