// Registration form rules (SPEC §5 "Registration").
import { type Errors, isEmail } from './common'

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
} as const

/** Minimum password length, in characters (SPEC §9). */
export const PASSWORD_MIN_LENGTH = 8

/**
 * Whether a password is acceptable: at least 8 characters (code points),
 * at least one letter and at least one digit 0-9.
 */
export function isPasswordValid(password: string): boolean {
  return [...password].length >= PASSWORD_MIN_LENGTH && /\p{L}/u.test(password) && /[0-9]/.test(password)
}

/** Validates the registration form; returns one message per invalid field. */
export function validateRegistration(values: RegistrationValues): Errors<RegistrationField> {
  const m = REGISTRATION_MESSAGES
  const errors: Errors<RegistrationField> = {}

  if (values.email === '') errors.email = m.emailRequired
  else if (!isEmail(values.email)) errors.email = m.emailInvalid

  if (values.email2 === '') errors.email2 = m.email2Required
  else if (!isEmail(values.email2)) errors.email2 = m.emailInvalid
  else if (values.email2.toLowerCase() !== values.email.toLowerCase()) errors.email2 = m.emailMismatch

  if (!isPasswordValid(values.password)) errors.password = m.passwordInvalid

  if (values.password2 === '' || values.password2 !== values.password) errors.password2 = m.passwordMismatch

  if (values.name.trim() === '') errors.name = m.nameRequired

  return errors
}
