import { Alert, Button, Group, Paper, Radio, Stack, Text, Title } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { useSubmit } from '../forms/useSubmit'
import { updateProfile } from '../store/session'
import type { VatRegime } from '../types'
import { defaultVatRegime, validateVatRegime } from '../validation/vatRegime'

const REGIMES: { value: VatRegime; label: string; description: string }[] = [
  {
    value: 'normal',
    label: 'Régime normal : vous facturez la TVA',
    description: 'TVA à 5,5 % sur les produits alimentaires ; vos factures portent votre n° de TVA intracommunautaire.',
  },
  {
    value: 'franchise',
    label: 'Franchise en base de TVA (art. 293 B du CGI)',
    description:
      'Micro-entreprise non agricole : vos factures sont sans TVA, avec la mention « TVA non applicable, art. 293 B du CGI ».',
  },
  {
    value: 'flat',
    label: 'Remboursement forfaitaire agricole (non redevable de la TVA)',
    description:
      "Exploitant agricole non redevable : vos factures sont sans TVA ; le magasin vous remet un bulletin d'achat à chaque paiement et une attestation annuelle, pour votre demande de remboursement forfaitaire.",
  },
]

/**
 * The producer's VAT regime (PRODUCT §16 "VAT regimes"), saved with `PUT /api/user` and applied to the next
 * invoices. The normal regime needs the VAT number of the profile.
 */
export function VatRegimeForm({ regime, vatNumber }: { regime?: VatRegime; vatNumber: string }) {
  const saved = regime ?? defaultVatRegime(vatNumber)
  const [value, setValue] = useState<VatRegime>(saved)
  const submission = useSubmit()
  const error = validateVatRegime(value, vatNumber).vatRegime

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (error || value === saved) return
    await submission.run(async () => {
      await updateProfile({ vatRegime: value })
    })
  }

  return (
    <Paper component="form" withBorder p="md" onSubmit={onSubmit} noValidate aria-labelledby="vat-regime-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="vat-regime-title">
          Régime de TVA
        </Title>
        <Text size="sm" c="dimmed">
          Il décide de la TVA de vos prochaines factures ; les factures déjà émises ne changent pas.
        </Text>
        <Radio.Group value={value} onChange={(v) => setValue(v as VatRegime)} aria-labelledby="vat-regime-title">
          <Stack gap="xs">
            {REGIMES.map((r) => (
              <Radio key={r.value} value={r.value} label={r.label} description={r.description} />
            ))}
          </Stack>
        </Radio.Group>
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        {submission.failure ? (
          <Alert color="red" role="alert">
            {submission.failure}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" disabled={Boolean(error) || value === saved || submission.submitting}>
            {submission.label('Enregistrer le régime de TVA')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  )
}
