import { Alert, Button, Group, Stack, Text } from '@mantine/core'
import { useSnapshot } from 'valtio'
import { useEmail } from '../store/hooks'
import { discard, queueState, waitingLabel } from './queue'

/**
 * The receptions still on the phone (PRODUCT §16 "Reception"): "3
 * réceptions en attente d'envoi" while some wait for the network, and each
 * one the daemon refused, with its refusal and "Abandonner". Nothing when
 * the queue is empty.
 */
export function QueueStatus() {
  const q = useSnapshot(queueState)
  const email = useEmail()
  const label = waitingLabel(q.waiting)
  const refused = q.waiting.filter((r) => r.refused)
  if (!label && refused.length === 0) return null
  return (
    <Stack gap="xs">
      {label ? (
        <Alert color="yellow" role="status" title={label}>
          {q.sending ? 'Envoi en cours…' : 'Elles sont gardées sur ce téléphone et partiront dès le retour du réseau.'}
        </Alert>
      ) : null}
      {refused.map((r) => (
        <Alert key={r.key} color="red" title="Réception refusée par le serveur">
          <Group justify="space-between" wrap="wrap">
            <Text size="sm">{r.refused}</Text>
            <Button size="compact-sm" variant="light" color="red" onClick={() => email && void discard(email, r.key)}>
              Abandonner cette réception
            </Button>
          </Group>
        </Alert>
      ))}
    </Stack>
  )
}
