import { Stack, Text, Title } from '@mantine/core'
import { useEffect } from 'react'
import { loadComparison, useComparison } from '../store/comparison'
import type { PriceFigure, Unit } from '../types'
import type { ProductRO } from './model'
import { perUnit, priceView } from './price'

export const PRICE_TEXTS = {
  title: 'Information prix',
  national: 'Prix moyen payé sur Primeur',
  local: (area: string) => `Prix moyen payé dans le département ${area}`,
  localHidden: (area: string) => `Pas de moyenne pour le département ${area} : trop peu d'achats comparables.`,
  noArea: "L'adresse du magasin n'a pas de code postal : pas de moyenne départementale.",
  shopPrice: 'Prix de vente magasin pour une marge de 30 %',
  hidden: "Prix moyen payé sur Primeur : pas assez d'achats comparables pour afficher une moyenne",
  reference: 'Prix de référence producteur (catalogue)',
  referenceShopPrice: 'Prix de vente magasin indicatif pour une marge de 30 %',
  referenceNote: 'Ces prix du catalogue sont des références indicatives, pas des achats observés.',
  none: 'Aucune information de prix pour ce produit.',
  rule: "Une moyenne compte les achats de ce produit pour ce mois entre entreprises (SIRET valide, adresse e-mail confirmée) d'au moins 1 kg ou 1 pièce et 10 € HT, pondérés par leurs quantités ; elle n'est affichée qu'avec au moins 3 magasins et 3 producteurs distincts, dont aucun ne pèse plus de la moitié des volumes, et arrondie à 10 centimes.",
  compact: 'Prix moyen payé',
  onPlatform: 'sur Primeur',
  inArea: (area: string) => `dans le département ${area}`,
  purchases: (n: number) => (n === 1 ? '1 achat' : `${n} achats`),
  compactHidden: "Prix moyen payé : pas assez d'achats comparables pour ce produit et ce mois.",
  compactReference: (price: string) => `Prix de référence producteur (catalogue) : ${price}.`,
  loading: 'Information prix en cours de chargement…',
  error: 'Information prix indisponible.',
} as const

/** "2,40 € / kg (12 achats)", with where between the price and the count when given. */
function figureText(f: PriceFigure, unit: Unit, where?: string): string {
  return `${perUnit(f.average, unit)}${where ? ` ${where}` : ''} (${PRICE_TEXTS.purchases(f.purchases)})`
}

/**
 * The price information of a need (PRODUCT §2, §15; issue 37: one price
 * truth): the average price paid on the platform for the need's product and
 * month, nationally and in the shop's département, with the purchases
 * behind each and the shop price for a 30 % margin — or, when the server
 * withholds it (PRODUCT §15 "Price privacy"), none of it, the catalogue's
 * reference price standing in. The rule of what an average counts is told
 * under it. `compact` is the one line under the proposal form's fields, the
 * same figures; the planner shows one or the other, never both.
 */
export function PriceInfo({
  needId,
  product,
  compact = false,
}: {
  needId: string
  product: ProductRO
  compact?: boolean
}) {
  const entry = useComparison(needId)
  useEffect(() => {
    void loadComparison(needId)
  }, [needId])
  const unit = product.unit

  if (!entry || entry.status === 'busy' || entry.status === 'error' || !entry.data) {
    const text = entry?.status === 'error' ? PRICE_TEXTS.error : PRICE_TEXTS.loading
    return compact ? null : (
      <Text size="sm" c="dimmed">
        {text}
      </Text>
    )
  }
  const view = priceView(entry.data, product.refPrice)

  if (compact) {
    const text =
      view.kind === 'average'
        ? `${PRICE_TEXTS.compact} : ${[
            figureText(view.national, unit, PRICE_TEXTS.onPlatform),
            ...(view.local ? [figureText(view.local, unit, PRICE_TEXTS.inArea(view.local.area))] : []),
          ].join(' · ')}`
        : [
            PRICE_TEXTS.compactHidden,
            ...(view.reference ? [PRICE_TEXTS.compactReference(perUnit(view.reference.refPrice, unit))] : []),
          ].join(' ')
    return (
      <Text size="xs" c="dimmed" aria-label={PRICE_TEXTS.title}>
        {text}
      </Text>
    )
  }
  return (
    <Stack gap={4} component="section" aria-label={PRICE_TEXTS.title}>
      <Title order={4}>{PRICE_TEXTS.title}</Title>
      {view.kind === 'average' ? (
        <>
          <Text size="sm">
            {PRICE_TEXTS.national} : {figureText(view.national, unit)}
          </Text>
          {!view.area ? (
            <Text size="xs" c="dimmed">
              {PRICE_TEXTS.noArea}
            </Text>
          ) : view.local ? (
            <Text size="sm">
              {PRICE_TEXTS.local(view.area)} : {figureText(view.local, unit)}
            </Text>
          ) : (
            <Text size="xs" c="dimmed">
              {PRICE_TEXTS.localHidden(view.area)}
            </Text>
          )}
          <Text size="sm" fw={600}>
            {PRICE_TEXTS.shopPrice} : {perUnit(view.shopPrice, unit)}
          </Text>
        </>
      ) : (
        <>
          <Text size="sm">{PRICE_TEXTS.hidden}</Text>
          {view.reference ? (
            <>
              <Text size="sm">
                {PRICE_TEXTS.reference} : {perUnit(view.reference.refPrice, unit)}
              </Text>
              <Text size="sm">
                {PRICE_TEXTS.referenceShopPrice} : {perUnit(view.reference.shopPrice, unit)}
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
        </>
      )}
      <Text size="xs" c="dimmed">
        {PRICE_TEXTS.rule}
      </Text>
    </Stack>
  )
}
