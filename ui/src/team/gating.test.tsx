// The interface shows only what the role may do (issue 41, PRODUCT §13
// "Teams"), by the one table daemon/testdata/roles.json: the
// organisation's profile is its owners', read-only for another role;
// every member names themself; an owner leaves while another owner
// remains, the last one reads why not and sends nothing.
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PROFILE_READ_ONLY, ProfileForm } from '../components/ProfileForm'
import { resetState, state } from '../store/state'
import { resetTeam } from '../store/team'
import { distributor } from '../test/fixtures'
import { renderWithProviders } from '../test/render'
import { PERSON_NAME_TEXTS, validatePersonName } from './personName'
import { PersonNameForm } from './PersonNameForm'
import { TEAM_TEXTS, TeamPage } from './TeamPage'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

const person = { _id: 'p1', name: 'Anne', email: 'x@exemple.fr' }

describe('the profile by role', () => {
  beforeEach(() => resetState('x@exemple.fr'))
  afterEach(() => vi.restoreAllMocks())

  it.each([
    ['owner', true],
    ['buyer', false],
    ['accountant', false],
  ] as const)('lets the %s change the organisation’s profile: %s', (role, owner) => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(200, []))
    state.user = { ...distributor, role, person }
    renderWithProviders(<ProfileForm user={state.user} onClose={() => {}} />)
    expect(screen.queryByRole('button', { name: 'Enregistrer' }) !== null).toBe(owner)
    expect(screen.queryByText(PROFILE_READ_ONLY) === null).toBe(owner)
    const tel = screen.getByLabelText('Téléphone', { exact: false })
    if (owner) expect(tel).toBeEnabled()
    else expect(tel).toBeDisabled()
    expect(screen.queryByRole('heading', { name: /Supprimer mon compte/ }) !== null).toBe(owner)
    // Every member names themself.
    expect(screen.getByRole('form', { name: PERSON_NAME_TEXTS.title })).toBeInTheDocument()
  })
})

describe('one’s own name', () => {
  beforeEach(() => resetState('x@exemple.fr'))
  afterEach(() => vi.restoreAllMocks())

  it.each([
    ['', PERSON_NAME_TEXTS.required],
    ['   ', PERSON_NAME_TEXTS.required],
    ['é'.repeat(101), PERSON_NAME_TEXTS.tooLong],
    ['Claire Martin', undefined],
  ])('checks %j as the daemon does', (name, message) => {
    expect(validatePersonName({ name }).name).toBe(message)
  })

  it('sends the name trimmed and takes the answer', async () => {
    state.user = { ...distributor, role: 'buyer', person }
    const answer = { ...distributor, role: 'buyer', person: { ...person, name: 'Claire Martin' } }
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(200, { user: answer }))
    const user = userEvent.setup()
    renderWithProviders(<PersonNameForm name="Anne" />)
    const input = screen.getByLabelText(PERSON_NAME_TEXTS.label)
    await user.clear(input)
    await user.type(input, '  Claire Martin ')
    await user.click(screen.getByRole('button', { name: PERSON_NAME_TEXTS.submit }))
    expect(await screen.findByText(PERSON_NAME_TEXTS.done)).toBeInTheDocument()
    expect(fetch).toHaveBeenCalledWith('/api/user/person', expect.objectContaining({ method: 'PUT' }))
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ name: 'Claire Martin' })
    expect(state.user?.person?.name).toBe('Claire Martin')
  })
})

describe('an owner leaving', () => {
  beforeEach(() => {
    resetState('x@exemple.fr')
    resetTeam()
  })
  afterEach(() => vi.restoreAllMocks())

  const member = (personId: string, role: string) => ({
    personId,
    name: personId,
    email: `${personId}@lac.fr`,
    role,
    since: 0,
  })

  it('refuses the last owner in French, sending nothing', async () => {
    state.user = { ...distributor, role: 'owner', person }
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, { members: [member('p1', 'owner'), member('p2', 'buyer')], invitations: [] }))
    const user = userEvent.setup()
    renderWithProviders(<TeamPage />)
    await user.click(await screen.findByRole('button', { name: TEAM_TEXTS.leave }))
    expect(screen.getByRole('alert')).toHaveTextContent(TEAM_TEXTS.lastOwner)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('leaves when another owner remains', async () => {
    state.user = { ...distributor, role: 'owner', person }
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(200, { members: [member('p1', 'owner'), member('p2', 'owner')], invitations: [] }))
      .mockResolvedValue(new Response(null, { status: 204 }))
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    const user = userEvent.setup()
    renderWithProviders(<TeamPage />)
    await user.click(await screen.findByRole('button', { name: TEAM_TEXTS.leave }))
    await waitFor(() =>
      expect(fetch).toHaveBeenCalledWith('/api/team/leave', expect.objectContaining({ method: 'POST' })),
    )
  })
})
