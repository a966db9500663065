import { Anchor, Badge, Divider, Group, Paper, Stack, Table, Text, Title } from '@mantine/core'
import { formatLongDay, formatNumber } from '../format'
import { useAutovalidateHours } from '../store/deliveries'
import { useUser } from '../store/hooks'
import { may } from '../team/roles'
import type { Product, UserType } from '../types'
import { ClaimForm } from './ClaimForm'
import { ClaimReview } from './ClaimReview'
import { DeliveryForm } from './DeliveryForm'
import {
  type ClaimWindow,
  DEFAULT_CLAIM_WINDOW,
  type DeliveryRow,
  STATUS_LABELS,
  canClaim,
  canEdit,
  canReceive,
  canReview,
  claimAnswerNotice,
  claimLabel,
  claimWindowNotice,
  hasNote,
  creditLabel,
  creditNotePath,
  invoicePath,
  lockNotice,
  noteNumber,
  notePath,
} from './model'
import { productOf } from './products'
import { ReceptionSummary } from '../reception/ReceptionSummary'
import { unitDigits } from '../units'
import { PABadge } from '../einvoicing/PABadge'

const CLAIM_TYPE_LABELS = { quality: 'Qualité', quantity: 'Quantité' } as const

function signed(value: number, unit: string): string {
  return `${value > 0 ? '+' : ''}${formatNumber(value, unitDigits(unit))} ${unit}`
}

/**
 * "Bon de livraison" (PRODUCT §2): the selected delivery, its lines and claim,
 * the documents, and what the viewer may do with it.
 */
export function DeliveryEditor({
  row,
  role,
  products,
  now,
  lock,
  lockLabel,
  claimWindow = DEFAULT_CLAIM_WINDOW,
}: {
  row: DeliveryRow
  role: UserType
  products: ReadonlyMap<string, Product>
  now: Date
  /** Lock time in minutes after midnight, Paris. */
  lock: number
  /** The same, as said: "12h". */
  lockLabel: string
  /** The claim window in force (PRODUCT §16 "Claims"). */
  claimWindow?: ClaimWindow
}) {
  const d = row.delivery
  const notice = lockNotice(d, now, lock, lockLabel)
  const hours = useAutovalidateHours()
  // A member sees only the forms their role may send (issue 41).
  const member = useUser()?.role
  const windowNotice = claimWindowNotice(row, role, now, claimWindow)
  const answerNotice = claimAnswerNotice(d, role, hours)
  const claimed = d.deliveryLines.filter((l) => l.quantityClaimed !== 0)
  // Forms restart from the stored delivery whenever the daemon changes it.
  const version = `${d._id}:${d.status}:${d.date}:${d.claimStatus}:${d.claimSentAt ?? ''}:${d.deliveryLines
    .map((l) => `${l.quantitySent}/${l.quantityClaimed}/${l.claimType ?? ''}/${l.claimComment ?? ''}`)
    .join(',')}`
  return (
    <Paper withBorder p="md" component="section" aria-label="Bon de livraison">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline">
          <Title order={2}>Bon de livraison</Title>
          <Badge variant="light" color={d.status === 'cancelled' ? 'red' : d.status === 'done' ? 'green' : 'blue'}>
            {STATUS_LABELS[d.status]}
          </Badge>
        </Group>
        <Text>
          {noteNumber(d.chrono)} — {role === 'producer' ? 'Magasin' : 'Producteur'} : {row.partner}
        </Text>
        <Text>Date de livraison : {formatLongDay(d.date)}</Text>
        {notice ? <Text size="sm">{notice}</Text> : null}
        <Table aria-label="Lignes du bon de livraison">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Produit</Table.Th>
              <Table.Th ta="right">Prévu</Table.Th>
              <Table.Th ta="right">Livré</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {d.deliveryLines.map((l) => {
              const p = productOf(products, l.product)
              const digits = unitDigits(p.unit)
              return (
                <Table.Tr key={l._id}>
                  <Table.Td>{p.name}</Table.Td>
                  <Table.Td ta="right">
                    {formatNumber(l.quantityExpected, digits)} {p.unit}
                  </Table.Td>
                  <Table.Td ta="right">
                    {formatNumber(l.quantitySent, digits)} {p.unit}
                  </Table.Td>
                </Table.Tr>
              )
            })}
          </Table.Tbody>
        </Table>

        <ReceptionSummary
          delivery={d}
          role={role}
          products={products}
          receivable={canReceive(d, role, now, claimWindow) && may(member, 'receive-delivery')}
        />

        {d.claimStatus !== 'void' ? (
          <Stack gap={4} aria-label="Demande d'avoir">
            <Text fw={600}>{claimLabel(d.claimStatus, role, d.claimBy)}</Text>
            {answerNotice ? (
              <Text size="sm" fw={canReview(row, role) ? 600 : undefined}>
                {answerNotice}
              </Text>
            ) : null}
            {claimed.map((l) => {
              const p = productOf(products, l.product)
              return (
                <Text key={l._id} size="sm">
                  {p.name} : {signed(l.quantityClaimed, p.unit)}
                  {l.claimType ? ` (${CLAIM_TYPE_LABELS[l.claimType]})` : ''}
                  {l.claimComment ? ` — ${l.claimComment}` : ''}
                </Text>
              )
            })}
          </Stack>
        ) : null}

        <Group gap="md">
          {hasNote(d) ? (
            <Anchor href={notePath(row.order._id, d._id)} download>
              Télécharger le bon de livraison
            </Anchor>
          ) : null}
          {row.order.invoice ? (
            <Group gap={6}>
              <Anchor href={invoicePath(row.order._id)} download>
                Télécharger la facture {row.order.invoice.number}
              </Anchor>
              <PABadge pa={row.order.invoice.pa} />
            </Group>
          ) : null}
          {(row.order.invoice?.credits ?? []).map((c) => (
            <Group key={c._id} gap={6}>
              <Anchor href={creditNotePath(c._id)} download>
                {creditLabel(c)}
              </Anchor>
              <PABadge pa={c.pa} />
            </Group>
          ))}
        </Group>

        {canEdit(d, role, now, lock) && may(member, 'update-delivery') ? (
          <>
            <Divider label="Modifier la livraison" labelPosition="left" />
            <DeliveryForm key={version} row={row} products={products} now={now} />
          </>
        ) : null}
        {windowNotice ? <Text size="sm">{windowNotice}</Text> : null}
        {canClaim(row, role, now, claimWindow) && may(member, 'claim-delivery') ? (
          <>
            <Divider
              label={d.claimStatus === 'sent' ? "Modifier la demande d'avoir" : "Demande d'avoir"}
              labelPosition="left"
            />
            <ClaimForm key={version} row={row} products={products} />
          </>
        ) : null}
        {canReview(row, role) && may(member, 'review-delivery') ? <ClaimReview row={row} /> : null}
      </Stack>
    </Paper>
  )
}
