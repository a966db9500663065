// Identifiers of a French business (PRODUCT §5 "Identifiers"), the same
// rules as the daemon's (core/accounts/identifiers.go):
// - SIREN: 9 digits passing the Luhn key;
// - SIRET: 14 digits beginning with a valid SIREN, passing the Luhn key —
//   or, for La Poste (SIREN 356000000), whose digits sum to a multiple of 5;
// - French VAT number: FR, key = (12 + 3 × (SIREN mod 97)) mod 97 on two
//   digits, the SIREN; another country's number keeps the format rule;
// - a French VAT number and a SIRET name one company: the same SIREN.
// Values are compared without spaces, upper-cased.

/** La Poste's SIREN, whose SIRETs follow their own key. */
export const LA_POSTE_SIREN = '356000000'

const TVA_FORMAT = /^([A-Za-z]{2,4})([0-9A-Za-z_-]*)$/

/** The identifier without its spaces, upper-cased, as stored. */
export function compactId(value: string): string {
  return value.replace(/\s/g, '').toUpperCase()
}

function digitsOnly(value: string, length: number): boolean {
  return value.length === length && /^[0-9]+$/.test(value)
}

/** Luhn key: from the right, every second digit doubled (9 off past 9); the sum is a multiple of 10. */
export function luhnOk(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/** A SIREN: 9 digits passing the Luhn key. */
export function isSirenValid(value: string): boolean {
  const s = compactId(value)
  return digitsOnly(s, 9) && luhnOk(s)
}

/** A SIRET: 14 digits on a valid SIREN, the Luhn key right, or La Poste's digits summing to a multiple of 5. */
export function isSiretValid(value: string): boolean {
  const s = compactId(value)
  if (!digitsOnly(s, 14) || !isSirenValid(s.slice(0, 9))) return false
  if (luhnOk(s)) return true
  if (s.slice(0, 9) !== LA_POSTE_SIREN) return false
  let sum = 0
  for (const c of s) sum += Number(c)
  return sum % 5 === 0
}

/** The key of the French VAT number of a SIREN, two digits; '' for an invalid SIREN. */
export function frenchVatKey(siren: string): string {
  const s = compactId(siren)
  if (!isSirenValid(s)) return ''
  let mod = 0
  for (const c of s) mod = (mod * 10 + Number(c)) % 97
  return String((12 + 3 * mod) % 97).padStart(2, '0')
}

/** The French VAT number of a SIREN ("FR" + key + SIREN); '' for an invalid SIREN. */
export function frenchVat(siren: string): string {
  const key = frenchVatKey(siren)
  return key ? `FR${key}${compactId(siren)}` : ''
}

/**
 * The format rule of an intra-community VAT number, the whole rule for
 * another country's: 2 to 4 letters, then digits, dashes or underscores
 * with at most 2 further letters and at least one digit, 4 to 20
 * characters in all.
 */
export function isVatFormatValid(compact: string): boolean {
  if (compact.length < 4 || compact.length > 20) return false
  const match = TVA_FORMAT.exec(compact)
  if (!match) return false
  const rest = match[2]
  return (rest.match(/[A-Za-z]/g) ?? []).length <= 2 && /[0-9]/.test(rest)
}

/** A VAT number by itself: a French one (FR…) is FR, its key, a valid SIREN; another keeps the format rule. */
export function isVatValid(value: string): boolean {
  const v = compactId(value)
  if (!v.startsWith('FR')) return isVatFormatValid(v)
  return v.length === 13 && frenchVat(v.slice(4)) === v
}

/**
 * Whether a VAT number and a SIRET name one company: false only when both
 * are valid, the VAT number French and its SIREN not the SIRET's.
 */
export function vatMatchesSiret(vat: string, siret: string): boolean {
  const v = compactId(vat)
  const s = compactId(siret)
  if (!v.startsWith('FR') || !isVatValid(v) || !isSiretValid(s)) return true
  return v.slice(4) === s.slice(0, 9)
}

/** The messages of PRODUCT §5 "Identifiers" that the form shows (the daemon's MsgVATSIRET). */
export const IDENTIFIER_MESSAGES = {
  vatSiret:
    'Le n° de TVA intracommunautaire et le SIRET ne désignent pas la même entreprise : le n° de TVA doit se terminer par le SIREN (les 9 premiers chiffres du SIRET).',
} as const

/** The notice of identifiers stored invalid (PRODUCT §2 "Dashboard", §5 "Identifiers"); its sentences are the daemon's. */
export const IDENTIFIER_NOTICE = {
  title: 'Identifiants à corriger',
  why: 'Ils figurent sur vos factures et bons de livraison ; vos échanges en cours continuent en attendant.',
  action: 'Corriger mon profil',
} as const
