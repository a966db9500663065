import { screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { distributor } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { ActivityFeed } from './ActivityFeed'

// The feed reads its first page when it first shows (issue 42): until
// then it says nothing of the activity, not "Pas d'activité récente".

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })

beforeEach(() => {
  resetState(distributor.email)
  state.user = distributor
})
afterEach(() => vi.restoreAllMocks())

describe('ActivityFeed', () => {
  it('reads its first page, waiting for it before saying there is nothing', async () => {
    let answer!: (r: Response) => void
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)))
    renderWithProviders(<ActivityFeed />)
    expect(screen.getByLabelText('Chargement')).toBeInTheDocument()
    expect(screen.queryByText("Pas d'activité récente")).not.toBeInTheDocument()
    expect(fetch.mock.calls.map(([url]) => String(url))).toEqual(['/api/events'])
    answer(json([]))
    expect(await screen.findByText("Pas d'activité récente")).toBeInTheDocument()
    expect(state.fetched.events).toBe(true)
  })
})
