import { Modal, Stack, Text, Title } from '@mantine/core'
import { useMemo } from 'react'
import { emitterLabel, groupEventsByDay } from '../feed'
import { useEmail, useEvents } from '../store/hooks'

/** Recent activity grouped by day, newest first (SPEC §2 "Activity feed"). */
export function ActivityModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const events = useEvents()
  const email = useEmail()
  const days = useMemo(() => groupEventsByDay(events), [events])
  return (
    <Modal opened={opened} onClose={onClose} title="Activités" closeButtonProps={{ 'aria-label': 'Fermer' }}>
      {days.length === 0 ? (
        <Text c="dimmed">Pas d'activité récente</Text>
      ) : (
        <Stack gap="md">
          {days.map((day) => (
            <section key={day.day} aria-label={day.label}>
              <Title order={4} tt="capitalize" mb={4}>
                {day.label}
              </Title>
              <Stack gap={4}>
                {day.events.map(({ event, time }, i) => (
                  <Text key={`${event.createdAt}-${i}`} size="sm">
                    <Text span fw={600}>
                      {time}
                    </Text>{' '}
                    · {emitterLabel(event, email)} · {event.type}
                  </Text>
                ))}
              </Stack>
            </section>
          ))}
        </Stack>
      )}
    </Modal>
  )
}
