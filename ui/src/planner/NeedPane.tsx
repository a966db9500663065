import { EmptyState, Paper, Stack, Text, Title } from '@mantine/core'
import { type ReactNode, useState } from 'react'
import { formatMonthYear } from '../format'
import { useProducers } from '../store/hooks'
import { DeliveryTermsNote } from '../trade/DeliveryTermsNote'
import { TradePanel } from '../trade/TradePanel'
import type { CellKey, NeedRO, ProductRO, Viewer } from './model'
import { NeedFigures } from './NeedFigures'
import { PriceInfo } from './PriceInfo'

/** PRODUCT §2 texts of the right pane. */
export const PANE_TEXTS = {
  noSelection: 'Veuillez sélectionner une cellule',
  noNeed: 'Pas de besoins à cette date pour le produit sélectionné',
} as const

/**
 * The planner's right pane (PRODUCT §2): what the selected cell holds. With
 * nothing selected or an empty cell it says so; for a need it shows first
 * what the viewer acts on — the trade blocks (commitment cards with their
 * buttons and the proposal form, trade/TradePanel), then the need's own
 * quantity editor when there is one (`editor`: the phone's sheet) — and the
 * information below: the need's quantities and price information
 * (issue 37: the action in view without scrolling, on a phone and at
 * 1440×900). The price information is shown once: under the proposal
 * form's fields while one is open, else as its own section.
 */
export function NeedPane({
  selection,
  need,
  product,
  viewer,
  editor,
}: {
  selection: CellKey | null
  need: NeedRO | undefined
  product: ProductRO | undefined
  /** Who looks (the trade blocks differ per side). */
  viewer: Viewer
  /** The need's quantity editor, after the trade blocks (the phone's sheet). */
  editor?: ReactNode
}) {
  const producers = useProducers()
  const [formShown, setFormShown] = useState(false)
  return (
    <Paper withBorder p="md" component="aside" aria-label="Détail du besoin">
      {!selection || !product ? (
        <EmptyState title={PANE_TEXTS.noSelection} size="sm" />
      ) : (
        <Stack gap="md">
          <Stack gap={0}>
            <Title order={3}>{product.name}</Title>
            <Text c="dimmed" tt="capitalize">
              {formatMonthYear(selection.month)}
            </Text>
          </Stack>
          {!need ? (
            <>
              <Text>{PANE_TEXTS.noNeed}</Text>
              {editor}
            </>
          ) : (
            <>
              <TradePanel
                need={need}
                unit={product.unit}
                viewer={viewer}
                producers={producers}
                priceHint={<PriceInfo needId={need._id} product={product} compact />}
                onFormShown={setFormShown}
                producerNote={(id) => <DeliveryTermsNote producerId={id} />}
              />
              {editor}
              <NeedFigures need={need} product={product} />
              {formShown ? null : <PriceInfo needId={need._id} product={product} />}
            </>
          )}
        </Stack>
      )}
    </Paper>
  )
}
