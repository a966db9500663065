// Profile form rules (PRODUCT §5 "Profile form"), the same as the daemon's
// (core/accounts/validate.go). Every field may be left empty except the company
// name; values are trimmed, and codes lose their spaces (the phone number also
// its dots) before they are checked.
import type { ProfileField, UserType } from '../types'
import { addressErrors, postalLineError } from './address'
import { type Errors, MAX_TEXT_LENGTH, TOO_LONG_MESSAGE, charLength } from './common'
import { IDENTIFIER_MESSAGES, compactId, isSiretValid, isVatValid, vatMatchesSiret } from './identifiers'
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
  /** The current password, asked when the IBAN or BIC changes (PRODUCT §13 "Changing the bank details"). */
  currentPassword?: string
}

/** The fields of the form that may carry an error. */
export type ProfileFormField = ProfileField | 'defaultDeliveryDays' | 'postcode' | 'town' | 'currentPassword'

/** Fields that carry a rule. `defaultDeliveryDays` is checked for producers only. */
export type ProfileRuleField =
  | 'name'
  | 'defaultDeliveryDays'
  | 'capital'
  | 'bic'
  | 'ape'
  | 'iban'
  | 'siret'
  | 'tel'
  | 'latitude'
  | 'longitude'
  | 'tvaintracom'
  | 'currentPassword'

export const PROFILE_MESSAGES = {
  // The daemon refuses an empty company name.
  name: REGISTRATION_MESSAGES.nameRequired,
  defaultDeliveryDays:
    'Vous devez choisir au moins un jour de livraison (vous pourrez corriger votre choix à tout moment si nécessaire).',
  capital: 'Le capital saisi doit être un nombre.',
  bic: 'Veuillez saisir un code BIC valide (LLLLLLXXXXX, L : lettre - X : chiffre ou lettre).',
  ape: 'Veuillez saisir un code APE valide (CCCCL, C : Chiffre - L : lettre).',
  iban: 'Veuillez saisir un code IBAN valide.',
  siret: 'Veuillez saisir un code SIRET valide.',
  tel: 'Veuillez saisir un n° de téléphone valide (10 chiffres).',
  // Sic: PRODUCT §5 gives this text without "saisir".
  latitude: 'Veuillez saisir une latitude valide',
  longitude: 'Veuillez saisir une longitude valide',
  tvaintracom:
    'Veuillez saisir un n° de TVA intra-communautaire valide ou laisser ce champ vide si vous êtes exempté de TVA.',
  currentPassword: "Pour modifier l'IBAN ou le BIC, saisissez votre mot de passe actuel.",
} as const satisfies Record<ProfileRuleField, string>

const CAPITAL = /^\d+$/
const BIC = /^[A-Za-z]{4}[A-Za-z]{2}[A-Za-z0-9]{2}[A-Za-z0-9]{3}$/
const APE = /^\d{4}[A-Za-z]$/
const IBAN = /^[A-Za-z]{2}\d{2}[A-Za-z0-9]{4}\d{7}[A-Za-z0-9]{0,16}$/
const TEL = /^\d{10}$/
const COORDINATE = /^-?[0-9.]+$/

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
 * Intra-community VAT number, spaces removed (validation/identifiers.ts): a
 * French one is FR, its key and a valid SIREN; another country's has 2 to 4
 * letters, then digits, dashes or underscores with at most 2 further
 * letters anywhere and at least one digit, 4 to 20 characters in all (the
 * greedy prefix leaves the fewest letters after it).
 */
export function isTvaValid(value: string): boolean {
  return isVatValid(value.replace(/ /g, ''))
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
  siret: { strip: SPACES, ok: isSiretValid },
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
    'billingAddressLine1',
    'billingAddressLine2',
    'billingAddressLine3',
    'openingHours',
    'deliveryInstructions',
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

/** The identifiers a stored value of which, left unchanged, is not checked again (PRODUCT §5 "Identifiers"). */
const IDENTIFIERS: readonly ProfileField[] = ['siret', 'tvaintracom']

/**
 * Whether a field differs from the stored value, spaces and case aside (as
 * the daemon compares codes); without the stored values, whether it is
 * given at all (sent).
 */
function changedFrom(values: ProfileValues, initial: ProfileValues | undefined, field: ProfileField): boolean {
  if (!initial) return values[field] !== undefined
  return compactId(values[field] ?? '') !== compactId(initial[field] ?? '')
}

/** Whether the form changes the IBAN or the BIC: the current password is then needed (PRODUCT §13). */
export function changesBank(values: ProfileValues, initial: ProfileValues | undefined): boolean {
  return changedFrom(values, initial, 'iban') || changedFrom(values, initial, 'bic')
}

/**
 * Validates the whole profile form of a user of type `type`. `initial`, the
 * stored values, makes the rules of the daemon on what changes: a SIRET or
 * VAT number left as stored is not checked again (one stored before the
 * checks is the notice's, not a blocking error), a French VAT number and
 * the SIRET must carry one SIREN when either changes (the error on the VAT
 * number when it changed, else on the SIRET), and a change of IBAN or BIC
 * needs the current password.
 */
export function validateProfile(
  values: ProfileValues,
  type: UserType,
  initial?: ProfileValues,
): Errors<ProfileFormField> {
  const errors: Errors<ProfileFormField> = {}
  for (const field of PROFILE_FIELDS[type]) {
    if (IDENTIFIERS.includes(field) && !changedFrom(values, initial, field)) continue
    const message = validateProfileField(field, values[field])
    if (message) errors[field] = message
  }
  const siretChanged = changedFrom(values, initial, 'siret')
  const vatChanged = changedFrom(values, initial, 'tvaintracom')
  if ((siretChanged || vatChanged) && !errors.siret && !errors.tvaintracom) {
    const siret = siretChanged ? (values.siret ?? '') : (initial?.siret ?? '')
    const vat = vatChanged ? (values.tvaintracom ?? '') : (initial?.tvaintracom ?? '')
    if (!vatMatchesSiret(vat, siret)) errors[vatChanged ? 'tvaintracom' : 'siret'] = IDENTIFIER_MESSAGES.vatSiret
  }
  if (initial && changesBank(values, initial) && (values.currentPassword ?? '') === '') {
    errors.currentPassword = PROFILE_MESSAGES.currentPassword
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
