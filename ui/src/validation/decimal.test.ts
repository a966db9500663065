import { describe, expect, it } from 'vitest'
import { decimalText, readDecimal } from './decimal'

describe('readDecimal', () => {
  it.each([
    ['12,5', 1250],
    ['12.25', 1225],
    ['0,1', 10],
    ['0.01', 1],
    [',5', 50],
    ['3,', 300],
    ['-2,5', -250],
    ['+3', 300],
    ['-0', 0],
    ['-0,00', 0],
    [' 42 ', 4200],
    ['12345,67', 1234567],
    ['12345,6700', 1234567],
    ['2,500', 250],
    ['1,000', 100],
    ['5000', 500000],
    ['999999999999,99', 99999999999999],
    ['1000000000000', 100000000000000],
    ['-1000000000000', -100000000000000],
  ] as const)('%j is %d hundredths', (text, hundredths) => {
    expect(readDecimal(text)?.hundredths).toBe(hundredths)
    expect(readDecimal(text)?.value).toBe(hundredths / 100)
  })

  it.each([
    // The numbers of issue 13: more than two decimals at every magnitude.
    ['12345,675', 12345.675],
    ['99999,995', 99999.995],
    ['5000,004', 5000.004],
    ['9999,995', 9999.995],
    ['2,505', 2.505],
    ['1,234', 1.234],
    ['0,001', 0.001],
    ['0,1000000000000000001', 0.1],
    // Beyond a trillion.
    ['1000000000000,01', 1000000000000.01],
    ['99999999999999999999', 1e20],
  ] as const)('%j is refused (value %d)', (text, value) => {
    const n = readDecimal(text)
    expect(n?.hundredths).toBeNull()
    expect(n?.value).toBe(value)
  })

  it.each([
    '',
    ' ',
    ',',
    '.',
    '-',
    '+',
    '1,2,3',
    '1.2,3',
    '1e2',
    '1,5E1',
    '12kg',
    'deux',
    '--1',
    '1 000',
    'Infinity',
    '0x10',
  ])('%j is malformed', (text) => {
    expect(readDecimal(text)).toBeNull()
  })
})

describe('decimalText', () => {
  it.each([
    [250, '2,5'],
    [1200, '12'],
    [1, '0,01'],
    [-5, '-0,05'],
    [-25, '-0,25'],
    [0, '0'],
    [123456789, '1234567,89'],
  ])('%d → %j', (h, text) => {
    expect(decimalText(h)).toBe(text)
  })
})
