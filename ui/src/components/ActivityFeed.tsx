import { Button, Group, Loader, Stack, Text, Title } from '@mantine/core'
import { useEffect, useMemo } from 'react'
import { UNREADABLE_EVENT, describeEvent, emitterLabel, groupEventsByDay } from '../feed'
import { capitalizeFirst } from '../format'
import { hasOlderEvents, loadOlderEvents } from '../store/events'
import { useEventsExhaustedAt } from '../store/dashboard'
import { useEmail, useEvents, useLoading } from '../store/hooks'
import { ensureList, useListFetched } from '../store/lists'
import type { ActivityEvent } from '../types'

/**
 * The sentence of one event. An event the feed cannot word (an unknown type,
 * PRODUCT §4) throws in `describeEvent`; it is caught here so one bad event
 * shows a neutral line and the rest of the feed stays.
 */
function sentence(event: ActivityEvent, email: string | null): { text: string; readable: boolean } {
  try {
    return { text: describeEvent(event, email), readable: true }
  } catch (err) {
    console.error('activity feed:', err)
    return { text: UNREADABLE_EVENT, readable: false }
  }
}

/**
 * Recent activity grouped by day, newest first (PRODUCT §2 "Activity feed"),
 * with paging back: the activity modal's content. A component of its own so
 * that the feed is grouped and worded only while the modal shows it (Mantine
 * renders a closed modal's content not at all): the modal sits on every
 * page, and a shop's year of events cost tens of milliseconds on the
 * planner's first paint (docs/BENCHMARKS.md).
 */
export function ActivityFeed() {
  const events = useEvents() as readonly ActivityEvent[]
  const email = useEmail()
  const exhaustedAt = useEventsExhaustedAt()
  const loading = useLoading('events')
  const fetched = useListFetched('events')
  const days = useMemo(() => groupEventsByDay(events), [events])
  const more = hasOlderEvents(events, exhaustedAt)
  // The feed's first page, read when the feed first shows (issue 42).
  useEffect(() => {
    void ensureList('events')
  }, [])
  return (
    <>
      {days.length === 0 ? (
        // Until the first page comes, nothing is said of the activity.
        !fetched && loading !== 'error' ? (
          <Loader size="sm" aria-label="Chargement" />
        ) : (
          <Text c="dimmed">Pas d'activité récente</Text>
        )
      ) : (
        <Stack gap="md">
          {days.map((day) => (
            <section key={day.day} aria-label={day.label}>
              <Title order={4} mb={6}>
                {capitalizeFirst(day.label)}
              </Title>
              <Stack gap={8} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {day.events.map(({ event, time }, i) => {
                  const { text, readable } = sentence(event, email)
                  return (
                    <li key={event._id ?? `${event.createdAt}-${i}`} data-testid="activity-entry">
                      <Text size="sm">
                        <Text span fw={600}>
                          {time}
                        </Text>{' '}
                        ·{' '}
                        <Text span c="dimmed">
                          {emitterLabel(event, email)}
                        </Text>
                      </Text>
                      <Text size="sm" c={readable ? undefined : 'dimmed'} fs={readable ? undefined : 'italic'}>
                        {text}
                      </Text>
                    </li>
                  )
                })}
              </Stack>
            </section>
          ))}
          {more ? (
            <Group justify="center">
              <Button variant="light" loading={loading === 'busy'} onClick={() => void loadOlderEvents()}>
                Voir plus
              </Button>
            </Group>
          ) : null}
        </Stack>
      )}
    </>
  )
}
