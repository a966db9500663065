import { Alert, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { useEffect } from 'react'
import { formatEUR } from '../format'
import { useUser } from '../store/hooks'
import { claimPayments, loadPayments, usePayments } from '../store/payments'
import { AccountCard } from './AccountCard'
import { PAYMENTS_TITLES } from './labels'

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
  useEffect(() => {
    if (!owner) return
    claimPayments(owner)
    void loadPayments()
  }, [owner])
  if (!user) return null
  const role = user.type
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
      {data?.accounts.map((a) => (
        <AccountCard key={a.partnerId} account={a} role={role} today={data.today} />
      ))}
    </Stack>
  )
}
