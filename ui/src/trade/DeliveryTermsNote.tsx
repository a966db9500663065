import { Text } from '@mantine/core'
import { useEffect } from 'react'
import { formatEUR, formatNumber } from '../format'
import { type AppliedTerms, loadApplied, useFees } from '../store/fees'

/** The sentences of a producer's terms for the shop; none when it has neither minimum nor fees. */
export function termsText(a: AppliedTerms): string[] {
  const out: string[] = []
  if (a.minimum > 0) out.push(`Commande minimum : ${formatEUR(a.minimum)} HT par livraison`)
  const where = a.distanceKm === undefined ? '' : ` (à ${formatNumber(a.distanceKm, 1)} km)`
  if (a.fee > 0) {
    const free = a.freeAbove > 0 ? `, offerts dès ${formatEUR(a.freeAbove)} HT livrés` : ''
    out.push(`Frais de livraison : ${formatEUR(a.fee)} HT par livraison${where}${free}`)
  } else if (a.exception || out.length > 0) {
    out.push('Livraison offerte')
  }
  return out
}

/**
 * What a producer asks of the shop per delivery (PRODUCT §16 "Minimum order
 * and delivery fees"), shown above its proposals so that the shop sees the
 * minimum and the fees before it accepts.
 */
export function DeliveryTermsNote({ producerId }: { producerId: string }) {
  const { applied } = useFees()
  useEffect(() => {
    void loadApplied(producerId)
  }, [producerId])
  const a = applied[producerId]
  const lines = a ? termsText(a) : []
  if (lines.length === 0) return null
  return (
    <Text size="sm" c="dimmed" aria-label="Conditions de livraison">
      {lines.join(' · ')}
    </Text>
  )
}
