// Password reset forms (PRODUCT §13 "Password reset"): the email of the
// forgotten password, then the new password, by PRODUCT §5's rule.
import { type Errors, isEmail } from './common'
import { REGISTRATION_MESSAGES, isPasswordValid } from './registration'

export interface ForgotValues {
  email: string
}

export type ForgotField = keyof ForgotValues

export interface ResetValues {
  password: string
  password2: string
}

export type ResetField = keyof ResetValues

export const RESET_TEXTS = {
  forgotLink: 'Mot de passe oublié ?',
  forgotTitle: 'Mot de passe oublié',
  forgotIntro:
    'Indiquez l’adresse email de votre compte : nous vous y enverrons un lien pour choisir un nouveau mot de passe.',
  forgotSubmit: 'Recevoir le lien',
  resetTitle: 'Choisir un nouveau mot de passe',
  resetSubmit: 'Enregistrer le mot de passe',
  newPassword: 'Nouveau mot de passe',
  newPassword2: 'Confirmation du nouveau mot de passe',
  missingToken: "Ce lien est incomplet : ouvrez celui de l'email tel quel, ou demandez-en un nouveau.",
  newLink: 'Demander un nouveau lien',
  backToLogin: 'Retour à la connexion',
} as const

/** Validates the email of the forgotten-password form (trimmed, as the daemon does). */
export function validateForgot(values: ForgotValues): Errors<ForgotField> {
  const email = values.email.trim()
  if (email === '') return { email: REGISTRATION_MESSAGES.emailRequired }
  if (!isEmail(email)) return { email: REGISTRATION_MESSAGES.emailInvalid }
  return {}
}

/** Validates the new password and its confirmation. */
export function validateReset(values: ResetValues): Errors<ResetField> {
  const errors: Errors<ResetField> = {}
  if (!isPasswordValid(values.password)) errors.password = REGISTRATION_MESSAGES.passwordInvalid
  if (values.password2 !== values.password) errors.password2 = REGISTRATION_MESSAGES.passwordMismatch
  return errors
}

export interface ChangeValues {
  current: string
  password: string
  password2: string
}

export type ChangeField = keyof ChangeValues

export const CHANGE_TEXTS = {
  title: 'Mot de passe',
  current: 'Mot de passe actuel',
  currentRequired: 'Saisissez votre mot de passe actuel',
  submit: 'Changer le mot de passe',
} as const

/** Validates the profile's password change: the current one, then the new one twice. */
export function validateChange(values: ChangeValues): Errors<ChangeField> {
  const errors: Errors<ChangeField> = validateReset(values)
  if (values.current === '') errors.current = CHANGE_TEXTS.currentRequired
  return errors
}
