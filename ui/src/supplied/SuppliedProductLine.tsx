import { Badge, Group, Image, Text } from '@mantine/core'
import { useEffect } from 'react'
import { type SuppliedProduct, labelBadge, loadProducer, useSupplied } from '../store/supplied'

/** A product's labels as badges, an organic one with its certifier's number (PRODUCT §3 "Producers' products"). */
export function LabelBadges({
  product,
}: {
  product: { readonly labels: readonly SuppliedProduct['labels'][number][]; readonly certifier: string }
}) {
  if (product.labels.length === 0) return null
  return (
    <Group gap={4}>
      {product.labels.map((l) => (
        <Badge key={l} variant="light" color={l === 'ab' || l === 'conversion' ? 'green' : 'grape'}>
          {labelBadge(l)}
          {(l === 'ab' || l === 'conversion') && product.certifier ? ` ${product.certifier}` : ''}
        </Badge>
      ))}
    </Group>
  )
}

/** The producers whose products were asked for, so that each is read once. */
const asked = new Set<string>()

/**
 * The producer's own product a proposal or a commitment names: its small
 * photo, its name and sale unit, its labels. Read from the producer's own
 * list when it is the viewer's, else from the producer's page (read once).
 * Nothing while it is unknown (a retired product, a page not read yet).
 */
export function SuppliedProductLine({ producerId, productId }: { producerId: string; productId: string }) {
  const { mine, byProducer } = useSupplied()
  const product = mine.find((p) => p._id === productId) ?? byProducer[producerId]?.find((p) => p._id === productId)
  useEffect(() => {
    if (product || asked.has(producerId)) return
    asked.add(producerId)
    void loadProducer(producerId)
  }, [product, producerId])
  if (!product) return null
  return (
    <Group gap="xs" wrap="nowrap" data-testid="supplied-product-line">
      {product.photo ? <Image src={product.photo.small} alt="" w={40} h={40} radius="sm" fit="cover" /> : null}
      <div>
        <Text size="sm" fw={500}>
          {product.name} · {product.saleUnit}
        </Text>
        <LabelBadges product={product} />
      </div>
    </Group>
  )
}
