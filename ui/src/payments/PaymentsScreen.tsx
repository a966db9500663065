import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { useEffect, useState } from 'react'
import { formatEUR } from '../format'
import { useUser } from '../store/hooks'
import { may } from '../team/roles'
import { claimPayments, downloadTransfer, loadPayments, usePayments } from '../store/payments'
import { AccountCard } from './AccountCard'
import { TransferPreviewPanel } from './TransferPreview'
import { PAYMENTS_TITLES, ibanChangedNotice } from './labels'

/**
 * "À payer" for a shop, "À encaisser" for a producer (PRODUCT §16
 * "Payments"): per partner, overdue first, what is owed with its documents,
 * and the payments.
 */
export function PaymentsScreen() {
  const user = useUser()
  const snapshot = usePayments()
  const owner = user?._id ?? null
  // Another user's accounts never show, even for the instant before they are reset.
  const mine = snapshot.owner === owner
  const data = mine ? snapshot.data : null
  const status = mine ? snapshot.status : 'busy'
  const error = mine ? snapshot.error : null
  // The shop's invoices chosen for a transfer file.
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set())
  const choose = (id: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev)
      if (on) next.add(id)
      else next.delete(id)
      return next
    })
  useEffect(() => {
    if (!owner) return
    claimPayments(owner)
    void loadPayments()
  }, [owner])
  if (!user) return null
  const role = user.type
  // The transfer files are the shop's owners' and accountants' (PRODUCT §13 "Teams").
  const transfers = role === 'distributor' && may(user.role, 'get-transfer-file')
  // The producers of the invoices ticked whose IBAN changed lately (PRODUCT §16 "Payments").
  const changedIbans = (data?.accounts ?? []).filter(
    (a) => a.ibanChangedOn && a.documents.some((d) => chosen.has(d._id)),
  )
  const total = (data?.accounts ?? []).reduce((s, a) => s + a.owed, 0)
  const overdue = (data?.accounts ?? []).reduce((s, a) => s + a.overdue, 0)
  return (
    <Stack p="md" gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{PAYMENTS_TITLES[role]}</Title>
        {data && data.accounts.length > 0 ? (
          <Text>
            Total : <strong>{formatEUR(Math.round(total * 100) / 100)}</strong>
            {overdue > 0 ? (
              <Text span c="red">{` dont ${formatEUR(Math.round(overdue * 100) / 100)} en retard`}</Text>
            ) : null}
          </Text>
        ) : null}
      </Group>
      {status === 'error' ? (
        <Alert color="red" title="Impossible de charger les paiements">
          {error}
        </Alert>
      ) : null}
      {!data && status === 'busy' ? <Loader aria-label="Chargement" /> : null}
      {data && data.accounts.length === 0 ? (
        <Text c="dimmed">Aucune facture pour le moment : elles apparaîtront ici dès leur émission.</Text>
      ) : null}
      {transfers && data && data.accounts.length > 0 ? (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            Cochez les factures à payer pour préparer un fichier de virement SEPA à importer dans votre banque.
          </Text>
          <Button disabled={chosen.size === 0} onClick={() => void downloadTransfer([...chosen])}>
            {chosen.size > 1 ? `Préparer le virement (${chosen.size} factures)` : 'Préparer le virement'}
          </Button>
        </Group>
      ) : null}
      {transfers && chosen.size > 0 ? <TransferPreviewPanel ids={[...chosen]} /> : null}
      {changedIbans.map((a) => (
        <Text key={a.partnerId} size="sm" c="orange.8" fw={600} role="note">
          {a.partnerName} — {ibanChangedNotice(a.ibanChangedOn ?? '')}
        </Text>
      ))}
      {data?.accounts.map((a) => (
        <AccountCard
          key={a.partnerId}
          account={a}
          role={role}
          today={data.today}
          chosen={transfers ? chosen : undefined}
          onChoose={transfers ? choose : undefined}
        />
      ))}
    </Stack>
  )
}
