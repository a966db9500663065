// The shops' accounting email is retired (issue 41, PRODUCT §13 "Teams"):
// the profile has no such field, and says that invoices go to the team's
// owners and accountants, offering an owner the way to invite theirs.
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ACCOUNTANT_NOTE, ProfileForm } from './ProfileForm'
import { resetState, state } from '../store/state'
import { distributor, producer } from '../test/fixtures'
import { renderWithProviders } from '../test/render'

const person = { _id: 'p1', name: 'Anne', email: 'x@exemple.fr' }

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

describe('the accountant of a shop', () => {
  beforeEach(() => {
    resetState('x@exemple.fr')
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(200, []))
  })
  afterEach(() => vi.restoreAllMocks())

  it.each([
    ['owner', true],
    ['buyer', false],
    ['accountant', false],
  ] as const)('is a member: the %s reads where invoices go, the way to invite one: %s', async (role, invites) => {
    state.user = { ...distributor, role, person }
    const onClose = vi.fn()
    const { currentPath } = renderWithProviders(<ProfileForm user={state.user} onClose={onClose} />)
    expect(screen.queryByLabelText('Email de la comptabilité', { exact: false })).not.toBeInTheDocument()
    expect(screen.getByText(ACCOUNTANT_NOTE.text)).toBeInTheDocument()
    const link = screen.queryByRole('link', { name: ACCOUNTANT_NOTE.invite })
    expect(link !== null).toBe(invites)
    if (!link) return
    await userEvent.setup().click(link)
    expect(currentPath()).toBe('/team')
    expect(onClose).toHaveBeenCalled()
  })

  it('is no word of a farm’s profile', () => {
    state.user = { ...producer, role: 'owner', person }
    renderWithProviders(<ProfileForm user={state.user} onClose={() => {}} />)
    expect(screen.queryByText(ACCOUNTANT_NOTE.text)).not.toBeInTheDocument()
  })

  it('uses the PRODUCT texts', () => {
    expect(ACCOUNTANT_NOTE).toEqual({
      text: "Les factures, les avoirs et les relances partent vers les propriétaires et les comptables de l'équipe, chacun à sa propre adresse. Pour que votre comptable les reçoive, invitez-le dans l'équipe avec le rôle Comptabilité.",
      invite: 'Inviter votre comptable',
    })
  })
})
