import type { Snapshot } from 'valtio'
import { Alert, Anchor, Badge, Button, Checkbox, Group, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core'
import { useState } from 'react'
import { PAStatus } from '../einvoicing/PAStatus'
import { formatDay, formatEUR } from '../format'
import { useUser } from '../store/hooks'
import { confirmPayment, loadOlder, setReminders, undoPayment, usePayments } from '../store/payments'
import { may } from '../team/roles'
import type { UserType } from '../types'
import {
  DOCUMENT_KIND_LABELS,
  DOCUMENT_STATUS_LABELS,
  METHOD_LABELS,
  OLDER_FAILED,
  PAYMENT_STATUS_LABELS,
  discountOffer,
  ibanChangedNotice,
  olderDocumentsLabel,
  olderPaymentsLabel,
} from './labels'
import { FlatRateSection, SlipLink } from './FlatRate'
import { LatePenalties } from './LatePenalties'
import { PaymentForm } from './PaymentForm'
import { type DocumentStatus, isCredit, type PaymentAccount } from './types'

const STATUS_COLORS: Record<DocumentStatus, string> = {
  issued: 'blue',
  'partly-paid': 'yellow',
  paid: 'green',
  overdue: 'red',
  imputed: 'gray',
}

/**
 * One partner's account (PRODUCT §16 "Payments"): what is owed and
 * overdue, each document with its balance and PDF, the payments, and the
 * actions of each side. The documents and payments are those the daemon
 * lists — the open ones and the recent months' — then the older ones read
 * on demand, a page per click (issue 42).
 */
export function AccountCard({
  account,
  role,
  today,
  chosen,
  onChoose,
}: {
  account: Snapshot<PaymentAccount>
  role: UserType
  today: string
  /** The shop's invoices chosen for a transfer, and how it changes them. */
  chosen?: ReadonlySet<string>
  onChoose?: (id: string, on: boolean) => void
}) {
  const [entering, setEntering] = useState(false)
  // The member's role: payments are the owners' and accountants' (PRODUCT §13 "Teams").
  const member = useUser()?.role
  const titleId = `account-${account.partnerId}`
  // The older rows read so far (loadOlder), and what remains.
  const older = usePayments().older[account.partnerId]
  const documents = older ? [...account.documents, ...older.documents] : account.documents
  const payments = older ? [...account.payments, ...older.payments] : account.payments
  const olderDocuments = older ? older.olderDocuments : (account.olderDocuments ?? 0)
  const olderPayments = older ? older.olderPayments : (account.olderPayments ?? 0)
  const more = (n: number, label: (n: number) => string) =>
    n > 0 ? (
      <Group>
        <Button
          size="xs"
          variant="subtle"
          loading={older?.busy ?? false}
          onClick={() => void loadOlder(account.partnerId)}
        >
          {label(n)}
        </Button>
      </Group>
    ) : null
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Title order={2} size="h4" id={titleId}>
            {account.partnerName}
          </Title>
          <Stack gap={0} align="flex-end">
            <Text fw={700} aria-label="Reste à payer">
              {formatEUR(account.owed)}
            </Text>
            {account.overdue > 0 ? (
              <Text c="red" size="sm">
                dont {formatEUR(account.overdue)} en retard
              </Text>
            ) : account.nextDue ? (
              <Text size="sm" c="dimmed">
                prochaine échéance le {formatDay(account.nextDue)}
              </Text>
            ) : null}
            {account.onAccount > 0 ? (
              <Text size="sm" c="dimmed">
                {formatEUR(account.onAccount)} d'avance en compte, imputés sur les prochaines factures
              </Text>
            ) : null}
            {account.declared > 0 ? (
              <Text size="sm" c="dimmed">
                {formatEUR(account.declared)} déclarés, à confirmer
              </Text>
            ) : null}
          </Stack>
        </Group>

        {role === 'distributor' && account.ibanChangedOn ? (
          <Text size="sm" c="orange.8" fw={600} role="note">
            {ibanChangedNotice(account.ibanChangedOn)}
          </Text>
        ) : null}
        {role === 'producer' && account.late.length > 0 ? <LatePenalties account={account} /> : null}
        <Table.ScrollContainer minWidth={520}>
          <Table striped aria-label={`Documents — ${account.partnerName}`}>
            <Table.Thead>
              <Table.Tr>
                {onChoose ? <Table.Th>Virement</Table.Th> : null}
                <Table.Th>Document</Table.Th>
                <Table.Th>Échéance</Table.Th>
                <Table.Th ta="right">Montant TTC</Table.Th>
                <Table.Th ta="right">Reste</Table.Th>
                <Table.Th>Statut</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {documents.map((d) => (
                <Table.Tr key={d._id}>
                  {onChoose ? (
                    <Table.Td>
                      {!isCredit(d.kind) && d.balance > 0 ? (
                        <Checkbox
                          aria-label={`Payer ${d.number} par virement`}
                          checked={chosen?.has(d._id) ?? false}
                          onChange={(e) => onChoose(d._id, e.currentTarget.checked)}
                        />
                      ) : null}
                    </Table.Td>
                  ) : null}
                  <Table.Td>
                    <Anchor href={d.path} download>
                      {DOCUMENT_KIND_LABELS[d.kind]} {d.number}
                    </Anchor>
                    {d.refers ? (
                      <Text size="xs" c="dimmed">
                        sur la facture {d.refers}
                      </Text>
                    ) : null}
                    {d.discount && d.discountUntil ? (
                      <Text size="xs" c="green.8">
                        {discountOffer(formatEUR(d.discount), formatDay(d.discountUntil))}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{d.dueDate ? formatDay(d.dueDate) : '—'}</Table.Td>
                  <Table.Td ta="right">{isCredit(d.kind) ? `−${formatEUR(d.total)}` : formatEUR(d.total)}</Table.Td>
                  <Table.Td ta="right">{isCredit(d.kind) ? '—' : formatEUR(d.balance)}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLORS[d.status]} variant="light">
                      {DOCUMENT_STATUS_LABELS[d.status]}
                    </Badge>
                    <PAStatus
                      pa={d.pa}
                      producer={role === 'producer'}
                      reissue={d.kind === 'invoice' && may(member, 'reissue-pa-invoice') ? d._id : undefined}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {more(olderDocuments, olderDocumentsLabel)}

        {payments.length > 0 ? (
          <Stack
            gap={4}
            aria-label={`Paiements — ${account.partnerName}`}
            component="ul"
            style={{ listStyle: 'none', padding: 0 }}
          >
            {payments.map((p) => (
              <Group key={p._id} component="li" justify="space-between" gap="xs" wrap="wrap">
                <Text size="sm" td={p.status === 'undone' || p.status === 'refused' ? 'line-through' : undefined}>
                  {formatDay(p.paidOn)} — {METHOD_LABELS[p.method]} de {formatEUR(p.amount)}
                  {p.reference ? ` (${p.reference})` : ''} — {PAYMENT_STATUS_LABELS[p.status]}
                </Text>
                <Group gap="xs">
                  {p.status === 'recorded' ? <SlipLink flatRate={account.flatRate} paymentId={p._id} /> : null}
                  {role === 'producer' && p.status === 'declared' && may(member, 'confirm-payment') ? (
                    <>
                      <Button size="xs" onClick={() => void confirmPayment(p._id, true)}>
                        Confirmer la réception
                      </Button>
                      <Button size="xs" variant="default" onClick={() => void confirmPayment(p._id, false)}>
                        Refuser
                      </Button>
                    </>
                  ) : null}
                  {((role === 'producer' && p.status === 'recorded') ||
                    (role === 'distributor' && p.status === 'declared' && p.byShop)) &&
                  may(member, 'undo-payment') ? (
                    <Button size="xs" variant="subtle" color="red" onClick={() => void undoPayment(p._id)}>
                      Annuler ce paiement
                    </Button>
                  ) : null}
                </Group>
              </Group>
            ))}
          </Stack>
        ) : null}
        {more(olderPayments, olderPaymentsLabel)}
        {older?.error ? (
          <Alert color="red" title={OLDER_FAILED}>
            {older.error}
          </Alert>
        ) : null}

        {role === 'producer' ? (
          <Switch
            label="Relances automatiques des factures échues"
            description="Le lendemain de l'échéance, puis 15 jours après, le magasin reçoit un rappel par email."
            checked={account.reminders}
            disabled={!may(member, 'set-reminders')}
            onChange={(e) => void setReminders(account.partnerId, e.currentTarget.checked)}
          />
        ) : null}
        <Anchor href={`/print/statement/${encodeURIComponent(account.partnerId)}`} download size="sm">
          Télécharger le relevé de compte (PDF)
        </Anchor>
        {account.flatRate ? (
          <FlatRateSection flatRate={account.flatRate} role={role} partnerId={account.partnerId} />
        ) : null}
        {!may(member, role === 'producer' ? 'record-payment' : 'declare-payment') ? null : entering ? (
          <PaymentForm account={account} role={role} today={today} onDone={() => setEntering(false)} />
        ) : (
          <Group justify="flex-end">
            <Button variant="light" onClick={() => setEntering(true)}>
              {role === 'producer' ? 'Enregistrer un paiement reçu' : 'Déclarer un paiement'}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  )
}
