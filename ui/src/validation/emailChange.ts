// The change of the login email from the profile (PRODUCT §13 "Confirming
// an email", "Changing the login email"): the new address and the current
// password; the daemon checks the same and another address than the
// current one, and answers alike whether another account has it or not.
import { type Errors, isEmail } from './common'
import { CHANGE_TEXTS } from './passwordReset'
import { REGISTRATION_MESSAGES } from './registration'

export interface EmailChangeValues {
  email: string
  current: string
}

export type EmailChangeField = keyof EmailChangeValues

export const EMAIL_CHANGE_TEXTS = {
  title: "Changer d'adresse email",
  intro:
    "Un lien de confirmation est envoyé à la nouvelle adresse : elle remplace l'actuelle une fois le lien ouvert. D'ici là, connectez-vous avec l'actuelle. Si un compte utilise déjà cette adresse, c'est elle qui en est avertie.",
  current: (email: string) => `Adresse actuelle : ${email}`,
  email: 'Nouvelle adresse email',
  password: CHANGE_TEXTS.current,
  submit: "Changer d'adresse",
  pending: (email: string) => `En attente de confirmation : ${email}`,
} as const

/** Validates the new address (trimmed, as the daemon does) and that the current password is given. */
export function validateEmailChange(values: EmailChangeValues): Errors<EmailChangeField> {
  const errors: Errors<EmailChangeField> = {}
  const email = values.email.trim()
  if (email === '') errors.email = REGISTRATION_MESSAGES.emailRequired
  else if (!isEmail(email)) errors.email = REGISTRATION_MESSAGES.emailInvalid
  if (values.current === '') errors.current = CHANGE_TEXTS.currentRequired
  return errors
}
