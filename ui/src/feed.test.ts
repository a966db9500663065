import { describe, expect, it } from 'vitest'
import { emitterLabel, groupEventsByDay } from './feed'
import type { ActivityEvent } from './types'

const event = (createdAt: string, name = 'Ferme des Saules'): ActivityEvent => ({
  createdAt,
  type: 'need:create',
  data: {},
  origin: { email: `${name.replace(/ /g, '').toLowerCase()}@exemple.fr`, name },
  target: { name: 'Épicerie' },
})

describe('groupEventsByDay', () => {
  it('returns nothing for no events', () => {
    expect(groupEventsByDay([])).toEqual([])
  })

  it('groups by Paris day, newest day and newest event first', () => {
    const events = [
      event('2026-12-23T09:00:00Z', 'A'),
      event('2026-12-24T08:00:00Z', 'B'),
      event('2026-12-24T23:30:00Z', 'C'), // 00:30 on the 25th in Paris
      event('2026-12-24T16:45:00Z', 'D'),
      event('not a date', 'E'),
    ]
    const days = groupEventsByDay(events)
    expect(days.map((d) => d.day)).toEqual(['2026-12-25', '2026-12-24', '2026-12-23'])
    expect(days.map((d) => d.label)).toEqual(['vendredi 25 décembre 2026', 'jeudi 24 décembre 2026', 'mercredi 23 décembre 2026'])
    expect(days[0].events.map((e) => [e.event.origin.name, e.time])).toEqual([['C', '00:30']])
    expect(days[1].events.map((e) => [e.event.origin.name, e.time])).toEqual([
      ['D', '17:45'],
      ['B', '09:00'],
    ])
    expect(days[2].events.map((e) => e.time)).toEqual(['10:00'])
  })

  it('does not mutate its input', () => {
    const events = [event('2026-12-23T09:00:00Z'), event('2026-12-24T09:00:00Z')]
    const copy = [...events]
    groupEventsByDay(events)
    expect(events).toEqual(copy)
  })
})

describe('emitterLabel', () => {
  const e = event('2026-12-24T08:00:00Z', 'Ferme des Saules')
  it.each([
    ['fermedessaules@exemple.fr', 'vous'],
    ['FermeDesSaules@Exemple.fr', 'vous'],
    ['autre@exemple.fr', 'Ferme des Saules'],
    [null, 'Ferme des Saules'],
  ])('viewer %s → %s', (viewer, expected) => {
    expect(emitterLabel(e, viewer)).toBe(expected)
  })
})
