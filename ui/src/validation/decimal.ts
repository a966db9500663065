// The decimal rule of the daemon (core/decimal, docs/ARCHITECTURE.md), for
// the forms: a quantity, a price or an amount has at most two decimals,
// whatever its magnitude; more is refused, never rounded (12345,675 and
// 99999,995 are refused like 1,234; 0,1 is 0,10). The daemon counts the
// decimals of the number it receives exactly, in its shortest writing (so
// trailing zeros do not count: 2.500 is 2.5); the forms count them in the
// text as typed, trailing zeros aside, exactly too — digit by digit, into
// integer hundredths, with no float arithmetic — so both refuse the same
// numbers with the same messages. Each form keeps its own syntax (which
// separators, whether a sign) and messages; this module only reads the
// number.

/** At most this many decimals. */
export const MAX_DECIMALS = 2

/** The largest magnitude the daemon reads, a trillion (core/decimal.Max). */
export const MAX_MAGNITUDE = 1e12

/** A number typed in a form. */
export interface TypedNumber {
  /** The number, for sign and range checks (exact when `hundredths` is set). */
  value: number
  /** The number in integer hundredths; null when it has more than two decimals or is beyond a trillion. */
  hundredths: number | null
}

const NUMBER = /^([+-]?)(\d*)(?:[.,](\d*))?$/

/**
 * Reads `[+-]digits[,digits]` (a comma or a dot, either side of it may be
 * empty but not both: "12,5", ",5", "3,", "-2.25"); null when malformed.
 */
export function readDecimal(text: string): TypedNumber | null {
  const m = NUMBER.exec(text.trim())
  if (!m) return null
  const [, sign, whole = '', typed = ''] = m
  if (whole === '' && typed === '') return null
  const decimals = typed.replace(/0+$/, '') // 2,500 is 2,5
  const negative = sign === '-'
  const value = Number(`${sign}${whole || '0'}.${decimals || '0'}`) || 0 // -0 is 0
  if (decimals.length > MAX_DECIMALS || Math.abs(value) > MAX_MAGNITUDE) return { value, hundredths: null }
  const h = Number(whole || '0') * 100 + Number(decimals.padEnd(MAX_DECIMALS, '0'))
  return { value, hundredths: negative && h !== 0 ? -h : h }
}

/** Hundredths written as the daemon writes them, with a comma: 250 → "2,5", 1200 → "12", -5 → "-0,05". */
export function decimalText(hundredths: number): string {
  const u = Math.abs(hundredths)
  const cents = u % 100
  let s = String(Math.floor(u / 100))
  if (cents !== 0) s += ',' + (cents % 10 === 0 ? String(cents / 10) : String(cents).padStart(2, '0'))
  return hundredths < 0 ? `-${s}` : s
}
