import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ACCOUNT_MENU_TEXTS, AccountMenu } from '../components/AccountMenu'
import { resetState, state } from '../store/state'
import { distributor } from '../test/fixtures'
import { renderWithProviders } from '../test/render'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

const organisations = [
  { id: distributor._id, name: distributor.name, type: 'distributor' as const, role: 'buyer' as const },
  { id: 'f1', name: 'Ferme des Aravis', type: 'producer' as const, role: 'accountant' as const },
]

describe('the account menu of a team (PRODUCT §13 "Teams")', () => {
  beforeEach(() => resetState('x@exemple.fr'))

  it.each([
    ['owner', true],
    ['buyer', false],
  ] as const)('shows Équipe to the %s: %s, and “Quitter cette organisation” to the others', async (role, owner) => {
    state.user = { ...distributor, role, person: { _id: 'p1', name: 'Marie', email: 'x@exemple.fr' } }
    const user = userEvent.setup()
    renderWithProviders(<AccountMenu email="x@exemple.fr" />)
    await user.click(screen.getByRole('button', { name: ACCOUNT_MENU_TEXTS.button }))
    expect(screen.queryByRole('menuitem', { name: ACCOUNT_MENU_TEXTS.team }) !== null).toBe(owner)
    expect(screen.queryByRole('menuitem', { name: ACCOUNT_MENU_TEXTS.leave }) !== null).toBe(!owner)
  })

  it('switches to another organisation of the person, then reads it', async () => {
    state.user = { ...distributor, role: 'buyer', organisations }
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(200, { user: distributor }))
    const user = userEvent.setup()
    renderWithProviders(<AccountMenu email="x@exemple.fr" />)
    await user.click(screen.getByRole('button', { name: ACCOUNT_MENU_TEXTS.button }))
    await user.click(screen.getByRole('menuitem', { name: 'Ferme des Aravis · Comptabilité' }))
    await waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/user/organisation', expect.anything()))
    const [, init] = fetch.mock.calls.find(([url]) => url === '/api/user/organisation')!
    expect(JSON.parse(String(init?.body))).toEqual({ organisation: 'f1' })
  })
})
