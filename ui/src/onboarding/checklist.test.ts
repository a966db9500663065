import { describe, expect, it } from 'vitest'
import { distributor, producer } from '../test/fixtures'
import {
  hasDeliveryDays,
  hasLegalDetails,
  isOnMap,
  isSetupComplete,
  parseProfileParam,
  profileLink,
  setupSteps,
} from './checklist'

const NO_DAYS = [false, false, false, false, false, false, false]
const complete = {
  addressLine1: '12 rue Sommeiller',
  addressLine2: '',
  addressLine3: '74000 Annecy',
  legal: 'SARL au capital de 20 000 €',
  siret: '84261530400016',
}

const summary = (steps: ReturnType<typeof setupSteps>) =>
  steps.map((s) => [s.id, s.done, s.target.kind === 'profile' ? s.target.field : s.target.path])

describe('setupSteps', () => {
  it('asks a new producer its delivery days, address and legal details', () => {
    expect(summary(setupSteps({ ...producer, defaultDeliveryDays: NO_DAYS }))).toEqual([
      ['deliveryDays', false, 'defaultDeliveryDays'],
      ['address', false, 'addressLine1'],
      ['legal', false, 'legal'],
    ])
  })

  it('asks a new shop its address, position, legal details and first needs', () => {
    expect(summary(setupSteps(distributor, 0))).toEqual([
      ['address', false, 'addressLine1'],
      ['position', false, 'postcode'],
      ['legal', false, 'legal'],
      ['needs', false, '/dis/needs'],
    ])
  })

  it('points each step at the first field still missing', () => {
    const steps = setupSteps({ ...distributor, addressLine1: '1 rue', addressLine3: 'Annecy', legal: 'SAS' })
    expect(summary(steps).slice(0, 3)).toEqual([
      ['address', false, 'postcode'],
      ['position', false, 'postcode'],
      ['legal', false, 'siret'],
    ])
    const withCode = setupSteps({ ...distributor, addressLine1: '1 rue', addressLine3: '74000 ' })
    // "74000 " alone is no postal line: the postal code is still the missing field.
    expect(summary(withCode)[0]).toEqual(['address', false, 'postcode'])
    const noTown = setupSteps({ ...distributor, addressLine1: '1 rue', addressLine3: '74000 Annecy' })
    expect(summary(noTown)[1]).toEqual(['position', false, 'latitude'])
  })

  it('reads the postal line wherever it is stored (the demo keeps it in the second line)', () => {
    const steps = setupSteps({ ...producer, ...complete, addressLine2: '74000 Annecy', addressLine3: '' })
    expect(steps.find((s) => s.id === 'address')?.done).toBe(true)
  })

  it('marks the steps done, and the whole list complete', () => {
    const farm = setupSteps({ ...producer, ...complete })
    expect(farm.map((s) => s.done)).toEqual([true, true, true])
    expect(isSetupComplete(farm)).toBe(true)

    const shop = setupSteps({ ...distributor, ...complete, latitude: '45.9009', longitude: '6.1265' }, 3)
    expect(shop.map((s) => s.done)).toEqual([true, true, true, true])
    expect(isSetupComplete(shop)).toBe(true)
    expect(isSetupComplete(setupSteps({ ...distributor, ...complete, latitude: '45.9', longitude: '6.1' }, 0))).toBe(
      false,
    )
  })
})

describe('the rules', () => {
  it('puts a shop on the map as the map does (0/0 and out-of-range positions are not)', () => {
    expect(isOnMap({ latitude: '45.9', longitude: '6.12' })).toBe(true)
    expect(isOnMap({ latitude: '45.9', longitude: '' })).toBe(false)
    expect(isOnMap({ latitude: '0', longitude: '0' })).toBe(false)
    expect(isOnMap({ latitude: '95', longitude: '6' })).toBe(false)
  })

  it('needs at least one delivery day out of 7', () => {
    expect(hasDeliveryDays({ defaultDeliveryDays: NO_DAYS })).toBe(false)
    expect(hasDeliveryDays({ defaultDeliveryDays: [true, false, false, false, false, false, false] })).toBe(true)
    expect(hasDeliveryDays({})).toBe(false)
  })

  it('needs a legal form and a valid SIRET', () => {
    expect(hasLegalDetails({ legal: 'EARL', siret: '732 829 320 00074' })).toBe(true)
    expect(hasLegalDetails({ legal: 'EARL', siret: '123 456 789 00012' })).toBe(false) // the Luhn key
    expect(hasLegalDetails({ legal: 'EARL', siret: '' })).toBe(false)
    expect(hasLegalDetails({ legal: ' ', siret: '12345678900012' })).toBe(false)
    expect(hasLegalDetails({ legal: 'EARL', siret: '1234' })).toBe(false)
  })
})

describe('links to the profile form', () => {
  it('names a field in the dashboard address and reads it back', () => {
    expect(profileLink('defaultDeliveryDays')).toBe('/?profil=defaultDeliveryDays')
    expect(parseProfileParam('siret')).toBe('siret')
    expect(parseProfileParam('postcode')).toBe('postcode')
    expect(parseProfileParam('password')).toBeNull()
    expect(parseProfileParam(null)).toBeNull()
  })
})
