import { describe, expect, it } from 'vitest'
import {
  REGISTRATION_MESSAGES as M,
  type RegistrationValues,
  isPasswordValid,
  validateRegistration,
} from './registration'

const valid: RegistrationValues = {
  email: 'contact@epicerie.fr',
  email2: 'contact@epicerie.fr',
  password: 'carottes42',
  password2: 'carottes42',
  name: 'Épicerie du coin',
  distributor: true,
}

describe('validateRegistration', () => {
  const cases: {
    name: string
    values: Partial<RegistrationValues>
    expected: ReturnType<typeof validateRegistration>
  }[] = [
    { name: 'valid shop', values: {}, expected: {} },
    { name: 'valid producer', values: { distributor: false }, expected: {} },
    { name: 'email missing', values: { email: '' }, expected: { email: M.emailRequired, email2: M.emailMismatch } },
    {
      name: 'email invalid',
      values: { email: 'contact@epicerie' },
      expected: { email: M.emailInvalid, email2: M.emailMismatch },
    },
    { name: 'email2 missing', values: { email2: '' }, expected: { email2: M.email2Required } },
    { name: 'email2 invalid', values: { email2: 'contact epicerie.fr' }, expected: { email2: M.emailInvalid } },
    ...[
      ['NUL', 'contact\u0000@epicerie.fr'],
      ['a line break inside', 'contact@epicerie.fr\r\nBcc: x@y.fr'],
      ['a tab', 'con\ttact@epicerie.fr'],
      ['an escape', 'contact\u001b[2J@epicerie.fr'],
      ['DEL', 'contact\u007f@epicerie.fr'],
      ['a C1 control', 'contact\u0085@epicerie.fr'],
      ['a zero-width space', 'con\u200btact@epicerie.fr'],
      ['a bidi override', 'contact\u202e@epicerie.fr'],
      ['a no-break space', 'con\u00a0tact@epicerie.fr'],
    ].map(([what, email]) => ({
      name: `email with ${what}`,
      values: { email, email2: email },
      expected: { email: M.emailInvalid, email2: M.emailInvalid },
    })),
    { name: 'email with accents', values: { email: 'épicerie@café.fr', email2: 'épicerie@café.fr' }, expected: {} },
    { name: 'email2 different', values: { email2: 'autre@epicerie.fr' }, expected: { email2: M.emailMismatch } },
    { name: 'email2 equal ignoring case', values: { email2: 'Contact@Epicerie.FR' }, expected: {} },
    {
      name: 'emails are trimmed',
      values: { email: ' contact@epicerie.fr ', email2: 'contact@epicerie.fr  ' },
      expected: {},
    },
    {
      name: 'blank email is missing',
      values: { email: '   ', email2: '   ' },
      expected: { email: M.emailRequired, email2: M.email2Required },
    },
    {
      name: 'email over 254 bytes',
      values: { email: `${'a'.repeat(250)}@x.fr`, email2: `${'a'.repeat(250)}@x.fr` },
      expected: { email: M.emailInvalid, email2: M.emailInvalid },
    },
    {
      name: 'password missing',
      values: { password: '', password2: '' },
      expected: { password: M.passwordInvalid, password2: M.passwordMismatch },
    },
    {
      name: 'password too short',
      values: { password: 'abc1234', password2: 'abc1234' },
      expected: { password: M.passwordInvalid },
    },
    {
      name: 'password without digit',
      values: { password: 'abcdefgh', password2: 'abcdefgh' },
      expected: { password: M.passwordInvalid },
    },
    {
      name: 'password without letter',
      values: { password: '12345678', password2: '12345678' },
      expected: { password: M.passwordInvalid },
    },
    { name: 'password of exactly 8', values: { password: 'abcdefg1', password2: 'abcdefg1' }, expected: {} },
    {
      name: 'password with accents and symbols',
      values: { password: 'pêches#2026', password2: 'pêches#2026' },
      expected: {},
    },
    { name: 'password2 missing', values: { password2: '' }, expected: { password2: M.passwordMismatch } },
    { name: 'password2 different', values: { password2: 'carottes43' }, expected: { password2: M.passwordMismatch } },
    {
      name: 'password2 differs by case',
      values: { password2: 'Carottes42' },
      expected: { password2: M.passwordMismatch },
    },
    { name: 'name missing', values: { name: '' }, expected: { name: M.nameRequired } },
    { name: 'name blank', values: { name: '   ' }, expected: { name: M.nameRequired } },
    { name: 'name of 500 characters', values: { name: 'é'.repeat(500) }, expected: {} },
    { name: 'name over 500 characters', values: { name: 'é'.repeat(501) }, expected: { name: M.nameTooLong } },
  ]
  it.each(cases)('$name', ({ values, expected }) => {
    expect(validateRegistration({ ...valid, ...values })).toEqual(expected)
  })

  it('reports every field of an empty form', () => {
    expect(
      validateRegistration({ email: '', email2: '', password: '', password2: '', name: '', distributor: false }),
    ).toEqual({
      email: M.emailRequired,
      email2: M.email2Required,
      password: M.passwordInvalid,
      password2: M.passwordMismatch,
      name: M.nameRequired,
    })
  })

  it('uses the PRODUCT texts', () => {
    expect(M).toEqual({
      emailRequired: 'Saisissez votre adresse email',
      emailInvalid: 'Adresse email invalide',
      email2Required: 'Confirmez votre adresse email',
      emailMismatch: 'Les deux adresses ne correspondent pas',
      passwordInvalid: 'Mot de passe invalide (8 caractères min., parmi lesquels des lettres et des chiffres)',
      passwordMismatch: 'Les deux mots de passe ne correspondent pas',
      nameRequired: 'Le nom de votre entreprise est requis.',
      nameTooLong: 'Ce champ est trop long (500 caractères au plus).',
    })
  })
})

describe('isPasswordValid', () => {
  it.each([
    ['abcdefg1', true],
    ['1234567a', true],
    ['ABCDEFG1', true],
    ['éèàùçôîa1', true],
    ['abcdefg٣', true], // an Arabic-Indic digit is a digit
    ['a1'.repeat(128), true], // 256 bytes
    ['a1'.repeat(128) + 'b', false], // 257 bytes
    ['é1'.repeat(86), false], // 172 characters but 258 bytes
    ['abcdef1', false],
    ['abcdefgh', false],
    ['12345678', false],
    ['        ', false],
    ['', false],
  ])('%j → %s', (password, expected) => {
    expect(isPasswordValid(password)).toBe(expected)
  })
})
