import { Anchor, Image, Stack, Text } from '@mantine/core'
import { Link } from 'wouter'
import { productOf, typed } from '../deliveries/products'
import { paths } from '../routing'
import type { Delivery, Product, UserType } from '../types'
import { unitLabel } from '../units'
import { REASON_LABELS, receivedText } from './model'

/**
 * A delivery's reception in its panel (PRODUCT §16 "Reception"): once
 * received, "Reçu le … par …" and each line received otherwise — the
 * shop's claim the producer reviews — with its photo; before, for the shop,
 * the link to the reception screen while it may receive it.
 */
export function ReceptionSummary({
  delivery,
  role,
  products,
  receivable,
}: {
  delivery: Delivery
  role: UserType
  products: ReadonlyMap<string, Product>
  /** The shop may receive it (canReceive). */
  receivable: boolean
}) {
  if (!delivery.receivedAt) {
    if (role !== 'distributor' || !receivable) return null
    return (
      <Anchor component={Link} href={paths.disReception(delivery.orderId, delivery._id)} fw={600}>
        Réceptionner la livraison (sur le téléphone)
      </Anchor>
    )
  }
  const reserves = delivery.deliveryLines.filter((l) => l.receptionReason)
  return (
    <Stack gap={6} data-testid="reception">
      <Text fw={600}>{receivedText(delivery.receivedAt, delivery.receivedBy ?? '')}</Text>
      {reserves.length === 0 ? (
        <Text size="sm">Aucune réserve : chaque ligne reçue comme le bon l'indique.</Text>
      ) : (
        <>
          <Text size="sm" fw={600}>
            Réserves à la réception
          </Text>
          {reserves.map((l) => {
            const { name, unit } = productOf(products, l.product)
            const reason = REASON_LABELS[l.receptionReason as keyof typeof REASON_LABELS]
            return (
              <Stack key={l._id} gap={4}>
                <Text size="sm">
                  {name} : reçu {typed(l.quantityReceived ?? l.quantitySent)} {unitLabel(unit)} sur{' '}
                  {typed(l.quantitySent)} {unitLabel(unit)} ({reason.toLowerCase()})
                  {l.receptionComment ? ` — ${l.receptionComment}` : ''}
                </Text>
                {l.photoId ? (
                  <Anchor href={`/print/image/${encodeURIComponent(l.photoId)}`} target="_blank" rel="noopener">
                    <Image
                      src={`/print/image/${encodeURIComponent(l.photoId)}`}
                      alt={`Photo du problème — ${name}`}
                      maw={200}
                      radius="sm"
                    />
                  </Anchor>
                ) : null}
              </Stack>
            )
          })}
        </>
      )}
    </Stack>
  )
}
