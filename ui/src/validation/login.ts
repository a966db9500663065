// Login form rules (PRODUCT §5 "Login").
import { type Errors, isEmail } from './common'

export interface LoginValues {
  email: string
  password: string
}

export type LoginField = keyof LoginValues

export const LOGIN_MESSAGES = {
  emailRequired: 'Saisissez votre adresse email',
  emailInvalid: 'Adresse email invalide',
  passwordRequired: 'Saisissez votre mot de passe',
} as const

/** Validates the login form; returns one message per invalid field. The email is trimmed. */
export function validateLogin(values: LoginValues): Errors<LoginField> {
  const errors: Errors<LoginField> = {}
  const email = values.email.trim()
  if (email === '') errors.email = LOGIN_MESSAGES.emailRequired
  else if (!isEmail(email)) errors.email = LOGIN_MESSAGES.emailInvalid
  if (values.password === '') errors.password = LOGIN_MESSAGES.passwordRequired
  return errors
}
