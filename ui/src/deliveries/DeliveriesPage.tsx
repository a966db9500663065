import { Grid, Paper, Stack, Tabs, Text, Title } from '@mantine/core'
import { useOffline } from '../offline/useOffline'
import { QueueStatus } from '../reception/QueueStatus'
import { useEffect, useMemo, useState } from 'react'
import { DetailSheet } from '../components/DetailSheet'
import { usePhone } from '../components/usePhone'
import { dayOf } from '../format'
import { loadDeliverySettings, useClaimWindow, useDeliveryLock, useDeliveryLockLabel } from '../store/deliveries'
import { useDistributors, useOrders, useProducers, useProducts, useUser } from '../store/hooks'
import { ensureMonths, ordersPeriod } from '../store/lists'
import type { Order, Product } from '../types'
import { DeliveriesTable } from './DeliveriesTable'
import { DeliveryEditor } from './DeliveryEditor'
import { AccountingExport } from './AccountingExport'
import { DayLink } from './DayLink'
import {
  FILTERS,
  type FilterKey,
  type SortKey,
  defaultDirection,
  deliveryRows,
  filterRows,
  lockMinutes,
  paginate,
  sortRows,
} from './model'
import { useNow } from './useNow'

/** PRODUCT §2 title of the deliveries page. */
export const DELIVERIES_TITLE = 'Livraisons passées et futures'

/** The title of the delivery's sheet on a phone. */
export const DELIVERY_SHEET_TITLE = 'Détail de la livraison'

/**
 * The deliveries page of both roles (PRODUCT §2): Livrer for producers
 * (/prod/deliveries), Récep. for shops (/dis/deliveries). The selected
 * delivery's note shows beside the table, or on a phone in a sheet over it.
 */
export function DeliveriesPage() {
  useOffline()
  const user = useUser()
  const orders = useOrders() as readonly Order[]
  const products = useProducts()
  const producers = useProducers()
  const distributors = useDistributors()
  const now = useNow()
  const today = dayOf(now)
  const role = user?.type ?? 'producer'
  const lock = lockMinutes(useDeliveryLock())
  const lockLabel = useDeliveryLockLabel()
  const claimWindow = useClaimWindow()
  useEffect(() => {
    void loadDeliverySettings()
  }, [])

  const [filter, setFilter] = useState<FilterKey>('upcoming14')
  // The orders of the period the tab shows, read by the screen (issue 42).
  useEffect(() => {
    void ensureMonths('orders', ordersPeriod(filter, today))
  }, [filter, today])
  const [sort, setSort] = useState<{ key: SortKey; direction: 'asc' | 'desc' }>({ key: 'date', direction: 'asc' })
  const [page, setPage] = useState(1)
  const [size, setSize] = useState(5)
  const [selected, setSelected] = useState<string | null>(null)
  // On a phone the note is a sheet, opened by a tap (or Enter) on a row and
  // closed by its button, Escape or a tap outside (the focus back on the row).
  const phone = usePhone()
  const [sheet, setSheet] = useState(false)
  const select = (id: string) => {
    setSelected(id)
    if (phone) setSheet(true)
  }

  const names = useMemo(() => {
    const m = new Map<string, string>()
    for (const p of producers) m.set(p._id, p.name)
    for (const d of distributors) m.set(d._id, d.name)
    return m
  }, [producers, distributors])
  const productMap = useMemo(() => new Map(products.map((p) => [p._id, p as Product])), [products])
  const rows = useMemo(() => deliveryRows(orders, role, names), [orders, role, names])
  const shown = useMemo(
    () => sortRows(filterRows(rows, filter, today), sort.key, sort.direction),
    [rows, filter, today, sort],
  )
  const paged = paginate(shown, page, size)
  const current = rows.find((r) => r.delivery._id === selected)

  const changeFilter = (value: string | null) => {
    if (!value) return
    const f = value as FilterKey
    setFilter(f)
    setSort({ key: 'date', direction: defaultDirection(f) })
    setPage(1)
  }
  const changeSort = (key: SortKey) => {
    setSort((s) => ({ key, direction: s.key === key && s.direction === 'asc' ? 'desc' : 'asc' }))
    setPage(1)
  }

  if (!user) return null
  const editor = current ? (
    <DeliveryEditor
      row={current}
      role={role}
      products={productMap}
      now={now}
      lock={lock}
      lockLabel={lockLabel}
      claimWindow={claimWindow}
    />
  ) : (
    <Paper withBorder p="md">
      <Text c="dimmed">Sélectionnez une livraison pour afficher son bon de livraison.</Text>
    </Paper>
  )
  return (
    <Stack p="md" gap="md">
      <Title order={1}>{DELIVERIES_TITLE}</Title>
      <QueueStatus />
      {role === 'producer' ? <DayLink rows={rows} today={today} /> : null}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: phone ? 12 : 7 }}>
          <Tabs value={filter} onChange={changeFilter}>
            <Tabs.List mb="sm">
              {FILTERS.map((f) => (
                <Tabs.Tab key={f.key} value={f.key}>
                  {f.label}
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </Tabs>
          <DeliveriesTable
            rows={paged.rows}
            role={role}
            sort={sort}
            onSort={changeSort}
            selected={selected}
            onSelect={select}
            page={paged.page}
            pages={paged.pages}
            onPage={setPage}
            size={size}
            onSize={(s) => {
              setSize(s)
              setPage(1)
            }}
          />
        </Grid.Col>
        {phone ? (
          <Grid.Col span={12}>
            <AccountingExport />
          </Grid.Col>
        ) : (
          <Grid.Col span={{ base: 12, md: 5 }}>
            {editor}
            <Stack mt="md">
              <AccountingExport />
            </Stack>
          </Grid.Col>
        )}
      </Grid>
      {phone ? (
        <DetailSheet opened={sheet && !!current} onClose={() => setSheet(false)} title={DELIVERY_SHEET_TITLE}>
          {editor}
        </DetailSheet>
      ) : null}
    </Stack>
  )
}
