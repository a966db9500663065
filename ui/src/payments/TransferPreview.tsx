import { Alert, Loader, Paper, Stack, Text } from '@mantine/core'
import { useEffect, useState } from 'react'
import { errorMessage } from '../api'
import { formatEUR, formatLongDay } from '../format'
import { previewTransfer } from '../store/payments'
import type { TransferPreview } from './types'

/** "FR7630006000011234567890189" → "FR76 3000 6000 0112 3456 7890 189". */
const groupIBAN = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ')

/**
 * What the transfer file of the invoices ticked will carry (PRODUCT §16
 * "Paying by bank transfer"), as the daemon plans it: the execution date
 * (the next TARGET2 business day) and, per producer, the account, the
 * amount and the remittance information — or why it cannot be prepared.
 */
export function TransferPreviewPanel({ ids }: { ids: readonly string[] }) {
  const key = ids.join(',')
  const [answer, setAnswer] = useState<{ key: string; preview?: TransferPreview; error?: string } | null>(null)
  useEffect(() => {
    const abort = new AbortController()
    previewTransfer(key.split(','), abort.signal).then(
      (preview) => setAnswer({ key, preview }),
      (err: unknown) => {
        if (!abort.signal.aborted) setAnswer({ key, error: errorMessage(err) })
      },
    )
    return () => abort.abort()
  }, [key])
  if (!answer || answer.key !== key) return <Loader size="sm" aria-label="Préparation de l'aperçu du virement" />
  if (answer.error || !answer.preview) {
    return (
      <Alert color="orange" title="Virement impossible">
        {answer.error}
      </Alert>
    )
  }
  const p = answer.preview
  return (
    <Paper withBorder p="sm" component="section" aria-label="Aperçu du virement">
      <Stack gap={6}>
        <Text size="sm">
          Votre banque exécutera le virement de {formatEUR(p.total)} le {formatLongDay(p.executionDate)} (prochain jour
          ouvré du système de paiement européen TARGET2).
        </Text>
        {p.transfers.map((t) => (
          <Stack key={t.partnerId} gap={0}>
            <Text size="sm" fw={600}>
              {t.name} : {formatEUR(t.amount)} sur l'IBAN {groupIBAN(t.iban)}
            </Text>
            <Text size="sm" c="dimmed">
              Libellé : {t.remittance}
            </Text>
          </Stack>
        ))}
      </Stack>
    </Paper>
  )
}
