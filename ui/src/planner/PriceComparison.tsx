import { Stack, Text, Title } from '@mantine/core'
import { useEffect } from 'react'
import { loadComparison, useComparison } from '../store/comparison'
import type { PriceFigure, Unit } from '../types'
import { perUnit } from './price'

export const COMPARISON_TEXTS = {
  title: 'Comparaison des prix',
  national: 'Prix moyen payé sur Primeur',
  local: (area: string) => `Prix moyen payé dans le département ${area}`,
  compact: 'Prix moyen payé',
  onPlatform: 'sur Primeur',
  inArea: (area: string) => `dans le département ${area}`,
  purchases: (n: number) => (n === 1 ? '1 achat' : `${n} achats`),
  hidden: "pas assez d'achats comparables pour afficher une moyenne",
  rule: "Une moyenne ne compte que les achats entre entreprises (SIRET valide, adresse e-mail confirmée) d'au moins 1 kg ou 1 pièce et 10 € HT ; elle n'est affichée qu'avec au moins 3 magasins et 3 producteurs distincts, dont aucun ne pèse plus de la moitié des volumes, et arrondie à 10 centimes.",
  noArea: "L'adresse du magasin n'a pas de code postal : pas de moyenne départementale.",
  loading: 'Comparaison des prix en cours de chargement…',
  error: 'Comparaison des prix indisponible.',
  compactHidden: "Comparaison des prix : pas assez d'achats comparables pour ce produit et ce mois.",
} as const

/** "2,40 € / kg (12 achats)", with where between the price and the count when given. */
function figureText(f: PriceFigure, unit: Unit, where?: string): string {
  return `${perUnit(f.average, unit)}${where ? ` ${where}` : ''} (${COMPARISON_TEXTS.purchases(f.purchases)})`
}

/**
 * The price comparison of a need (PRODUCT §15): the average price paid on
 * the platform for its product and month, nationally and in the shop's
 * département, with the purchases behind each; a figure the server
 * withholds (PRODUCT §15 "Price privacy": too few distinct companies, or
 * one of them dominant) says so instead, and the rule is told once under
 * them. `compact` is the one line under the proposal form's fields.
 */
export function PriceComparison({ needId, unit, compact = false }: { needId: string; unit: Unit; compact?: boolean }) {
  const entry = useComparison(needId)
  useEffect(() => {
    void loadComparison(needId)
  }, [needId])

  if (!entry || entry.status === 'busy') {
    return compact ? null : (
      <Text size="sm" c="dimmed">
        {COMPARISON_TEXTS.loading}
      </Text>
    )
  }
  if (entry.status === 'error' || !entry.data) {
    return compact ? null : (
      <Text size="sm" c="dimmed">
        {COMPARISON_TEXTS.error}
      </Text>
    )
  }
  const { national, local, area } = entry.data

  if (compact) {
    const parts = [
      national ? figureText(national, unit, COMPARISON_TEXTS.onPlatform) : null,
      local ? figureText(local, unit, COMPARISON_TEXTS.inArea(local.area)) : null,
    ].filter((p): p is string => p !== null)
    return (
      <Text size="xs" c="dimmed" aria-label={COMPARISON_TEXTS.title}>
        {parts.length > 0 ? `${COMPARISON_TEXTS.compact} : ${parts.join(' · ')}` : COMPARISON_TEXTS.compactHidden}
      </Text>
    )
  }
  return (
    <Stack gap={4} component="section" aria-label={COMPARISON_TEXTS.title}>
      <Title order={4}>{COMPARISON_TEXTS.title}</Title>
      <Text size="sm">
        {COMPARISON_TEXTS.national} : {national ? figureText(national, unit) : COMPARISON_TEXTS.hidden}
      </Text>
      {area ? (
        <Text size="sm">
          {COMPARISON_TEXTS.local(area)} : {local ? figureText(local, unit) : COMPARISON_TEXTS.hidden}
        </Text>
      ) : (
        <Text size="xs" c="dimmed">
          {COMPARISON_TEXTS.noArea}
        </Text>
      )}
      {!national || (area && !local) ? (
        <Text size="xs" c="dimmed">
          {COMPARISON_TEXTS.rule}
        </Text>
      ) : null}
    </Stack>
  )
}
