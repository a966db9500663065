import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetDashboard } from '../store/dashboard'
import { EVENTS_PAGE, hasOlderEvents } from '../store/events'
import { resetState, state } from '../store/state'
import { renderWithProviders } from '../test/render'
import type { ActivityEvent, EventType } from '../types'
import { ActivityModal } from './ActivityModal'
import { holdLists } from '../test/lists'

const ME = { email: 'epicerie@exemple.fr', name: 'Épicerie du Lac' }
const FARM = { email: 'ferme@exemple.fr', name: 'Ferme des Glières' }

/** Event number i, one minute apart, newest first when i grows. */
const ev = (i: number, type: EventType = 'need:create', from = ME): ActivityEvent => ({
  _id: `e${String(i).padStart(3, '0')}`,
  createdAt: new Date(Date.UTC(2026, 10, 20, 8, 0) + i * 60_000).toISOString(),
  type,
  data: { product: { name: 'Tomate', unit: 'kg' }, date: '2026-12-01', quantity: i },
  origin: from,
  target: from === FARM ? { name: ME.name } : undefined,
})

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })

beforeEach(() => {
  resetState(ME.email)
  holdLists()
  resetDashboard()
})

describe('ActivityModal', () => {
  it('words each event for the viewer, newest first, under its day', () => {
    state.events = [ev(1), ev(3, 'proposal:request', FARM), ev(2)] // any order: the modal sorts
    renderWithProviders(<ActivityModal opened onClose={() => {}} />)
    const dialog = screen.getByRole('dialog', { name: 'Activités' })
    const day = within(dialog).getByRole('region', { name: 'vendredi 20 novembre 2026' })
    const entries = within(day).getAllByTestId('activity-entry')
    expect(entries.map((e) => e.textContent)).toEqual([
      '09:03 · Ferme des GlièresFerme des Glières vous a proposé 3 kg de Tomate pour décembre 2026.',
      '09:02 · vousVous avez créé un besoin de 2 kg de Tomate pour décembre 2026.',
      '09:01 · vousVous avez créé un besoin de 1 kg de Tomate pour décembre 2026.',
    ])
  })

  it('heads each day as a French sentence starts: only the first letter upper-cased', () => {
    state.events = [ev(1)]
    renderWithProviders(<ActivityModal opened onClose={() => {}} />)
    const heading = screen.getByRole('heading', { name: 'Vendredi 20 novembre 2026' })
    // Not CSS capitalize, which would show "Vendredi 20 Novembre 2026".
    expect(heading).not.toHaveStyle({ textTransform: 'capitalize' })
  })

  it("words nothing while closed: the modal sits on every page (the planner's first paint)", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    // An event the feed cannot word logs when worded: a closed modal must not.
    state.events = [{ ...ev(1), type: 'need:explode' as EventType }]
    function Page() {
      const [opened, setOpened] = useState(false)
      return (
        <>
          <button onClick={() => setOpened(true)}>Activités</button>
          <ActivityModal opened={opened} onClose={() => setOpened(false)} />
        </>
      )
    }
    renderWithProviders(<Page />)
    expect(log).not.toHaveBeenCalled()
    await userEvent.click(screen.getByRole('button', { name: 'Activités' }))
    expect(await screen.findByText('Activité non reconnue')).toBeInTheDocument()
    expect(log).toHaveBeenCalledWith('activity feed:', expect.objectContaining({ name: 'UnknownEventTypeError' }))
    log.mockRestore()
  })

  it('shows a neutral line for an unknown event type and keeps the others', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    state.events = [ev(2), { ...ev(1), type: 'need:explode' as EventType }]
    renderWithProviders(<ActivityModal opened onClose={() => {}} />)
    expect(screen.getByText('Vous avez créé un besoin de 2 kg de Tomate pour décembre 2026.')).toBeInTheDocument()
    expect(screen.getByText('Activité non reconnue')).toBeInTheDocument()
    expect(log).toHaveBeenCalledWith('activity feed:', expect.objectContaining({ name: 'UnknownEventTypeError' }))
  })

  it('says when there is nothing', () => {
    renderWithProviders(<ActivityModal opened onClose={() => {}} />)
    expect(screen.getByText("Pas d'activité récente")).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Voir plus' })).not.toBeInTheDocument()
  })

  it('pages back with "Voir plus" until nothing older remains', async () => {
    // The user load's 50, newest first: e059 … e010.
    state.events = Array.from({ length: EVENTS_PAGE }, (_, k) => ev(59 - k))
    const older = Array.from({ length: EVENTS_PAGE }, (_, k) => ev(9 - k)).slice(0, 10)
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(older))
    const user = userEvent.setup()
    renderWithProviders(<ActivityModal opened onClose={() => {}} />)
    expect(screen.getAllByTestId('activity-entry')).toHaveLength(50)
    await user.click(screen.getByRole('button', { name: 'Voir plus' }))
    expect(fetch).toHaveBeenCalledWith('/api/events?before=e010&limit=50', expect.objectContaining({ method: 'GET' }))
    expect(
      await screen.findByText('Vous avez créé un besoin de 0 kg de Tomate pour décembre 2026.'),
    ).toBeInTheDocument()
    expect(screen.getAllByTestId('activity-entry')).toHaveLength(60)
    // A short page: nothing older, the button goes.
    expect(screen.queryByRole('button', { name: 'Voir plus' })).not.toBeInTheDocument()
  })
})

describe('hasOlderEvents', () => {
  const page = Array.from({ length: EVENTS_PAGE }, (_, k) => ({ _id: `e${k}` }))
  it.each([
    [[], null, false],
    [page.slice(0, 49), null, false],
    [page, null, true],
    [page, 'e49', false],
    [page, 'e12', true],
    [[...page.slice(0, 49), { _id: '' }], null, false],
  ])('%#', (events, exhaustedAt, want) => {
    expect(hasOlderEvents(events as { _id: string }[], exhaustedAt as string | null)).toBe(want)
  })
})
