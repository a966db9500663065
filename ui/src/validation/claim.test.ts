import { describe, expect, it } from 'vitest'
import {
  CLAIM_MESSAGES,
  type ClaimLine,
  type ClaimValues,
  checkClaim,
  claimAboveMessage,
  claimPayload,
  validateClaim,
} from './claim'

// 10 kg of tomatoes sent of 12 ordered; 20 lettuces sent of 20 ordered.
const lines: ClaimLine[] = [
  { _id: 't', unit: 'kg', expected: 12, sent: 10, claimed: 0, claimType: '', claimComment: '' },
  { _id: 'l', unit: 'un', expected: 20, sent: 20, claimed: 0, claimType: '', claimComment: '' },
]
const aboveTomatoes = 'La quantité livrée plus la quantité réclamée ne peut excéder la quantité commandée (12kg)'
const aboveLettuces = 'La quantité livrée plus la quantité réclamée ne peut excéder la quantité commandée (20un)'
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
    ['a positive claim up to the order', values({ quantity: '+2', type: 'quantity' }), {}],
    ['the whole delivery', values({ quantity: '-10' }), {}],
    // Issue 13: never more than was ordered, whatever the amount.
    ['999999999 kg', values({ quantity: '999999999', type: 'quantity' }), { 'quantity:t': aboveTomatoes }],
    ['a hundredth over the order', values({ quantity: '2,01', type: 'quantity' }), { 'quantity:t': aboveTomatoes }],
    ['beyond a trillion', values({ quantity: '10000000000000', type: 'quantity' }), { 'quantity:t': aboveTomatoes }],
    ['minus a trillion and more', values({ quantity: '-10000000000000' }), { 'quantity:t': CLAIM_MESSAGES.exceeds }],
    ['one lettuce over the order', values({}, { quantity: '1', type: 'quantity' }), { 'quantity:l': aboveLettuces }],
    // The decimal rule: refused, never rounded.
    ['12345,675 kg', values({ quantity: '-12345,675' }), { 'quantity:t': CLAIM_MESSAGES.notNumber }],
    ['99999,995 kg', values({ quantity: '-99999,995' }), { 'quantity:t': CLAIM_MESSAGES.notNumber }],
    ['2,505 kg', values({ quantity: '-2,505' }), { 'quantity:t': CLAIM_MESSAGES.notNumber }],
    ['5000,004 lettuces', values({}, { quantity: '-5000,004' }), { 'quantity:l': CLAIM_MESSAGES.pieces }],
    ['trailing zeros do not count', values({ quantity: '-2,500' }), {}],
    ['negative zero', values({ quantity: '-0' }), { form: CLAIM_MESSAGES.noQuantity }],
  ])('%s', (_, v, expected) => {
    expect(validateClaim(v, lines, false)).toEqual(expected)
  })

  it('refuses to resend the same claim', () => {
    const sent: ClaimLine[] = [{ ...lines[0], claimed: -2, claimType: 'quality', claimComment: 'abîmées' }, lines[1]]
    expect(validateClaim(values({ quantity: '-2', comment: ' abîmées ' }), sent, true)).toEqual({
      form: CLAIM_MESSAGES.noChange,
    })
    expect(validateClaim(values({ quantity: '-2,00', comment: 'abîmées' }), sent, true)).toEqual({
      form: CLAIM_MESSAGES.noChange,
    })
    expect(validateClaim(values({ quantity: '-3', comment: 'abîmées' }), sent, true)).toEqual({})
    expect(validateClaim(values({ quantity: '-2', type: 'quantity', comment: 'abîmées' }), sent, true)).toEqual({})
    expect(validateClaim(values({ quantity: '-2', comment: 'très abîmées' }), sent, true)).toEqual({})
  })

  it('writes the ordered quantity as the daemon does', () => {
    expect(claimAboveMessage(250, 'kg')).toBe(
      'La quantité livrée plus la quantité réclamée ne peut excéder la quantité commandée (2,5kg)',
    )
    expect(claimAboveMessage(1200, 'un')).toBe(aboveLettuces.replace('20un', '12un'))
  })

  it('lets a claim reduce a line the shop noted above the order, never add to it', () => {
    const over: ClaimLine = {
      _id: 'o',
      unit: 'kg',
      expected: 10,
      sent: 12,
      claimed: 0,
      claimType: '',
      claimComment: '',
    }
    expect(checkClaim('-1', over)).toEqual({ hundredths: -100 })
    expect(checkClaim('-12', over)).toEqual({ hundredths: -1200 })
    expect(checkClaim('-12,01', over)).toEqual({ message: CLAIM_MESSAGES.exceeds })
    expect(checkClaim('0,01', over)).toEqual({
      message: 'La quantité livrée plus la quantité réclamée ne peut excéder la quantité commandée (10kg)',
    })
  })

  it('sends the claimed lines only', () => {
    expect(claimPayload(values({ quantity: '-2,5', comment: ' abîmées ' }, { quantity: '0' }), lines)).toEqual({
      deliveryLines: [{ _id: 't', quantityClaimed: -2.5, claimType: 'quality', claimComment: 'abîmées' }],
    })
  })
})
