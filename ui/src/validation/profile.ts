// Profile form rules (PRODUCT §5 "Profile form"), the same as the daemon's
// (core/accounts/validate.go). Every field may be left empty except the company
// name; values are trimmed, and codes lose their spaces (the phone number also
// its dots) before they are checked.
import type { ProfileField, UserType } from '../types'
import { addressErrors, postalLineError } from './address'
import { type Errors, MAX_TEXT_LENGTH, TOO_LONG_MESSAGE, charLength, isEmail } from './common'
import { REGISTRATION_MESSAGES } from './registration'

/**
 * Form values: every text field as a string, plus the producer's delivery
 * days. The form asks the postal code and the town apart (`postcode`,
 * `town`); they are stored together in `addressLine3` (validation/address.ts).
 */
export type ProfileValues = Partial<Record<ProfileField, string>> & {
  defaultDeliveryDays?: boolean[]
  postcode?: string
  town?: string
}

/** The fields of the form that may carry an error. */
export type ProfileFormField = ProfileField | 'defaultDeliveryDays' | 'postcode' | 'town'

/** Fields that carry a rule. `defaultDeliveryDays` is checked for producers only. */
export type ProfileRuleField =
  | 'name'
  | 'defaultDeliveryDays'
  | 'emailAccounting'
  | 'capital'
  | 'bic'
  | 'ape'
  | 'iban'
  | 'siret'
  | 'tel'
  | 'latitude'
  | 'longitude'
  | 'tvaintracom'

export const PROFILE_MESSAGES = {
  // The daemon refuses an empty company name.
  name: REGISTRATION_MESSAGES.nameRequired,
  defaultDeliveryDays:
    'Vous devez choisir au moins un jour de livraison (vous pourrez corriger votre choix à tout moment si nécessaire).',
  emailAccounting: "L'adresse saisie est invalide.",
  capital: 'Le capital saisi doit être un nombre.',
  bic: 'Veuillez saisir un code BIC valide (LLLLLLXXXXX, L : lettre - X : chiffre ou lettre).',
  ape: 'Veuillez saisir un code APE valide (CCCCL, C : Chiffre - L : lettre).',
  iban: 'Veuillez saisir un code IBAN valide.',
  siret: 'Veuillez saisir un code SIRET valide.',
  tel: 'Veuillez saisir un n° de téléphone valide (10 chiffres).',
  // Sic: PRODUCT §5 gives this text without "saisir".
  latitude: 'Veuillez une latitude valide',
  longitude: 'Veuillez saisir une longitude valide',
  tvaintracom:
    'Veuillez saisir un n° de TVA intra-communautaire valide ou laisser ce champ vide si vous êtes exempté de TVA.',
} as const satisfies Record<ProfileRuleField, string>

const CAPITAL = /^\d+$/
const BIC = /^[A-Za-z]{4}[A-Za-z]{2}[A-Za-z0-9]{2}[A-Za-z0-9]{3}$/
const APE = /^\d{4}[A-Za-z]$/
const IBAN = /^[A-Za-z]{2}\d{2}[A-Za-z0-9]{4}\d{7}[A-Za-z0-9]{0,16}$/
const SIRET = /^\d{14}$/
const TEL = /^\d{10}$/
const COORDINATE = /^-?[0-9.]+$/
const TVA = /^([A-Za-z]{2,4})([0-9A-Za-z_-]*)$/

/** ISO 13616 check: move the first 4 characters to the end, letters → 10..35, mod 97 must be 1. */
export function ibanChecksumOk(iban: string): boolean {
  const rearranged = (iban.slice(4) + iban.slice(0, 4)).toUpperCase()
  let remainder = 0
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0)
    let digits: string
    if (code >= 48 && code <= 57) digits = ch
    else if (code >= 65 && code <= 90) digits = String(code - 55)
    else return false
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97
  }
  return remainder === 1
}

/** IBAN: spaces removed, shape of PRODUCT §5, then the mod-97 check. */
export function isIbanValid(value: string): boolean {
  const compact = value.replace(/ /g, '')
  return IBAN.test(compact) && ibanChecksumOk(compact)
}

/** A decimal coordinate within ±limit: optional leading minus, digits, at most one dot. */
export function isCoordinateValid(value: string, limit: number): boolean {
  if (!COORDINATE.test(value)) return false
  if ((value.match(/\./g) ?? []).length > 1) return false
  const n = Number(value)
  return Number.isFinite(n) && n >= -limit && n <= limit
}

