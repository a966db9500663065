import type { Snapshot } from 'valtio'
import { Anchor, Group, Stack, Text, Title } from '@mantine/core'
import type { UserType } from '../types'

// The buyer's documents of the agricultural flat-rate refund (PRODUCT §16
// "Buyer's documents under the flat-rate refund"), as `GET /api/payments`
// lists them in an account whose producer sells under it.

/** A purchase slip (bulletin d'achat) of a recorded payment. */
export interface PurchaseSlip {
  paymentId: string
  number: string
  paidOn: string
  /** The payment's part under the refund, EUR. */
  amount: number
  /** Where its PDF is downloaded. */
  path: string
}

/** A yearly certificate (attestation annuelle). */
export interface FlatRateCertificate {
  year: number
  /** The year's payments under the refund, EUR. */
  amount: number
  path: string
}

export interface FlatRateDocuments {
  /** The shop is liable to VAT (it has a VAT number): the documents exist only then. */
  liable: boolean
  /** Why there are none, when the shop is not. */
  why?: string
  /** Newest first. */
  slips: PurchaseSlip[]
  /** Newest first. */
  certificates: FlatRateCertificate[]
}

export const FLAT_RATE_TEXTS = {
  title: 'Remboursement forfaitaire agricole',
  slip: "Bulletin d'achat (PDF)",
  certificate: (year: number) => `Attestation annuelle ${year} (PDF)`,
  distributor:
    "Ce producteur est placé sous le régime du remboursement forfaitaire agricole : en tant qu'acheteur redevable de la TVA, vous lui remettez un bulletin d'achat à chaque paiement et, au début de chaque année, l'attestation de vos paiements de l'année écoulée (art. 265 et 266 de l'annexe II au CGI). Primeur les établit à votre nom : téléchargez-les et transmettez-les au producteur, qui peut aussi les télécharger.",
  producer:
    "Vous êtes placé sous le régime du remboursement forfaitaire agricole : joignez les attestations annuelles de vos acheteurs à votre demande de remboursement. Les bulletins d'achat de chaque paiement et les attestations sont établis au nom du magasin.",
  none: 'Aucun paiement enregistré pour le moment.',
} as const

/** The slip of a payment, when it has one. */
export function slipOf(flatRate: Snapshot<FlatRateDocuments> | undefined, paymentId: string) {
  return flatRate?.slips.find((s) => s.paymentId === paymentId)
}

/** The "Bulletin d'achat (PDF)" link beside a recorded payment. */
export function SlipLink({
  flatRate,
  paymentId,
}: {
  flatRate: Snapshot<FlatRateDocuments> | undefined
  paymentId: string
}) {
  const slip = slipOf(flatRate, paymentId)
  if (!slip) return null
  return (
    <Anchor href={slip.path} download size="sm" aria-label={`Bulletin d'achat ${slip.number} (PDF)`}>
      {FLAT_RATE_TEXTS.slip}
    </Anchor>
  )
}

/**
 * What an account has of the buyer's documents: why there are none (a shop
 * without VAT number), else what the law asks of each side and the yearly
 * certificates, newest first.
 */
export function FlatRateSection({
  flatRate,
  role,
  partnerId,
}: {
  flatRate: Snapshot<FlatRateDocuments>
  role: UserType
  partnerId: string
}) {
  const titleId = `flat-rate-${partnerId}`
  return (
    <Stack gap={4} component="section" aria-labelledby={titleId}>
      <Title order={3} size="h6" id={titleId}>
        {FLAT_RATE_TEXTS.title}
      </Title>
      {!flatRate.liable ? (
        <Text size="sm" c="dimmed" role="note">
          {flatRate.why}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {FLAT_RATE_TEXTS[role]}
          </Text>
          {flatRate.certificates.length > 0 ? (
            <Group gap="md">
              {flatRate.certificates.map((c) => (
                <Anchor key={c.year} href={c.path} download size="sm">
                  {FLAT_RATE_TEXTS.certificate(c.year)}
                </Anchor>
              ))}
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {FLAT_RATE_TEXTS.none}
            </Text>
          )}
        </>
      )}
    </Stack>
  )
}
