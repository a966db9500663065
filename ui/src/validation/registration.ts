// Registration form rules (PRODUCT §5 "Registration").
import { type Errors, MAX_TEXT_LENGTH, TOO_LONG_MESSAGE, charLength, isEmail, utf8Length } from './common'

export interface RegistrationValues {
  email: string
  email2: string
  password: string
  password2: string
  name: string
  /** true for a shop, false for a producer (the role toggle). */
  distributor: boolean
}

export type RegistrationField = Exclude<keyof RegistrationValues, 'distributor'>

export const REGISTRATION_MESSAGES = {
  emailRequired: 'Saisissez votre adresse email',
  emailInvalid: 'Adresse email invalide',
  email2Required: 'Confirmez votre adresse email',
  emailMismatch: 'Les deux adresses ne correspondent pas',
  passwordInvalid: 'Mot de passe invalide (8 caractères min., parmi lesquels des lettres et des chiffres)',
  passwordMismatch: 'Les deux mots de passe ne correspondent pas',
  nameRequired: 'Le nom de votre entreprise est requis.',
  nameTooLong: TOO_LONG_MESSAGE,
} as const

/** Minimum password length, in characters (PRODUCT §9). */
export const PASSWORD_MIN_LENGTH = 8

/** Maximum password length, in UTF-8 bytes (the daemon's limit). */
export const PASSWORD_MAX_BYTES = 256

/**
 * Whether a password is acceptable: at least 8 characters (code points), at
 * most 256 bytes, at least one letter and one digit (Unicode classes, as the
 * daemon's unicode.IsLetter and unicode.IsDigit).
 */
export function isPasswordValid(password: string): boolean {
  return (
    charLength(password) >= PASSWORD_MIN_LENGTH &&
    utf8Length(password) <= PASSWORD_MAX_BYTES &&
    /\p{L}/u.test(password) &&
    /\p{Nd}/u.test(password)
  )
}

/**
 * Validates the registration form; returns one message per invalid field.
 * Emails and name are trimmed (as the daemon does); passwords are not.
 */
export function validateRegistration(values: RegistrationValues): Errors<RegistrationField> {
  const m = REGISTRATION_MESSAGES
  const errors: Errors<RegistrationField> = {}
  const email = values.email.trim()
  const email2 = values.email2.trim()
  const name = values.name.trim()

  if (email === '') errors.email = m.emailRequired
  else if (!isEmail(email)) errors.email = m.emailInvalid

  if (email2 === '') errors.email2 = m.email2Required
  else if (!isEmail(email2)) errors.email2 = m.emailInvalid
  else if (email2.toLowerCase() !== email.toLowerCase()) errors.email2 = m.emailMismatch

  if (!isPasswordValid(values.password)) errors.password = m.passwordInvalid

  if (values.password2 === '' || values.password2 !== values.password) errors.password2 = m.passwordMismatch

  if (name === '') errors.name = m.nameRequired
  else if (charLength(name) > MAX_TEXT_LENGTH) errors.name = m.nameTooLong

  return errors
}