/**
 * Intra-community VAT number, spaces removed: 2 to 4 letters, then digits,
 * dashes or underscores with at most 2 further letters anywhere and at least
 * one digit, 4 to 20 characters in all. The greedy prefix leaves the fewest
 * letters after it.
 */
export function isTvaValid(value: string): boolean {
  const compact = value.replace(/ /g, '')
  if (compact.length < 4 || compact.length > 20) return false
  const match = TVA.exec(compact)
  if (!match) return false
  const rest = match[2]
  return (rest.match(/[A-Za-z]/g) ?? []).length <= 2 && /[0-9]/.test(rest)
}

/** A code rule: characters removed before the check (after trimming), and the check. */
interface CodeRule {
  strip: RegExp
  ok: (compact: string) => boolean
}

const SPACES = / /g

/** Fields checked as codes, as the daemon's `code(...)` helper. */
const CODE_RULES: Partial<Record<ProfileField, CodeRule>> = {
  capital: { strip: SPACES, ok: (v) => CAPITAL.test(v) },
  bic: { strip: SPACES, ok: (v) => BIC.test(v) },
  ape: { strip: SPACES, ok: (v) => APE.test(v) },
  iban: { strip: SPACES, ok: isIbanValid },
  siret: { strip: SPACES, ok: (v) => SIRET.test(v) },
  tel: { strip: /[ .]/g, ok: (v) => TEL.test(v) },
  tvaintracom: { strip: SPACES, ok: isTvaValid },
  latitude: { strip: SPACES, ok: (v) => isCoordinateValid(v, 90) },
  longitude: { strip: SPACES, ok: (v) => isCoordinateValid(v, 180) },
}

/**
 * Validates one text field; returns its message or undefined. Empty is
 * accepted except for the name; undefined (a field not sent) always is.
 */
export function validateProfileField(field: ProfileField, value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  const code = CODE_RULES[field]
  if (code) {
    const compact = trimmed.replace(code.strip, '')
    return compact === '' || code.ok(compact) ? undefined : PROFILE_MESSAGES[field as ProfileRuleField]
  }
  if (field === 'name' && trimmed === '') return PROFILE_MESSAGES.name
  if (charLength(trimmed) > MAX_TEXT_LENGTH) return TOO_LONG_MESSAGE
  if (field === 'addressLine3') return postalLineError(trimmed)?.message
  if (field === 'emailAccounting' && trimmed !== '' && !isEmail(trimmed)) return PROFILE_MESSAGES.emailAccounting
  return undefined
}

/** Validates the delivery days of a producer: 7 booleans, at least one day chosen. */
export function validateDeliveryDays(days: readonly boolean[] | undefined): string | undefined {
  return days && days.length === 7 && days.some(Boolean) ? undefined : PROFILE_MESSAGES.defaultDeliveryDays
}

/** Editable text fields per role (PRODUCT §3), in form order. */
export const PROFILE_FIELDS: Record<UserType, ProfileField[]> = {
  producer: [
    'name',
    'tel',
    'addressLine1',
    'addressLine2',
    'addressLine3',
    'latitude',
    'longitude',
    'legal',
    'capital',
    'siret',
    'ape',
    'tvaintracom',
    'certification',
    'iban',
    'bic',
  ],
  distributor: [
    'name',
    'tel',
    'addressLine1',
    'addressLine2',
    'addressLine3',
    'latitude',
    'longitude',
    'emailAccounting',
    'billingAddressLine1',
    'billingAddressLine2',
    'billingAddressLine3',
    'legal',
    'capital',
    'siret',
    'ape',
    'tvaintracom',
    'certification',
    'iban',
    'bic',
  ],
}

/** Validates the whole profile form of a user of type `type`. */
export function validateProfile(values: ProfileValues, type: UserType): Errors<ProfileFormField> {
  const errors: Errors<ProfileFormField> = {}
  for (const field of PROFILE_FIELDS[type]) {
    const message = validateProfileField(field, values[field])
    if (message) errors[field] = message
  }
  if (values.postcode !== undefined || values.town !== undefined) {
    Object.assign(errors, addressErrors(values.postcode ?? '', values.town ?? ''))
    if (!errors.town && charLength((values.town ?? '').trim()) > MAX_TEXT_LENGTH) errors.town = TOO_LONG_MESSAGE
  }
  if (type === 'producer') {
    const message = validateDeliveryDays(values.defaultDeliveryDays)
    if (message) errors.defaultDeliveryDays = message
  }
  return errors
}
