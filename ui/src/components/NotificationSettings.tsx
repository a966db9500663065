import { Paper, SegmentedControl, Stack, Text, Title, useMatches } from '@mantine/core'
import { useId, useState } from 'react'
import { setNotificationMode } from '../store/email'
import type { NotificationMode, NotificationPref } from '../types'

export const NOTIFICATION_TEXTS = {
  title: 'Notifications par email',
  description:
    'Pour chaque sujet, choisissez comment être prévenu par email. Les notifications partent vers votre adresse de connexion une fois confirmée.',
} as const

/** The modes in the order shown, with their French labels. */
export const NOTIFICATION_MODES: readonly { value: NotificationMode; label: string }[] = [
  { value: 'immediate', label: 'Au plus une par heure' },
  { value: 'daily', label: 'Résumé quotidien à 7h' },
  { value: 'none', label: 'Aucune' },
]

/**
 * "Notifications par email" of the profile (PRODUCT §13 "Notifications"):
 * one control per kind the daemon lists, labelled as it gives it, saved at
 * once with `PUT /api/user/notifications`. On a phone the three choices
 * stack.
 */
export function NotificationSettings({ prefs }: { prefs: readonly Readonly<NotificationPref>[] }) {
  if (prefs.length === 0) return null
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="notifications-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="notifications-title">
          {NOTIFICATION_TEXTS.title}
        </Title>
        <Text size="sm" c="dimmed">
          {NOTIFICATION_TEXTS.description}
        </Text>
        {prefs.map((pref) => (
          <NotificationModeControl key={pref.kind} pref={pref} />
        ))}
      </Stack>
    </Paper>
  )
}

/**
 * One kind's control: the mode chosen shows at once and is saved; it stays
 * read-only (still focusable) until the daemon answered, and the store's
 * mode shows again after — the old one when the save failed.
 */
function NotificationModeControl({ pref }: { pref: Readonly<NotificationPref> }) {
  const [saving, setSaving] = useState<NotificationMode | null>(null)
  const orientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', sm: 'horizontal' })
  const labelId = useId()
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600} id={labelId}>
        {pref.label}
      </Text>
      <SegmentedControl
        aria-labelledby={labelId}
        data={NOTIFICATION_MODES.map((m) => ({ ...m }))}
        value={saving ?? pref.mode}
        orientation={orientation}
        fullWidth
        readOnly={saving !== null}
        onChange={async (value) => {
          const mode = value as NotificationMode
          if (mode === pref.mode) return
          setSaving(mode)
          await setNotificationMode(pref.kind, mode)
          setSaving(null)
        }}
      />
    </Stack>
  )
}
