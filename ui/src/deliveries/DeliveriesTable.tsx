import { Badge, Group, Pagination, Select, Table, Text, UnstyledButton } from '@mantine/core'
import type { ReactNode } from 'react'
import { stickyColumn } from '../components/sticky'
import { formatDay } from '../format'
import type { UserType } from '../types'
import { type DeliveryRow, PAGE_SIZES, STATUS_LABELS, type SortDirection, type SortKey } from './model'

/** PRODUCT §2 empty-list text. */
export const EMPTY_TEXT = 'Aucune livraison ne correspond aux critères sélectionnés'

export interface TableProps {
  rows: DeliveryRow[]
  role: UserType
  sort: { key: SortKey; direction: SortDirection }
  onSort: (key: SortKey) => void
  selected: string | null
  onSelect: (deliveryId: string) => void
  page: number
  pages: number
  onPage: (page: number) => void
  size: number
  onSize: (size: number) => void
}

/** The selected row's colour. */
const SELECTED = 'var(--mantine-color-green-light)'

/** The partners' column stays in place when the table scrolls sideways (a phone). */
const STICKY_COLUMN = stickyColumn()
const STICKY_SELECTED = stickyColumn({ tint: SELECTED })
const STICKY_CORNER = stickyColumn({ header: true })

function SortHeader(props: {
  column: SortKey
  sort: TableProps['sort']
  onSort: TableProps['onSort']
  sticky?: boolean
  children: ReactNode
}) {
  const active = props.sort.key === props.column
  const ariaSort = active ? (props.sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'
  return (
    <Table.Th aria-sort={ariaSort} style={props.sticky ? STICKY_CORNER : undefined}>
      <UnstyledButton onClick={() => props.onSort(props.column)} fw={700} fz="sm">
        {props.children} {active ? (props.sort.direction === 'asc' ? '▲' : '▼') : '↕'}
      </UnstyledButton>
    </Table.Th>
  )
}

/**
 * The flag of a delivery whose claim waits for the shop's answer (issue 37:
 * the shop's "Récep." table did not show it): the shop has to answer, the
 * producer waits.
 */
export const CLAIM_WAITING = {
  distributor: 'Avoir à traiter',
  producer: 'Avoir en attente',
} as const

/**
 * The sortable, paginated table of deliveries (PRODUCT §2). Narrower than
 * its columns (a phone), it scrolls sideways in its own box, the partners'
 * column in place.
 */
export function DeliveriesTable(props: TableProps) {
  return (
    <>
      <Table.ScrollContainer minWidth={460} type="native">
        <Table highlightOnHover aria-label="Livraisons">
          <Table.Thead>
            <Table.Tr>
              <SortHeader column="partner" sort={props.sort} onSort={props.onSort} sticky>
                {props.role === 'producer' ? 'Magasin' : 'Producteur'}
              </SortHeader>
              <SortHeader column="chrono" sort={props.sort} onSort={props.onSort}>
                Chrono
              </SortHeader>
              <SortHeader column="status" sort={props.sort} onSort={props.onSort}>
                Statut
              </SortHeader>
              <SortHeader column="date" sort={props.sort} onSort={props.onSort}>
                Date de livraison
              </SortHeader>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text c="dimmed">{EMPTY_TEXT}</Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              props.rows.map(({ delivery: d, partner }) => {
                const selected = d._id === props.selected
                return (
                  <Table.Tr
                    key={d._id}
                    onClick={() => props.onSelect(d._id)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault()
                        props.onSelect(d._id)
                      }
                    }}
                    tabIndex={0}
                    aria-selected={selected}
                    bg={selected ? SELECTED : undefined}
                    style={{ cursor: 'pointer' }}
                  >
                    <Table.Td style={selected ? STICKY_SELECTED : STICKY_COLUMN}>{partner}</Table.Td>
                    <Table.Td>{d.chrono}</Table.Td>
                    <Table.Td>
                      {STATUS_LABELS[d.status]}
                      {d.claimStatus === 'sent' ? (
                        <Badge ml={6} color="orange" variant="light" tt="none">
                          {/* The party that answers reads "à traiter": the shop the producer's claim, the producer the shop's. */}
                          {
                            CLAIM_WAITING[
                              (d.claimBy === 'shop') === (props.role === 'producer') ? 'distributor' : 'producer'
                            ]
                          }
                        </Badge>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{formatDay(d.date)}</Table.Td>
                  </Table.Tr>
                )
              })
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between" mt="sm">
        <Pagination total={props.pages} value={props.page} onChange={props.onPage} size="sm" aria-label="Pages" />
        <Select
          label="Lignes par page"
          data={PAGE_SIZES.map(String)}
          value={String(props.size)}
          onChange={(v) => v && props.onSize(Number(v))}
          allowDeselect={false}
          w={130}
          size="xs"
        />
      </Group>
    </>
  )
}
