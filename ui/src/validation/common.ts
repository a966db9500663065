// Shared pieces of the form validators. Every validator is a pure function
// returning the exact French messages of PRODUCT §5; the daemon checks the same
// rules with the same messages.

/** A map from field name to its error message; absent means valid. */
export type Errors<F extends string> = Partial<Record<F, string>>

/**
 * The email shape used everywhere (PRODUCT §5, "must look like an email"):
 * something, @, something, a dot, something, none of which holds an @, a
 * control or format character (NUL, line breaks, zero-width and bidi
 * marks) or a space of any kind. The daemon's pattern is the same
 * (core/accounts/validate.go).
 */
export const EMAIL_PATTERN = /^[^@\p{Cc}\p{Cf}\p{Z}]+@[^@\p{Cc}\p{Cf}\p{Z}]+\.[^@\p{Cc}\p{Cf}\p{Z}]+$/u

/** Longest accepted email, in UTF-8 bytes (the daemon's limit). */
export const MAX_EMAIL_BYTES = 254

/** Longest accepted free text, in characters (the daemon's limit). */
export const MAX_TEXT_LENGTH = 500

/** The daemon's message for a text over MAX_TEXT_LENGTH characters. */
export const TOO_LONG_MESSAGE = 'Ce champ est trop long (500 caractères au plus).'

/** Length of a string in UTF-8 bytes. */
export function utf8Length(value: string): number {
  return new TextEncoder().encode(value).length
}

/** Length of a string in characters (code points), as Go counts runes. */
export function charLength(value: string): number {
  return [...value].length
}

/** Whether `value` looks like an email address. The caller trims first. */
export function isEmail(value: string): boolean {
  return utf8Length(value) <= MAX_EMAIL_BYTES && EMAIL_PATTERN.test(value)
}

/** Whether `errors` holds no message. */
export function isValid<F extends string>(errors: Errors<F>): boolean {
  return Object.values(errors).every((message) => !message)
}
