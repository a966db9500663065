import { EmptyState } from '@mantine/core'
import type { EmptyReason } from './rows'

/** PRODUCT §2 texts of an empty planner list. */
export const EMPTY_TEXTS = {
  noMatch: 'Aucun résultat',
  macache: 'Macache',
  noNeeds: "Aucun besoin n'existe sur cette période ou pour ce filtre.",
  noMatchHint: 'Aucun produit de cette période ne correspond à la recherche.',
} as const

/** Why the grid is empty: a search without match ("Aucun résultat") or no need in the period or filter ("Macache"). */
export function EmptyPlanner({ reason }: { reason: EmptyReason }) {
  return reason === 'no-match' ? (
    <EmptyState title={EMPTY_TEXTS.noMatch} description={EMPTY_TEXTS.noMatchHint} py="xl" />
  ) : (
    <EmptyState title={EMPTY_TEXTS.macache} description={EMPTY_TEXTS.noNeeds} py="xl" />
  )
}
