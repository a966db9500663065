import { describe, expect, it } from 'vitest'
import { CLAIM_MESSAGES, type ClaimLine, type ClaimValues, claimPayload, validateClaim } from './claim'

const lines: ClaimLine[] = [
  { _id: 't', unit: 'kg', sent: 10, claimed: 0, claimType: '', claimComment: '' },
  { _id: 'l', unit: 'un', sent: 20, claimed: 0, claimType: '', claimComment: '' },
]
const blank = { quantity: '', type: 'quality', comment: '' } as const

function values(t: Partial<ClaimValues[string]>, l: Partial<ClaimValues[string]> = {}): ClaimValues {
  return { t: { ...blank, ...t }, l: { ...blank, ...l } }
}

describe('validateClaim', () => {
  it.each([
    ['nothing typed', values({}), { form: CLAIM_MESSAGES.noQuantity }],
    ['zeros only', values({ quantity: '0' }, { quantity: '0' }), { form: CLAIM_MESSAGES.noQuantity }],
    ['a word', values({ quantity: 'trois' }), { 'quantity:t': CLAIM_MESSAGES.notNumber }],
    ['three decimals', values({ quantity: '-1,234' }), { 'quantity:t': CLAIM_MESSAGES.notNumber }],
    ['half a lettuce', values({}, { quantity: '1,5' }), { 'quantity:l': CLAIM_MESSAGES.pieces }],
    ['more than delivered', values({ quantity: '-10,01' }), { 'quantity:t': CLAIM_MESSAGES.exceeds }],
    ['no type', values({ quantity: '-2', type: '' }), { 'type:t': CLAIM_MESSAGES.type }],
    ['long comment', values({ quantity: '-2', comment: 'x'.repeat(501) }), { 'comment:t': CLAIM_MESSAGES.tooLong }],
    ['a negative claim', values({ quantity: '-2,5' }), {}],
    ['a positive claim', values({}, { quantity: '+3', type: 'quantity' }), {}],
    ['the whole delivery', values({ quantity: '-10' }), {}],
  ])('%s', (_, v, expected) => {
    expect(validateClaim(v, lines, false)).toEqual(expected)
  })

  it('refuses to resend the same claim', () => {
    const sent: ClaimLine[] = [{ ...lines[0], claimed: -2, claimType: 'quality', claimComment: 'abîmées' }, lines[1]]
    expect(validateClaim(values({ quantity: '-2', comment: ' abîmées ' }), sent, true)).toEqual({ form: CLAIM_MESSAGES.noChange })
    expect(validateClaim(values({ quantity: '-2,00', comment: 'abîmées' }), sent, true)).toEqual({ form: CLAIM_MESSAGES.noChange })
    expect(validateClaim(values({ quantity: '-3', comment: 'abîmées' }), sent, true)).toEqual({})
    expect(validateClaim(values({ quantity: '-2', type: 'quantity', comment: 'abîmées' }), sent, true)).toEqual({})
    expect(validateClaim(values({ quantity: '-2', comment: 'très abîmées' }), sent, true)).toEqual({})
  })

  it('sends the claimed lines only', () => {
    expect(claimPayload(values({ quantity: '-2,5', comment: ' abîmées ' }, { quantity: '0' }), lines)).toEqual({
      deliveryLines: [{ _id: 't', quantityClaimed: -2.5, claimType: 'quality', claimComment: 'abîmées' }],
    })
  })
})
