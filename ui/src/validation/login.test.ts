import { describe, expect, it } from 'vitest'
import { LOGIN_MESSAGES, type LoginValues, validateLogin } from './login'

const valid: LoginValues = { email: 'marie@ferme.fr', password: 'x' }

describe('validateLogin', () => {
  const cases: { name: string; values: Partial<LoginValues>; expected: ReturnType<typeof validateLogin> }[] = [
    { name: 'valid form', values: {}, expected: {} },
    { name: 'email missing', values: { email: '' }, expected: { email: LOGIN_MESSAGES.emailRequired } },
    { name: 'email without at', values: { email: 'marie.ferme.fr' }, expected: { email: LOGIN_MESSAGES.emailInvalid } },
    {
      name: 'email without dot in domain',
      values: { email: 'marie@ferme' },
      expected: { email: LOGIN_MESSAGES.emailInvalid },
    },
    {
      name: 'email with space',
      values: { email: 'marie @ferme.fr' },
      expected: { email: LOGIN_MESSAGES.emailInvalid },
    },
    { name: 'email is trimmed', values: { email: '  marie@ferme.fr ' }, expected: {} },
    { name: 'blank email is missing', values: { email: '   ' }, expected: { email: LOGIN_MESSAGES.emailRequired } },
    { name: 'password missing', values: { password: '' }, expected: { password: LOGIN_MESSAGES.passwordRequired } },
    { name: 'short password is accepted at login', values: { password: 'a' }, expected: {} },
    {
      name: 'both missing',
      values: { email: '', password: '' },
      expected: { email: LOGIN_MESSAGES.emailRequired, password: LOGIN_MESSAGES.passwordRequired },
    },
  ]
  it.each(cases)('$name', ({ values, expected }) => {
    expect(validateLogin({ ...valid, ...values })).toEqual(expected)
  })

  it('uses the PRODUCT texts', () => {
    expect(LOGIN_MESSAGES).toEqual({
      emailRequired: 'Saisissez votre adresse email',
      emailInvalid: 'Adresse email invalide',
      passwordRequired: 'Saisissez votre mot de passe',
    })
  })
})
