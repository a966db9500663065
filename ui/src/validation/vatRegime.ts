// VAT regime rules (PRODUCT §16 "VAT regimes"), the same as the daemon's
// (core/accounts: MsgVATRegime, MsgVATRegimeNumber): a regime of the three,
// and under the normal regime the VAT number the invoices carry.
import type { VatRegime } from '../types'
import type { Errors } from './common'

export const VAT_REGIME_MESSAGES = {
  vatRegime:
    'Choisissez votre régime de TVA : régime normal, franchise en base (art. 293 B du CGI) ou remboursement forfaitaire agricole.',
  number:
    'Au régime normal de TVA, vos factures portent votre n° de TVA intracommunautaire : renseignez-le, ou choisissez un régime sans TVA.',
} as const

export const VAT_REGIMES: readonly VatRegime[] = ['normal', 'franchise', 'flat']

/** The regime of a producer who chose none: normal with a VAT number, else the flat-rate refund. */
export function defaultVatRegime(vatNumber: string): VatRegime {
  return vatNumber.trim() === '' ? 'flat' : 'normal'
}

export function validateVatRegime(regime: string, vatNumber: string): Errors<'vatRegime'> {
  if (!(VAT_REGIMES as readonly string[]).includes(regime)) return { vatRegime: VAT_REGIME_MESSAGES.vatRegime }
  if (regime === 'normal' && vatNumber.trim() === '') return { vatRegime: VAT_REGIME_MESSAGES.number }
  return {}
}
