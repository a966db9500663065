import { unitAfter, unitDigits } from './units'

// French formatting helpers (PRODUCT §1: French locale, EUR, Europe/Paris).
// Date-only strings ("2026-12-01") are formatted as calendar dates, never
// shifted by a time zone; timestamps (RFC 3339) are shown in Europe/Paris.

export const LOCALE = 'fr-FR'
export const TIME_ZONE = 'Europe/Paris'

/** Parses "YYYY-MM-DD" (or "YYYY-MM") into a UTC midnight date, or null. */
function parseDay(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?/.exec(value)
  if (!m) return null
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, m[3] ? Number(m[3]) : 1))
}

function formatDayWith(value: string, options: Intl.DateTimeFormatOptions): string {
  const date = parseDay(value)
  return date ? new Intl.DateTimeFormat(LOCALE, { ...options, timeZone: 'UTC' }).format(date) : value
}

/** 1234.5 → "1 234,5" (at most `maxDecimals` decimals, 2 by default). */
export function formatNumber(value: number, maxDecimals = 2): string {
  return new Intl.NumberFormat(LOCALE, { maximumFractionDigits: maxDecimals }).format(value)
}

/** 12.5 → "12,50 €". */
export function formatEUR(value: number): string {
  return new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'EUR' }).format(value)
}

/** A quantity with its unit: (12.5, "kg") → "12,5 kg", (3, "un") → "3 un", (2, "douzaine") → "2 douzaines". */
export function formatQuantity(value: number, unit: string): string {
  return `${formatNumber(value, unitDigits(unit))} ${unit === 'un' ? unit : unitAfter(value, unit)}`
}

/** "2026-12-01" → "décembre 2026" (needs are shown by month, PRODUCT §2). */
export function formatMonthYear(value: string): string {
  return formatDayWith(value, { month: 'long', year: 'numeric' })
}

/** "2026-12-24" → "24/12/2026". */
export function formatDay(value: string): string {
  return formatDayWith(value, { day: '2-digit', month: '2-digit', year: 'numeric' })
}

/** "2026-12-03" → "3 décembre 2026", as a sentence writes a day. */
export function formatDayInWords(value: string): string {
  return formatDayWith(value, { day: 'numeric', month: 'long', year: 'numeric' })
}

/** "2026-12-24" → "jeudi 24 décembre 2026". */
export function formatLongDay(value: string): string {
  return formatDayWith(value, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })
}

/**
 * Upper-cases the first letter only, as a French heading starts:
 * "mardi 15 juin 2027" → "Mardi 15 juin 2027". (CSS text-transform:
 * capitalize would upper-case every word: "Mardi 15 Juin 2027".)
 */
export function capitalizeFirst(text: string): string {
  const first = text.codePointAt(0)
  if (first === undefined) return text
  const letter = String.fromCodePoint(first)
  return letter.toLocaleUpperCase(LOCALE) + text.slice(letter.length)
}

/** The calendar day of a timestamp in Europe/Paris: "2026-12-24T23:30:00Z" → "2026-12-25". */
export function dayOf(timestamp: string | Date): string {
  const date = typeof timestamp === 'string' ? new Date(timestamp) : timestamp
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(date)
}

/** The time of a timestamp in Europe/Paris: "14:05". */
export function formatTime(timestamp: string | Date): string {
  const date = typeof timestamp === 'string' ? new Date(timestamp) : timestamp
  return new Intl.DateTimeFormat(LOCALE, { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit' }).format(date)
}
