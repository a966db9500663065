// A postal address as the profile form asks it (PRODUCT §2 "Profile form",
// §5 "Profile form"): street, complement, postal code and town, stored in the
// three address lines of the user (PRODUCT §3 "User") — the postal code and
// town in `addressLine3` as "74230 Thônes", the line the daemon reads for the
// department (core/address) and prints on documents. The daemon checks the
// same rule on `addressLine3` (core/accounts/validate.go, postalLine).

/** The messages of the postal code and town, the daemon's too. */
export const ADDRESS_MESSAGES = {
  postcode: 'Veuillez saisir un code postal valide (5 chiffres).',
  town: 'Veuillez saisir la ville.',
} as const

/** The fields of the address as the form shows them. */
export interface AddressParts {
  street: string
  complement: string
  postcode: string
  town: string
}

/** A line starting with a postal code, as core/address reads one: "74230 Thônes". */
const POSTAL_LINE = /^([0-9]{5})\s+(.+)$/

/**
 * The address of three stored lines: the last line starting with a postal
 * code gives the postal code and town (core/address.City), the other lines
 * the street and its complement, in order. Without such a line, the third
 * line is taken as the town (older profiles typed "Annecy" there).
 */
export function splitAddress(lines: readonly [string, string, string]): AddressParts {
  const trimmed = lines.map((l) => (l ?? '').trim())
  let index = -1
  let postcode = ''
  let town = ''
  trimmed.forEach((line, i) => {
    const m = POSTAL_LINE.exec(line)
    if (m) {
      index = i
      postcode = m[1]
      town = m[2].trim()
    }
  })
  if (index === -1) return { street: trimmed[0], complement: trimmed[1], postcode: '', town: trimmed[2] }
  const others = trimmed.filter((line, i) => i !== index && line !== '')
  return { street: others[0] ?? '', complement: others.slice(1).join(', '), postcode, town }
}

/** The stored line of a postal code and a town: "74230 Thônes" (either alone when the other is empty). */
export function postalLine(postcode: string, town: string): string {
  return [postcode.replace(/\s/g, ''), town.trim()].filter(Boolean).join(' ')
}

/** The three stored lines of an address. */
export function joinAddress(parts: AddressParts): [string, string, string] {
  return [parts.street.trim(), parts.complement.trim(), postalLine(parts.postcode, parts.town)]
}

/** A postal code of 5 digits, 01000 at least (spaces ignored). */
export function isPostcodeValid(value: string): boolean {
  const code = value.replace(/\s/g, '')
  return /^\d{5}$/.test(code) && code >= '01000'
}

/**
 * The rule of the stored postal line (`addressLine3`), as the daemon applies
 * it: a line starting with a digit starts with a 5-digit postal code
 * followed by the town. Returns the field at fault and its message.
 */
export function postalLineError(line: string): { field: 'postcode' | 'town'; message: string } | undefined {
  const text = line.trim()
  if (!/^\d/.test(text)) return undefined
  const m = /^(\d+)(.*)$/.exec(text)!
  if (!isPostcodeValid(m[1]) || (m[2] !== '' && !/^\s/.test(m[2])))
    return { field: 'postcode', message: ADDRESS_MESSAGES.postcode }
  if (m[2].trim() === '') return { field: 'town', message: ADDRESS_MESSAGES.town }
  return undefined
}

/**
 * The errors of the postal code and town fields: a postal code must be
 * valid and then needs a town; a town typed alone must not start with a
 * malformed postal code.
 */
export function addressErrors(postcode: string, town: string): { postcode?: string; town?: string } {
  const code = postcode.replace(/\s/g, '')
  if (code !== '') {
    if (!isPostcodeValid(code)) return { postcode: ADDRESS_MESSAGES.postcode }
    if (town.trim() === '') return { town: ADDRESS_MESSAGES.town }
    return {}
  }
  const error = postalLineError(town)
  return error ? { town: error.message } : {}
}

/** Whether an address is complete enough for documents: street, postal code and town. */
export function isAddressComplete(parts: AddressParts): boolean {
  return parts.street !== '' && isPostcodeValid(parts.postcode) && parts.town !== ''
}
