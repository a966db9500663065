import { Alert, Box, Grid, Stack } from '@mantine/core'
import { type MouseEvent, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useSearch } from 'wouter'
import { formatMonthYear } from '../format'
import { DetailSheet } from '../components/DetailSheet'
import { SheetQuantityForm } from './SheetQuantityForm'
import { usePhone } from '../components/usePhone'
import { useProducts } from '../store/hooks'
import { linkedCell, linkedNeedId } from './deepLink'
import type { CellKey, NeedRO, Viewer } from './model'
import { NeedPane } from './NeedPane'
import { NeedsGrid } from './NeedsGrid'
import { ToneLegend } from './ToneLegend'
import { currentMonth, type Month, movePeriod, periodMonths } from './period'
import { usePlannerFilter } from './PlannerFilters'
import { PlannerHeader } from './PlannerHeader'
import { plannerView, type Tab } from './rows'
import { useSpan } from './useSpan'

/** What a commit did, as the planner shows it. */
export type CommitOutcome = { kind: 'unchanged' } | { kind: 'saved' } | { kind: 'refused'; message: string }

export interface PlannerProps {
  title: ReactNode
  subtitle?: ReactNode
  /** The needs shown: the shop's own, or one shop's for a producer. */
  needs: readonly NeedRO[]
  viewer: Viewer
  /** Commits a cell; absent, the grid is read-only. */
  onCommit?: (product: string, month: Month, text: string) => Promise<CommitOutcome>
  /** The add bar, between the header and the grid (the shop's planner). */
  addBar?: ReactNode
  /** Called with the first and last months shown whenever the period changes (to read their needs). */
  onPeriod?: (first: Month, last: Month) => void
}

/**
 * The needs planner shared by the shop (PRODUCT §2 "Planifier") and the
 * producer (one shop's needs): header with search, period and tabs, the
 * grid, and the right pane of the selected cell. A link naming a need
 * (`?need=ID`, see deepLink.ts) selects it once the needs hold it.
 */
export function Planner({ title, subtitle, needs, viewer, onCommit, addBar, onPeriod }: PlannerProps) {
  const products = useProducts()
  const span = useSpan()
  const [current] = useState(() => currentMonth())
  const [start, setStart] = useState<Month>(current)
  const [query, setQuery] = useState('')
  const [tab, setTab] = useState<Tab>('all')
  const [selection, setSelection] = useState<CellKey | null>(null)
  const [refusal, setRefusal] = useState<string | null>(null)
  // On a phone the pane is a sheet over the grid, opened by a tap on a
  // cell — not by focus alone, which arrows move and which returns to the
  // cell when the sheet closes.
  const phone = usePhone()
  const [sheet, setSheet] = useState(false)
  const openOnTap = useCallback((event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('[role="gridcell"], input')) setSheet(true)
  }, [])
  // Enter on a cell that does not edit opens it too (the keyboard's tap).
  const openOnEnter = useCallback(() => {
    if (phone) setSheet(true)
  }, [phone])

  // The need of the link, applied once when the needs hold it (state set
  // while rendering, React's pattern for state following its inputs).
  const linked = linkedNeedId(useSearch())
  const [applied, setApplied] = useState<string | null>(null)
  if (linked && linked !== applied) {
    const target = linkedCell(needs, linked, start, span)
    if (target) {
      setApplied(linked)
      setStart(target.start)
      setSelection(target.selection)
      setSheet(true)
    }
  }
  // Then the pane comes into view (below the grid on a phone).
  const pane = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (applied && !phone) pane.current?.scrollIntoView({ block: 'nearest' })
  }, [applied, phone])

  const months = useMemo(() => periodMonths(start, span), [start, span])
  useEffect(() => {
    onPeriod?.(months[0], months[months.length - 1])
  }, [onPeriod, months])
  const rowFilter = usePlannerFilter(viewer.type === 'distributor')
  const view = useMemo(
    () => plannerView(needs, products, months, viewer, query, tab, rowFilter.filter),
    [needs, products, months, viewer, query, tab, rowFilter.filter],
  )

  const productName = useCallback((id: string) => products.find((p) => p._id === id)?.name ?? id, [products])
  const refuse = useCallback(
    (product: string, month: Month, message: string) =>
      setRefusal(`${productName(product)}, ${formatMonthYear(month)} : ${message}`),
    [productName],
  )
  const commit = useCallback(
    async (product: string, month: Month, text: string) => {
      if (!onCommit) return
      setRefusal(null)
      const outcome = await onCommit(product, month, text)
      if (outcome.kind === 'refused') refuse(product, month, outcome.message)
    },
    [onCommit, refuse],
  )

  const selectedNeed = selection
    ? needs.find((n) => n.product === selection.product && n.date === selection.month)
    : undefined
  const selectedProduct = selection ? products.find((p) => p._id === selection.product) : undefined

  const detail = <NeedPane selection={selection} need={selectedNeed} product={selectedProduct} viewer={viewer} />
  // On a phone the need's quantity editor sits in the sheet, after what the
  // viewer answers (the trade blocks) and before the figures.
  const sheetDetail = (
    <NeedPane
      selection={selection}
      need={selectedNeed}
      product={selectedProduct}
      viewer={viewer}
      editor={
        onCommit && selection && selectedProduct ? (
          <SheetQuantityForm
            key={`${selection.product}|${selection.month}`}
            productId={selection.product}
            unit={selectedProduct.unit}
            month={selection.month}
            current={current}
            need={selectedNeed}
            onCommit={onCommit}
          />
        ) : null
      }
    />
  )

  return (
    <Stack p="md" gap="md">
      <PlannerHeader
        title={title}
        subtitle={subtitle}
        query={query}
        onQuery={setQuery}
        months={months}
        onPrevious={() => setStart((s) => movePeriod(s, span, -1))}
        onNext={() => setStart((s) => movePeriod(s, span, 1))}
        onToday={() => setStart(currentMonth())}
        tab={tab}
        counts={view.counts}
        onTab={setTab}
        filters={rowFilter.controls}
      />
      {addBar}
      {refusal ? (
        <Alert color="red" role="alert" withCloseButton closeButtonLabel="Fermer" onClose={() => setRefusal(null)}>
          {refusal}
        </Alert>
      ) : null}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: phone ? 12 : 9 }} onClick={phone ? openOnTap : undefined}>
          <NeedsGrid
            rows={view.rows}
            empty={view.empty}
            months={months}
            current={current}
            editable={!!onCommit}
            selection={selection}
            onSelect={setSelection}
            onCommit={commit}
            onRefuse={refuse}
            onOpen={openOnEnter}
          />
          {view.rows.length > 0 ? <ToneLegend /> : null}
        </Grid.Col>
        {phone ? null : (
          <Grid.Col span={{ base: 12, md: 3 }}>
            <Box ref={pane}>{detail}</Box>
          </Grid.Col>
        )}
      </Grid>
      {phone ? (
        <DetailSheet opened={sheet && selection !== null} onClose={() => setSheet(false)} title="Détail du besoin">
          {sheetDetail}
        </DetailSheet>
      ) : null}
    </Stack>
  )
}
