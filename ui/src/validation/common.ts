// Shared pieces of the form validators. Every validator is a pure function
// returning the exact French messages of SPEC §5; the daemon checks the same
// rules with the same messages.

/** A map from field name to its error message; absent means valid. */
export type Errors<F extends string> = Partial<Record<F, string>>

/** The email shape used everywhere (SPEC §5, "must look like an email"). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Whether `value` looks like an email address. Not trimmed. */
export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value)
}

/** Whether `errors` holds no message. */
export function isValid<F extends string>(errors: Errors<F>): boolean {
  return Object.values(errors).every((message) => !message)
}
