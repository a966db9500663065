import { Alert, Card, Container, Group, Image, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { useEffect } from 'react'
import { useParams } from 'wouter'
import { formatEUR } from '../format'
import { useProducers } from '../store/hooks'
import { type SuppliedProduct, loadProducer, useSupplied } from '../store/supplied'
import { ProducerOffers } from '../supplied/Offers'
import { LabelBadges } from '../supplied/SuppliedProductLine'
import { unitLabel } from '../units'

const MONTHS = ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.']

/** The French texts of the page. */
export const PRODUCER_PAGE_TEXTS = {
  fallbackName: 'Producteur',
  intro: 'Les produits que ce producteur vend, avec leurs labels.',
  none: 'Ce producteur n’a pas encore de produit en vente.',
  allYear: 'Toute l’année',
} as const

/**
 * A producer's page for shops (PRODUCT §3 "Producers' products"): its
 * products with their photos, sale units, labels, months and reference
 * prices, read from `GET /api/producers/{producerId}/supplied-products`.
 */
export function ProducerPage() {
  const { producerId } = useParams<{ producerId: string }>()
  const producers = useProducers()
  const { byProducer, closed } = useSupplied()
  useEffect(() => {
    void loadProducer(producerId)
  }, [producerId])
  const name = producers.find((p) => p._id === producerId)?.name ?? PRODUCER_PAGE_TEXTS.fallbackName
  const products = byProducer[producerId]
  return (
    <Container size="lg" py="md">
      <Stack gap="md">
        <div>
          <Title order={1}>{name}</Title>
          <Text c="dimmed" size="sm">
            {PRODUCER_PAGE_TEXTS.intro}
          </Text>
        </div>
        {closed[producerId] ? <Alert color="gray">{closed[producerId]}</Alert> : null}
        <ProducerOffers producerId={producerId} />
        {products && products.length === 0 && !closed[producerId] ? <Text>{PRODUCER_PAGE_TEXTS.none}</Text> : null}
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {(products ?? []).map((p) => (
            <ProductCard key={p._id} product={p as SuppliedProduct} />
          ))}
        </SimpleGrid>
      </Stack>
    </Container>
  )
}

function ProductCard({ product }: { product: SuppliedProduct }) {
  return (
    <Card withBorder padding="sm" role="article" aria-label={product.name}>
      {product.photo ? (
        <Card.Section>
          <Image src={product.photo.medium} alt={`Photo : ${product.name}`} h={180} fit="cover" />
        </Card.Section>
      ) : null}
      <Stack gap={4} mt="xs">
        <Text fw={700}>{product.name}</Text>
        <Text size="sm" c="dimmed">
          {product.productTypeName} · {product.saleUnit}
        </Text>
        <LabelBadges product={product} />
        <Group gap="xs">
          <Text size="sm">
            {product.months.length === 12
              ? PRODUCER_PAGE_TEXTS.allYear
              : product.months.map((m) => MONTHS[m - 1]).join(', ')}
          </Text>
          {product.refPrice > 0 ? (
            <Text size="sm">
              · {formatEUR(product.refPrice)} HT / {unitLabel(product.unit)}
            </Text>
          ) : null}
        </Group>
      </Stack>
    </Card>
  )
}
