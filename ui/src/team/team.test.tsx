import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { resetState, state } from '../store/state'
import { resetTeam } from '../store/team'
import { distributor } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { INVITATION_TEXTS, InvitationForm } from './InvitationForm'
import { TEAM_TEXTS, TeamPage } from './TeamPage'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

const pending = (hasLogin: boolean) => ({
  organisation: 'Épicerie du Lac',
  type: 'distributor',
  email: 'marie@lac.fr',
  role: 'buyer',
  hasLogin,
  expiresAt: Date.now() + 86_400_000,
})

describe('InvitationForm', () => {
  beforeEach(() => resetState(null))

  it('asks a new login for a name and a password, then joins', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, pending(false)))
      .mockResolvedValueOnce(json(200, { user: { ...distributor, role: 'buyer' } }))
    const user = userEvent.setup()
    const { currentPath } = renderWithProviders(<InvitationForm token="jeton" />, { path: '/landing/invitation' })
    expect(await screen.findByText(INVITATION_TEXTS.invited('Épicerie du Lac', 'Acheteur'))).toBeInTheDocument()
    await user.type(screen.getByLabelText(INVITATION_TEXTS.name), 'Marie')
    await user.type(screen.getByLabelText(INVITATION_TEXTS.newPassword), 'motdepasse1')
    await user.click(screen.getByRole('button', { name: INVITATION_TEXTS.submit }))
    await waitFor(() => expect(currentPath()).toBe('/'))
    expect(JSON.parse(String(fetch.mock.calls[1][1]?.body))).toEqual({
      token: 'jeton',
      name: 'Marie',
      password: 'motdepasse1',
    })
    expect(state.user?.role).toBe('buyer')
  })

  it('asks an existing login for its password only', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(200, pending(true)))
    renderWithProviders(<InvitationForm token="jeton" />)
    expect(await screen.findByText(INVITATION_TEXTS.existing('marie@lac.fr'))).toBeInTheDocument()
    expect(screen.queryByLabelText(INVITATION_TEXTS.name)).toBeNull()
    expect(screen.getByLabelText(INVITATION_TEXTS.password)).toBeInTheDocument()
  })

  it('says when the link is dead, in the daemon’s words', async () => {
    const dead = "Cette invitation n'est plus valable : elle a déjà servi, a expiré ou a été annulée."
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(
      json(422, {
        status: 422,
        title: 'Unprocessable Entity',
        detail: dead,
        errors: [{ location: 'body.token', message: dead }],
      }),
    )
    renderWithProviders(<InvitationForm token="jeton" />)
    expect(await screen.findByText(dead)).toBeInTheDocument()
  })
})

describe('TeamPage', () => {
  beforeEach(() => {
    resetState('x@exemple.fr')
    resetTeam()
  })

  it('tells a member who is no owner that the team is not theirs, and reads nothing', () => {
    state.user = { ...distributor, role: 'accountant' }
    const fetch = vi.spyOn(globalThis, 'fetch')
    renderWithProviders(<TeamPage />)
    expect(screen.getByText(TEAM_TEXTS.notOwner)).toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()
  })

  it('lists the members with their roles and invites with a shop’s roles', async () => {
    state.user = { ...distributor, role: 'owner', person: { _id: 'p1', name: 'Anne', email: 'x@exemple.fr' } }
    const team = {
      members: [{ personId: 'p1', name: 'Anne', email: 'x@exemple.fr', role: 'owner', since: 0 }],
      invitations: [],
    }
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, team))
      .mockResolvedValueOnce(json(201, { _id: 'i1', email: 'marie@lac.fr', role: 'buyer', createdAt: 0, expiresAt: 1 }))
      .mockResolvedValueOnce(json(200, team))
    const user = userEvent.setup()
    renderWithProviders(<TeamPage />)
    const members = await screen.findByRole('table', { name: TEAM_TEXTS.members })
    expect(await within(members).findByText(/Anne/)).toBeInTheDocument()
    const form = screen.getByRole('form', { name: TEAM_TEXTS.invite })
    const roles = within(form).getByLabelText(TEAM_TEXTS.role)
    expect([...roles.querySelectorAll('option')].map((o) => o.getAttribute('value'))).toEqual([
      'owner',
      'buyer',
      'receiver',
      'accountant',
    ])
    await user.type(within(form).getByLabelText(new RegExp(`^${TEAM_TEXTS.email}`)), 'marie@lac.fr')
    await user.click(within(form).getByRole('button', { name: TEAM_TEXTS.inviteButton }))
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(3))
    expect(JSON.parse(String(fetch.mock.calls[1][1]?.body))).toEqual({ email: 'marie@lac.fr', role: 'buyer' })
  })
})
