import { Paper, Stack, Switch, Text, Title } from '@mantine/core'
import { useState } from 'react'
import { updateProfile } from '../store/session'

export const CUTOFF_TEXTS = {
  title: 'Rappel du 25',
  label: 'Recevoir le rappel du 25',
  description:
    'Chaque mois, à partir du 25, un email liste les besoins des magasins encore ouverts pour le mois suivant, pour les produits que vous vendez.',
} as const

/**
 * The producer's reminder of the 25th (PRODUCT §17 "cutoff"), on or off,
 * saved at once with `PUT /api/user`.
 */
export function CutoffReminderSwitch({ on }: { on: boolean }) {
  const [busy, setBusy] = useState(false)
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="cutoff-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="cutoff-title">
          {CUTOFF_TEXTS.title}
        </Title>
        <Text size="sm" c="dimmed">
          {CUTOFF_TEXTS.description}
        </Text>
        <Switch
          label={CUTOFF_TEXTS.label}
          checked={on}
          disabled={busy}
          onChange={async (e) => {
            const next = e.currentTarget.checked
            setBusy(true)
            await updateProfile({ cutoffReminder: next })
            setBusy(false)
          }}
        />
      </Stack>
    </Paper>
  )
}
