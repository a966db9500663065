import { Stack, Text, Title } from '@mantine/core'
import { useMemo } from 'react'
import { usePrices, useProducts } from '../store/hooks'
import type { ProductRO } from './model'
import { perUnit, priceHint } from './price'

export const PRICE_TEXTS = {
  title: 'Information prix',
  observed: "Prix d'achat moyen observé",
  shopPrice: 'Prix de vente magasin pour une marge de 30 %',
  reference: 'Prix de référence producteur (catalogue)',
  referenceShopPrice: 'Prix de vente magasin indicatif pour une marge de 30 %',
  referenceNote:
    "Pas assez d'achats comparables pour afficher une moyenne : ces prix du catalogue sont des références indicatives.",
  none: 'Aucune information de prix pour ce produit.',
} as const

/**
 * Price information of the right pane (PRODUCT §2): the average purchase price
 * observed on the platform and, × 1.3, the shop price for a 30 % margin; the
 * catalogue's reference producer price, labelled so, when the server gives
 * no average (nothing bought, or too few comparable purchases to show one:
 * PRODUCT §15 "Price privacy").
 */
export function PriceInfo({ product }: { product: ProductRO }) {
  const prices = usePrices()
  const products = useProducts()
  const hint = useMemo(() => priceHint(product._id, prices, products), [product._id, prices, products])
  return (
    <Stack gap={4} component="section" aria-label={PRICE_TEXTS.title}>
      <Title order={4}>{PRICE_TEXTS.title}</Title>
      {hint.kind === 'observed' ? (
        <>
          <Text size="sm">
            {PRICE_TEXTS.observed} : {perUnit(hint.average, product.unit)}
          </Text>
          <Text size="sm" fw={600}>
            {PRICE_TEXTS.shopPrice} : {perUnit(hint.shopPrice, product.unit)}
          </Text>
        </>
      ) : hint.kind === 'reference' ? (
        <>
          <Text size="sm">
            {PRICE_TEXTS.reference} : {perUnit(hint.refPrice, product.unit)}
          </Text>
          <Text size="sm">
            {PRICE_TEXTS.referenceShopPrice} : {perUnit(hint.shopPrice, product.unit)}
          </Text>
          <Text size="xs" c="dimmed">
            {PRICE_TEXTS.referenceNote}
          </Text>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {PRICE_TEXTS.none}
        </Text>
      )}
    </Stack>
  )
}
