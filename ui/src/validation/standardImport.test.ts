import { describe, expect, it } from 'vitest'
import {
  addMonths,
  correctedTurnover,
  defaultStandardImport,
  monthsBetween,
  parseAmount,
  STANDARD_IMPORT_MESSAGES as M,
  type StandardImportValues,
  validateStandardImport,
} from './standardImport'

const current = '2026-11-01'
const valid: StandardImportValues = {
  ...defaultStandardImport(current),
  vegetableTurnover: '150000',
}
const storeMode: StandardImportValues = {
  ...valid,
  vegetableKnown: false,
  vegetableTurnover: '',
  storeTurnover: '1 200 000',
}

describe('validateStandardImport', () => {
  const cases: {
    name: string
    values: Partial<StandardImportValues>
    expected: ReturnType<typeof validateStandardImport>
  }[] = [
    { name: 'valid with the vegetable turnover', values: {}, expected: {} },
    { name: 'start missing', values: { start: null }, expected: { start: M.startRequired } },
    { name: 'end missing', values: { end: null }, expected: { end: M.endRequired } },
    {
      name: 'both missing',
      values: { start: null, end: null },
      expected: { start: M.startRequired, end: M.endRequired },
    },
    {
      name: 'end before start',
      values: { start: '2027-03-01', end: '2027-02-01' },
      expected: { end: M.endBeforeStart },
    },
    { name: 'one month', values: { start: '2027-03-01', end: '2027-03-01' }, expected: {} },
    { name: 'current month is allowed', values: { start: current }, expected: {} },
    { name: 'past start', values: { start: '2026-10-01' }, expected: { start: M.pastMonth } },
    { name: '36 months', values: { start: '2026-12-01', end: '2029-11-01' }, expected: {} },
    { name: '37 months', values: { start: '2026-12-01', end: '2029-12-01' }, expected: { end: M.tooManyMonths } },
    {
      name: 'vegetable turnover missing',
      values: { vegetableTurnover: '' },
      expected: { vegetableTurnover: M.vegetableRequired },
    },
    {
      name: 'vegetable turnover blank',
      values: { vegetableTurnover: '   ' },
      expected: { vegetableTurnover: M.vegetableRequired },
    },
    {
      name: 'vegetable turnover zero',
      values: { vegetableTurnover: '0' },
      expected: { vegetableTurnover: M.positive },
    },
    {
      name: 'vegetable turnover negative',
      values: { vegetableTurnover: '-5' },
      expected: { vegetableTurnover: M.positive },
    },
    {
      name: 'vegetable turnover not a number',
      values: { vegetableTurnover: '12k' },
      expected: { vegetableTurnover: M.positive },
    },
    { name: 'vegetable turnover with comma decimals', values: { vegetableTurnover: '150 000,50' }, expected: {} },
    {
      name: 'store turnover ignored when the vegetable one is known',
      values: { storeTurnover: 'x', share: '5' },
      expected: {},
    },
    { name: 'correction missing', values: { correction: '' }, expected: { correction: M.correction } },
    { name: 'correction 9', values: { correction: '9' }, expected: { correction: M.correction } },
    { name: 'correction 10', values: { correction: '10' }, expected: {} },
    { name: 'correction 200', values: { correction: '200' }, expected: {} },
    { name: 'correction 200.5', values: { correction: '200,5' }, expected: { correction: M.correction } },
  ]
  it.each(cases)('$name', ({ values, expected }) => {
    expect(validateStandardImport({ ...valid, ...values }, current)).toEqual(expected)
  })

  const storeCases: typeof cases = [
    { name: 'valid with the store turnover', values: {}, expected: {} },
    { name: 'store turnover missing', values: { storeTurnover: '' }, expected: { storeTurnover: M.storeRequired } },
    { name: 'store turnover zero', values: { storeTurnover: '0,00' }, expected: { storeTurnover: M.positive } },
    { name: 'share missing', values: { share: '' }, expected: { share: M.share } },
    { name: 'share 9.99', values: { share: '9.99' }, expected: { share: M.share } },
    { name: 'share 10', values: { share: '10' }, expected: {} },
    { name: 'share 100', values: { share: '100' }, expected: {} },
    { name: 'share 101', values: { share: '101' }, expected: { share: M.share } },
    { name: 'share text', values: { share: 'vingt' }, expected: { share: M.share } },
    {
      name: 'everything wrong',
      values: { storeTurnover: '', share: '0', correction: '300', end: null },
      expected: { storeTurnover: M.storeRequired, share: M.share, correction: M.correction, end: M.endRequired },
    },
  ]
  it.each(storeCases)('store turnover: $name', ({ values, expected }) => {
    expect(validateStandardImport({ ...storeMode, ...values }, current)).toEqual(expected)
  })

  it('uses the PRODUCT texts', () => {
    expect(M.startRequired).toBe('La date de début est requise')
    expect(M.endRequired).toBe('La date de fin est requise')
    expect(M.endBeforeStart).toBe('La date de fin doit être postérieure à la date de début')
    expect(M.vegetableRequired).toBe(
      "Le CA fruits et légumes annuel est requis. Si vous n'en disposez pas, désactivez-le ci-dessus",
    )
    expect(M.storeRequired).toBe('Le CA annuel magasin est requis')
    expect(M.share).toBe('La valeur saisie doit être comprise entre 10% et 100%')
    expect(M.correction).toBe('La valeur saisie doit être comprise entre 10% et 200%')
  })
})

describe('defaults and turnover', () => {
  it('starts next month and ends in 12 months, with a 20 % share and a 90 % correction (PRODUCT §9)', () => {
    expect(defaultStandardImport('2026-11-01')).toEqual({
      start: '2026-12-01',
      end: '2027-11-01',
      vegetableKnown: true,
      vegetableTurnover: '',
      storeTurnover: '',
      share: '20',
      correction: '90',
    })
    expect(defaultStandardImport('2026-12-01').start).toBe('2027-01-01')
    expect(monthsBetween('2026-12-01', '2027-11-01')).toHaveLength(12)
  })

  it('corrects the turnover', () => {
    expect(correctedTurnover(valid)).toBe(135000)
    expect(correctedTurnover({ ...storeMode, storeTurnover: '1 000 000', share: '20', correction: '90' })).toBe(180000)
    expect(correctedTurnover({ ...valid, vegetableTurnover: '1000,01', correction: '33' })).toBe(330)
    expect(correctedTurnover({ ...valid, vegetableTurnover: '' })).toBeNaN()
  })

  it('reads amounts the French way', () => {
    expect(parseAmount('150 000')).toBe(150000)
    expect(parseAmount('150\u202f000,5')).toBe(150000.5)
    expect(parseAmount('12.5')).toBe(12.5)
    expect(parseAmount(',5')).toBe(0.5)
    for (const bad of ['', '1,2,3', '1e5', '-3', '0x10', 'Infinity', '12 €']) expect(parseAmount(bad)).toBeNaN()
  })

  it('counts months across years', () => {
    expect(addMonths('2026-12-01', 1)).toBe('2027-01-01')
    expect(addMonths('2027-01-01', -1)).toBe('2026-12-01')
    expect(monthsBetween('2026-11-01', '2027-02-01')).toEqual(['2026-11-01', '2026-12-01', '2027-01-01', '2027-02-01'])
    expect(monthsBetween('2027-02-01', '2027-01-01')).toEqual([])
  })
})
